import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { StoredSkill } from './records'

/** The cache file's format: a change to what it holds changes this (old files are then ignored). */
const FORMAT = 'site-skills-cache/1'

/** The first line of a cache file: what it is for, and how to know the rest is whole. */
interface Header {
  format: string
  key: string
  length: number
  sha256: string
}

export interface CacheStore {
  /** The cache file of this configuration. */
  readonly file: string
  /** The skills it holds, by folder key (empty when it is missing, for another configuration, truncated or corrupt). */
  read: () => Map<string, StoredSkill>
  /**
   * Replaces the file with these skills: written next to it, then renamed over it, so a reader (or
   * another build writing at once) sees the old file or the new one, never a mix. Never throws: a
   * cache that cannot be written leaves the build as it was.
   */
  write: (skills: readonly StoredSkill[]) => boolean
  /** Why the last read found nothing usable, for tests and debugging. */
  readonly miss: string | undefined
}

const digestOf = (body: Buffer) => createHash('sha256').update(body).digest('base64')

/**
 * The cache of one compiler configuration in `dir` (the plugin gives `node_modules/.cache/site-skills`).
 * `key` names everything the output depends on besides the skills' own inputs: this package's and
 * esbuild's versions, Node's, and the compiler options.
 */
export function createCacheStore(dir: string, key: string): CacheStore {
  const name = createHash('sha256').update(key).digest('hex').slice(0, 16)
  const file = join(dir, `skills-${name}.json`)
  let miss: string | undefined

  function read(): Map<string, StoredSkill> {
    const none = (why: string) => {
      miss = why
      return new Map<string, StoredSkill>()
    }
    let bytes: Buffer
    try {
      bytes = readFileSync(file)
    } catch (error) {
      return none((error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable')
    }
    const newline = bytes.indexOf(0x0a)
    if (newline < 0) return none('corrupt')
    let header: Header
    try {
      header = JSON.parse(bytes.toString('utf8', 0, newline)) as Header
    } catch {
      return none('corrupt')
    }
    if (header.format !== FORMAT || header.key !== key) return none('other')
    const body = bytes.subarray(newline + 1)
    if (body.length !== header.length || digestOf(body) !== header.sha256) return none('corrupt')
    try {
      const skills = JSON.parse(body.toString('utf8')) as StoredSkill[]
      miss = undefined
      return new Map(skills.map((s) => [s.key, s]))
    } catch {
      return none('corrupt')
    }
  }

  function write(skills: readonly StoredSkill[]): boolean {
    const body = Buffer.from(JSON.stringify(skills))
    const header: Header = { format: FORMAT, key, length: body.length, sha256: digestOf(body) }
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
    try {
      mkdirSync(dir, { recursive: true })
      writeFileSync(temp, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body]))
      renameSync(temp, file)
      return true
    } catch {
      rmSync(temp, { force: true })
      return false
    }
  }

  return {
    file,
    read,
    write,
    get miss() {
      return miss
    },
  }
}

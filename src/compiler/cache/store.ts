import { createHash } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { type Diagnostic, createDiagnostic } from '../diagnostics/catalog'
import { isReadFailure, readOwnFile } from '../fs/files'
import { toPosix } from '../fs/paths'
import { isWriteFailure, replaceFile } from '../fs/write-inside'
import type { StoredSkill } from './records'

/** The cache file's format: a change to what it holds changes this (old files are then ignored). */
const FORMAT = 'site-skills-cache/1'
/** The largest cache file read: far above what 10,000 skills write, far below what exhausts memory. */
const CACHE_FILE_LIMIT = 512 * 1024 * 1024

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
  /**
   * Why the file the last read found failed the file guard's inspection (a symlink, a FIFO, another
   * user's file): it was ignored, and the next write replaces it. Worth a warning, unlike a miss.
   */
  readonly untrusted: string | undefined
}

/** The warning that a file of a build cache in `project` failed the file guard's inspection and was ignored. */
export function cacheIgnored(project: string, path: string, reason: string): Diagnostic {
  const file = toPosix(relative(project, path))
  return createDiagnostic({ id: '', root: project }, file, { code: 'cache-ignored', data: { file, reason } })
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
  let untrusted: string | undefined

  function read(): Map<string, StoredSkill> {
    const none = (why: string) => {
      miss = why
      return new Map<string, StoredSkill>()
    }
    untrusted = undefined
    const bytes = readOwnFile(file, CACHE_FILE_LIMIT)
    if (bytes === 'missing') return none('missing')
    if (isReadFailure(bytes)) {
      untrusted = bytes.message
      return none('untrusted')
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
    try {
      mkdirSync(dir, { recursive: true })
    } catch {
      return false
    }
    // Whatever is there (an untrusted file, a FIFO, a symlink) is replaced by a whole new file, never written through.
    const data = Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body])
    return !isWriteFailure(replaceFile(dir, basename(file), data, { anyKind: true }))
  }

  return {
    file,
    read,
    write,
    get miss() {
      return miss
    },
    get untrusted() {
      return untrusted
    },
  }
}

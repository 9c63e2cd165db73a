import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Generated modules kept under one output key: at most this many keys stay in the folder. */
const KEPT_KEYS = 4

/**
 * The generated modules and the d.ts of one set of skills, kept on disk under the compiler's
 * `outputKey` (every skill's inputs by content, the options, this package's version): a build in a
 * new process whose skills are all unchanged reads them instead of generating them again. Each file
 * is written whole and renamed into place, so a reader sees all of it or nothing (and then generates
 * it itself); nothing here ever throws.
 */
export interface OutputCache {
  /** The code of a generated module kept under `key`, if any. */
  module: (key: string, id: string) => string | undefined
  /** Whether the d.ts file at `path` holds what was generated under `key`. */
  dtsCurrent: (key: string, path: string) => boolean
  /** Keeps what this build generated under `key`. */
  keep: (key: string, modules: ReadonlyMap<string, string>, dts: string | undefined) => void
  /** Drops the oldest keys beyond KEPT_KEYS (never `key`). */
  prune: (key: string) => void
}

const nameOf = (id: string) => `${createHash('sha256').update(id).digest('hex').slice(0, 24)}.js`
const digestOf = (text: string | Buffer) => createHash('sha256').update(text).digest('base64')

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

function writeWhole(path: string, text: string): void {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    writeFileSync(temp, text)
    renameSync(temp, path)
  } catch {
    rmSync(temp, { force: true })
  }
}

export function createOutputCache(dir: string): OutputCache {
  const folder = (key: string) => join(dir, 'modules', key)
  return {
    module(key, id) {
      // The first line is the digest of the rest: a file changed on disk is generated again.
      const text = readText(join(folder(key), nameOf(id)))
      const newline = text?.indexOf('\n') ?? -1
      if (text === undefined || newline < 0) return undefined
      const code = text.slice(newline + 1)
      return digestOf(code) === text.slice(0, newline) ? code : undefined
    },
    dtsCurrent(key, path) {
      const expected = readText(join(folder(key), 'dts.sha256'))
      if (!expected) return false
      try {
        if (!statSync(path).isFile()) return false
        return digestOf(readFileSync(path)) === expected
      } catch {
        return false
      }
    },
    keep(key, modules, dts) {
      try {
        mkdirSync(folder(key), { recursive: true })
        for (const [id, code] of modules) writeWhole(join(folder(key), nameOf(id)), `${digestOf(code)}\n${code}`)
        if (dts !== undefined) writeWhole(join(folder(key), 'dts.sha256'), digestOf(dts))
      } catch {
        // A cache that cannot be written leaves the build as it was.
      }
    },
    prune(key) {
      try {
        // In use: the newest, whatever other builds wrote since it was made.
        const now = new Date()
        utimesSync(folder(key), now, now)
        const keys = readdirSync(join(dir, 'modules'))
          .map((name) => ({ name, at: statSync(join(dir, 'modules', name)).mtimeMs }))
          .sort((a, b) => b.at - a.at)
        for (const old of keys.slice(KEPT_KEYS))
          if (old.name !== key) rmSync(join(dir, 'modules', old.name), { recursive: true, force: true })
      } catch {
        // A cache that cannot be written leaves the build as it was.
      }
    },
  }
}

import { createHash } from 'node:crypto'
import { lstatSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describeKind, isReadFailure, readOwnFile, readRegularFile } from '../compiler/fs/files'
import { replaceFile } from '../compiler/fs/write-inside'
import { cacheIgnored } from '../compiler/cache/store'
import type { Diagnostic } from '../compiler/diagnostics/catalog'

/** Generated modules kept under one output key: at most this many keys stay in the folder. */
const KEPT_KEYS = 4
/** The largest file of the cache read back (a module that inlines every note of 10,000 skills is far below it). */
const CACHE_FILE_LIMIT = 512 * 1024 * 1024

/**
 * The generated modules and the d.ts of one set of skills, kept on disk under the compiler's
 * `outputKey` (every skill's inputs by content, the options, this package's version): a build in a
 * new process whose skills are all unchanged reads them instead of generating them again. Each file
 * is written whole and renamed into place, so a reader sees all of it or nothing (and then generates
 * it itself); every file is read back through the file guard (see readOwnFile); nothing here ever throws.
 */
export interface OutputCache {
  /**
   * Inspects the files kept under `key` without reading them: each must be a regular file of the
   * user running the build. When one is not (a FIFO, a symlink, another user's file), all of them
   * are removed, to be generated again, and the answer is the warning `cache-ignored` naming that file.
   */
  inspect: (key: string) => Diagnostic | undefined
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
  const read = readOwnFile(path, CACHE_FILE_LIMIT)
  return read === 'missing' || isReadFailure(read) ? undefined : read.toString('utf8')
}

/** Why the entry at `path` is not a file this cache may read back, or undefined. */
function untrusted(path: string, folder: boolean): string | undefined {
  const info = lstatSync(path, { throwIfNoEntry: false })
  if (!info) return undefined
  if (info.isSymbolicLink()) return 'is a symlink'
  if (folder ? !info.isDirectory() : !info.isFile()) return `is ${describeKind(info)}, not a regular file`
  const uid = process.getuid?.()
  return uid !== undefined && info.uid !== uid
    ? `belongs to another user (uid ${info.uid}), so it is not trusted`
    : undefined
}

/** The folder of one key, then each file in it, until one is not what this cache wrote. */
function firstUntrusted(at: string): { file: string; reason: string } | undefined {
  const own = untrusted(at, true)
  if (own) return { file: at, reason: own }
  for (const name of readdirSync(at)) {
    const reason = untrusted(join(at, name), false)
    if (reason) return { file: join(at, name), reason }
  }
  return undefined
}

/** The output cache in `dir`, for the project at `project` (warnings name its files relative to it). */
export function createOutputCache(dir: string, project: string): OutputCache {
  const folder = (key: string) => join(dir, 'modules', key)
  return {
    inspect(key) {
      try {
        const found = firstUntrusted(folder(key))
        if (!found) return undefined
        rmSync(folder(key), { recursive: true, force: true })
        return cacheIgnored(project, found.file, found.reason)
      } catch {
        return undefined
      }
    },
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
      const dts = readRegularFile(path, CACHE_FILE_LIMIT)
      return !isReadFailure(dts) && digestOf(dts) === expected
    },
    keep(key, modules, dts) {
      try {
        mkdirSync(folder(key), { recursive: true })
        // Whatever is at a name (a FIFO, a symlink) is replaced by a whole new file, never written through.
        const write = (name: string, text: string) => replaceFile(folder(key), name, text, { anyKind: true })
        for (const [id, code] of modules) write(nameOf(id), `${digestOf(code)}\n${code}`)
        if (dts !== undefined) write('dts.sha256', digestOf(dts))
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

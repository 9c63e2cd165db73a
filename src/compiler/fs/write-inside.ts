import { closeSync, constants, lstatSync, mkdirSync, openSync, realpathSync, statSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { isInside, unsafeRelativePath } from './paths'

/** Why a file was not written: the codes reads report for the same findings, and `file-unwritable`. */
export interface WriteFailure {
  code: 'path-escape' | 'file-not-regular' | 'file-unwritable'
  message: string
}

/** Opening never follows a symlink at the end, never waits on a FIFO, and (for a new file) never opens an existing one. */
const WRITE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)

const escaped = (shown: string, why: string): WriteFailure => ({
  code: 'path-escape',
  message: `${shown} ${why}: nothing was written (a skill's files stay inside its folder)`,
})

/** A file system error in words, without the path Node puts in its message: `name too long (ENAMETOOLONG)`. */
export function fsReason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException
  const words = String(message)
    .replace(/^[A-Z]+: /, '')
    .replace(/, \w+ '.*$/s, '')
  return code ? `${words} (${code})` : words
}

const unwritable = (shown: string, error: unknown): WriteFailure => ({
  code: 'file-unwritable',
  message: `cannot write ${shown}: ${fsReason(error)}`,
})

/**
 * Where the symlink or folder at `path` really is, when that is inside `realDir`; a failure when
 * it points outside, nowhere (a dangling link: writing would create its target, wherever that is),
 * or is not a folder and `folder` is asked.
 */
function resolveInside(realDir: string, path: string, shown: string, folder: boolean): string | WriteFailure {
  let real: string
  try {
    real = realpathSync.native(path)
  } catch {
    return escaped(shown, 'is a symlink that points nowhere')
  }
  if (!isInside(realDir, real)) return escaped(shown, `leads to ${real}, outside the skill folder`)
  const info = statSync(real, { throwIfNoEntry: false })
  if (folder && !info?.isDirectory()) return { code: 'file-not-regular', message: `${shown} is not a folder` }
  if (!folder && info && !info.isFile())
    return { code: 'file-not-regular', message: `${shown} is not a regular file: nothing was written` }
  return real
}

/** The real folder `rel`'s file goes in, its folders made where missing, each checked like a read's. */
function folderFor(realDir: string, segments: string[], shown: (i: number) => string): string | WriteFailure {
  let dir = realDir
  for (let i = 0; i < segments.length - 1; i++) {
    const path = join(dir, segments[i]!)
    const info = lstatSync(path, { throwIfNoEntry: false })
    if (!info) mkdirSync(path)
    else if (info.isSymbolicLink()) {
      const real = resolveInside(realDir, path, shown(i), true)
      if (typeof real !== 'string') return real
      dir = real
      continue
    } else if (!info.isDirectory()) return { code: 'file-not-regular', message: `${shown(i)} is not a folder` }
    dir = path
  }
  return dir
}

/**
 * Writes `data` to `rel` (a plain relative path) below the real folder `realDir` by the rules reads
 * follow: symlinks on the way or at the end are resolved and must stay inside `realDir`, an
 * existing file must be a regular one (a FIFO or device is never opened), and missing folders are
 * made. `display` is how `realDir` is named in messages. Returns the real path written, or why not.
 */
export function writeFileInside(
  realDir: string,
  rel: string,
  data: string | Uint8Array,
  display = '.',
): string | WriteFailure {
  const segments = rel.split('/')
  const shown = (i: number) => `${display}/${segments.slice(0, i + 1).join('/')}`
  if (unsafeRelativePath(rel)) return escaped(`${display}/${rel}`, 'is not a plain path inside the folder')
  try {
    const dir = folderFor(realDir, segments, shown)
    if (typeof dir !== 'string') return dir
    let target = join(dir, segments.at(-1)!)
    const info = lstatSync(target, { throwIfNoEntry: false })
    if (info?.isSymbolicLink()) {
      const real = resolveInside(realDir, target, shown(segments.length - 1), false)
      if (typeof real !== 'string') return real
      target = real
    } else if (info && !info.isFile())
      return { code: 'file-not-regular', message: `${shown(segments.length - 1)} is not a regular file` }
    writeAll(target, typeof data === 'string' ? Buffer.from(data) : data, info === undefined)
    return target
  } catch (error) {
    return unwritable(`${display}/${rel}`, error)
  }
}

function writeAll(path: string, bytes: Uint8Array, fresh: boolean): void {
  const fd = openSync(path, WRITE_FLAGS | (fresh ? constants.O_EXCL : 0), 0o666)
  try {
    for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done)
  } finally {
    closeSync(fd)
  }
}

export function isWriteFailure(value: unknown): value is WriteFailure {
  return typeof value === 'object' && value !== null && 'code' in value && 'message' in value
}

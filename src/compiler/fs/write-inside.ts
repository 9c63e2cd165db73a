import { randomBytes } from 'node:crypto'
import {
  type Stats,
  closeSync,
  constants,
  fchmodSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { describeKind } from './files'
import { isInside, unsafeRelativePath } from './paths'

/** Why a file was not written: the codes reads report for the same findings, and `file-unwritable`. */
export interface WriteFailure {
  code: 'path-escape' | 'file-not-regular' | 'file-unwritable'
  message: string
}

/**
 * A file written is first a new file beside its target: made here and now, never an existing one, never through a
 * symlink.
 */
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0)

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
    let info = lstatSync(target, { throwIfNoEntry: false })
    if (info?.isSymbolicLink()) {
      const real = resolveInside(realDir, target, shown(segments.length - 1), false)
      if (typeof real !== 'string') return real
      target = real
      info = statSync(real, { throwIfNoEntry: false })
    } else if (info && !info.isFile())
      return { code: 'file-not-regular', message: `${shown(segments.length - 1)} is not a regular file` }
    writeReplacing(target, typeof data === 'string' ? Buffer.from(data) : data, info)
    return target
  } catch (error) {
    return unwritable(`${display}/${rel}`, error)
  }
}

/**
 * Writes `bytes` to a new file beside `path` (same folder, so the rename cannot cross devices), then
 * renames it over `path`: a reader sees the old file or the new one, never a part, and the bytes
 * never go through a symlink, a hard link or a FIFO at `path` (the rename replaces the name, not
 * what it leads to). An existing file's permission bits are kept.
 */
function writeReplacing(path: string, bytes: Uint8Array, existing: Stats | undefined): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
  const fd = openSync(temp, TEMP_FLAGS, 0o666)
  try {
    try {
      if (existing?.isFile()) fchmodSync(fd, existing.mode & 0o7777)
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done)
    } finally {
      closeSync(fd)
    }
    renameSync(temp, path)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}

/**
 * The one way a single file is written in a folder the caller owns (a verification record, a
 * cache file): `name` in `dir` replaced whole (see writeReplacing). What is there must be nothing
 * or a regular file: a symlink is never written through, even one that stays in the folder, and a
 * FIFO, device or folder is left alone; with `anyKind` (a cache's own folder), a symlink, FIFO or
 * device there is replaced by the new file instead (never written through either). `shown` names
 * the file in messages. Returns the path written, or why not; never throws.
 */
export function replaceFile(
  dir: string,
  name: string,
  data: string | Uint8Array,
  options: { shown?: string; anyKind?: boolean } = {},
): string | WriteFailure {
  const path = join(dir, name)
  const shown = options.shown ?? name
  try {
    const info = lstatSync(path, { throwIfNoEntry: false })
    const replaced = options.anyKind && !info?.isDirectory()
    if (info?.isSymbolicLink() && !replaced)
      return {
        code: 'file-not-regular',
        message: `${shown} is a symlink: nothing was written (the file is replaced, never written through a link)`,
      }
    if (info && !info.isFile() && !replaced)
      return {
        code: 'file-not-regular',
        message: `${shown} is ${describeKind(info)}, not a regular file: nothing was written`,
      }
    writeReplacing(path, typeof data === 'string' ? Buffer.from(data) : data, info)
    return path
  } catch (error) {
    return unwritable(shown, error)
  }
}

export function isWriteFailure(value: unknown): value is WriteFailure {
  return typeof value === 'object' && value !== null && 'code' in value && 'message' in value
}

import { type BigIntStats, closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { plainPathInside } from './paths'
import { type StampLog, contentDigest, stampOfStats } from './stamp'

/** Size limits of the files of a skill (bytes), the same in `validate`, builds and the no-build API. */
export const FILE_LIMITS = {
  manifest: 1024 * 1024,
  note: 4 * 1024 * 1024,
  tool: 4 * 1024 * 1024,
  /** A saved page or recording of `examples`: `site-skills test` serves it whole. */
  fixture: 16 * 1024 * 1024,
  /** A skill's `verification.json`: a digest per file of the skill and a line per example. */
  record: 4 * 1024 * 1024,
} as const

export type FileRole = keyof typeof FILE_LIMITS

/** Why a file was not read. `size` is set for `too-large`; `cause`, the system's own words, when it did not open. */
export interface ReadFailure {
  problem: 'not-regular' | 'unreadable' | 'too-large'
  message: string
  size?: number
  cause?: string
}

/** The diagnostic code of each way a read fails. */
export const READ_FAILURE_CODES = {
  'not-regular': 'file-not-regular',
  unreadable: 'file-unreadable',
  'too-large': 'file-too-large',
} as const

// Opening a FIFO for reading waits for a writer unless non-blocking; regular files ignore the flag.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)
/**
 * Opening a symlink fails (ELOOP) rather than opening its target. Branch: Windows has no such
 * flag (0), and `readPlainFile` then opens nothing itself ('other': the caller inspects the path).
 * Only Linux reaches it from the compiler (`plainPathInside` answers there alone), but it is
 * exported, and opening a plain path there must never follow a symlink.
 */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0

/** What a file that is no regular file is, in a message's words. */
export function describeKind(
  info: Pick<BigIntStats, 'isFIFO' | 'isCharacterDevice' | 'isBlockDevice' | 'isSocket' | 'isDirectory'>,
): string {
  if (info.isFIFO()) return 'a named pipe (FIFO)'
  if (info.isCharacterDevice()) return 'a character device'
  if (info.isBlockDevice()) return 'a block device'
  if (info.isSocket()) return 'a socket'
  if (info.isDirectory()) return 'a directory'
  return 'not a regular file'
}

function sizeLabel(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`
}

/** The message of a file over its limit, naming both sizes. */
export function tooLargeMessage(size: number, limit: number): string {
  return `is ${size} bytes; the limit is ${limit} bytes (${sizeLabel(limit)})`
}

/** Reads the `size` bytes the stat announced (a file that grows meanwhile is read to that size). */
function readSize(fd: number, size: number): Buffer {
  const buffer = Buffer.allocUnsafe(size)
  let total = 0
  while (total < size) {
    const n = readSync(fd, buffer, total, size - total, null)
    if (n === 0) break
    total += n
  }
  return total === size ? buffer : buffer.subarray(0, total)
}

/**
 * The rest of a read once the file is open (`info`: its stats, when taken already): stamp, kind, size against `limit`,
 * bytes.
 */
function readOpened(
  fd: number,
  path: string,
  limit: number,
  stamps?: StampLog,
  known?: BigIntStats,
): Buffer | ReadFailure {
  try {
    const info = known ?? fstatSync(fd, { bigint: true })
    if (stamps && !stamps.has(path)) stamps.set(path, stampOfStats(info))
    if (!info.isFile()) return { problem: 'not-regular', message: `is ${describeKind(info)}, not a regular file` }
    const size = Number(info.size)
    if (size > limit) return { problem: 'too-large', message: tooLargeMessage(size, limit), size }
    const bytes = readSize(fd, size)
    if (stamps?.digests && !stamps.digests.has(path)) stamps.digests.set(path, contentDigest(bytes))
    return bytes
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return { problem: 'unreadable', message: `cannot be read: ${(error as Error).message}${code ? ` (${code})` : ''}` }
  } finally {
    closeSync(fd)
  }
}

/** Why a file did not open, in a message's words. */
function openFailure(error: unknown): ReadFailure {
  const code = (error as NodeJS.ErrnoException).code
  const cause = (error as Error).message
  const reason = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : cause
  return { problem: 'unreadable', message: `cannot be read: ${reason}${code ? ` (${code})` : ''}`, cause }
}

/**
 * The one way a skill's files are read: only regular files (a FIFO would block forever, a device
 * never ends), at most `limit` bytes, and without throwing: what went wrong comes back. `stamps`,
 * when given, gets the stamp of what was read.
 */
export function readRegularFile(path: string, limit: number, stamps?: StampLog): Buffer | ReadFailure {
  let fd: number
  try {
    fd = openSync(path, OPEN_FLAGS)
  } catch (error) {
    return openFailure(error)
  }
  return readOpened(fd, path, limit, stamps)
}

/**
 * What `readRegularFile` would refuse about a file, found without reading it (opened as it would
 * be, then closed): undefined for a readable regular file within `limit`. For files served or read
 * later, such as fixtures, whose content validation does not need.
 */
export function inspectRegularFile(path: string, limit: number): ReadFailure | undefined {
  let fd: number
  try {
    fd = openSync(path, OPEN_FLAGS)
  } catch (error) {
    return openFailure(error)
  }
  return inspectOpened(fd, limit)
}

/** inspectRegularFile once the file is open: its kind and size (closes it). */
function inspectOpened(fd: number, limit: number): ReadFailure | undefined {
  try {
    const info = fstatSync(fd, { bigint: true })
    if (!info.isFile()) return { problem: 'not-regular', message: `is ${describeKind(info)}, not a regular file` }
    const size = Number(info.size)
    return size > limit ? { problem: 'too-large', message: tooLargeMessage(size, limit), size } : undefined
  } finally {
    closeSync(fd)
  }
}

/**
 * `inspectRegularFile`, with `missing` where nothing is (the path, or a folder on it, does not
 * exist): for files another program reads after us by its own rules, such as Node's resolver,
 * which opens a package.json without care (a FIFO there hangs it).
 */
export function inspectFileAt(path: string, limit: number): ReadFailure | 'missing' | undefined {
  let fd: number
  try {
    fd = openSync(path, OPEN_FLAGS)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : openFailure(error)
  }
  return inspectOpened(fd, limit)
}

/**
 * `readRegularFile` for a path whose folders are known to be plain (no symlinks): the file is
 * opened without following a symlink, so no `lstat` is needed to know it is no symlink. Answers
 * `missing` when there is no such file, and `other` for anything that is not a regular file
 * that opened (a symlink, a folder, a FIFO, no permission): the caller then inspects the path
 * as for any other and reads it with `readRegularFile`, which says what it is.
 */
export function readPlainFile(
  path: string,
  limit: number,
  stamps?: StampLog,
): Buffer | ReadFailure | 'missing' | 'other' {
  if (NO_FOLLOW === 0) return 'other'
  let fd: number
  try {
    fd = openSync(path, OPEN_FLAGS | NO_FOLLOW)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'other'
  }
  let info: BigIntStats | undefined
  try {
    info = fstatSync(fd, { bigint: true })
  } catch {}
  if (!info?.isFile()) {
    closeSync(fd)
    return 'other'
  }
  return readOpened(fd, path, limit, stamps, info)
}

/**
 * The one way a file this process wrote for itself (a build cache) is read back: as
 * `readRegularFile` reads (a regular file within `limit`, a FIFO never waited on), never through a
 * symlink, and only when it belongs to the user running this process: a file another user put
 * there is not trusted. `missing` when there is none.
 */
export function readOwnFile(path: string, limit: number): Buffer | ReadFailure | 'missing' {
  let fd: number
  try {
    fd = openSync(path, OPEN_FLAGS | NO_FOLLOW)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing'
    return code === 'ELOOP'
      ? { problem: 'not-regular', message: 'is a symlink, not a regular file' }
      : openFailure(error)
  }
  let info: BigIntStats
  try {
    info = fstatSync(fd, { bigint: true })
  } catch (error) {
    closeSync(fd)
    return openFailure(error)
  }
  // Branch: Windows has no user ids (getuid is undefined there), and no other user's files to fear in a project's
  // cache.
  const uid = process.getuid?.()
  if (uid !== undefined && info.uid !== BigInt(uid)) {
    closeSync(fd)
    return { problem: 'unreadable', message: `belongs to another user (uid ${info.uid}), so it is not trusted` }
  }
  return readOpened(fd, path, limit, undefined, info)
}

/**
 * A file below a real folder, read at once when its path is plain (see `plainPathInside` and
 * `readPlainFile`): its real path and what the read gave, `missing`, or undefined when the path
 * must be inspected first (a symlink on the way or at the end, a folder, a FIFO, no permission).
 * A path in `done` (read already) is not read again: it comes back without `read`.
 */
export function readPlainInside(
  realDir: string,
  rel: string,
  limit: number,
  options: { stamps?: StampLog; plainDirs?: Set<string>; done?: ReadonlyMap<string, unknown> } = {},
): { real: string; read?: Buffer | ReadFailure } | 'missing' | undefined {
  const real = plainPathInside(realDir, rel, options.plainDirs)
  if (real === undefined || real === 'missing') return real
  if (options.done?.has(real)) return { real }
  const read = readPlainFile(real, limit, options.stamps)
  if (read === 'other') return undefined
  return read === 'missing' ? 'missing' : { real, read }
}

/**
 * The first `bytes` bytes of a regular file (all of it when shorter), or undefined when it cannot be
 * read or is not a regular file. For the headers of page fixtures, which may be large.
 */
export function readFileHead(path: string, bytes: number): Buffer | undefined {
  let fd: number
  try {
    fd = openSync(path, OPEN_FLAGS)
  } catch {
    return undefined
  }
  try {
    const info = fstatSync(fd)
    return info.isFile() ? readSize(fd, Math.min(info.size, bytes)) : undefined
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }
}

export function isReadFailure(value: unknown): value is ReadFailure {
  return typeof value === 'object' && value !== null && 'problem' in value
}

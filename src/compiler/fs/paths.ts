import { lstatSync, realpathSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'

/** Top-level folders of a skill with a meaning of their own: never a product (`<product>/prompt.md`). */
export const RESERVED_PRODUCTS: ReadonlySet<string> = new Set(['notes', 'tools', 'browser-tools'])

/** TypeScript files, by extension (`.ts`, `.mts`, `.cts`, `.tsx`): the one test of "is this TypeScript". */
export const TS_FILE_RE = /\.[mc]?tsx?$/

export function isTypeScript(file: string): boolean {
  return TS_FILE_RE.test(file)
}

export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/')
}

/**
 * `child` relative to `parent` when it is `parent` (`''`) or lies below it (both absolute, already
 * real), else undefined. Most calls ask it of a file named below its folder: a prefix that ends at
 * a separator, with no `..` after it, answers without `relative` (thousands of calls in a large
 * build); anything else goes through it.
 */
export function pathBelow(parent: string, child: string): string | undefined {
  if (child.startsWith(parent) && !child.includes('..', parent.length)) {
    if (child.length === parent.length) return ''
    if (parent.endsWith(sep)) return child.slice(parent.length)
    if (child[parent.length] === sep) return child.slice(parent.length + 1)
  }
  const rel = relative(parent, child)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel)) ? rel : undefined
}

/** True when `child` is `parent` or lies below it (both absolute, already real). */
export function isInside(parent: string, child: string): boolean {
  return pathBelow(parent, child) !== undefined
}

/** Expands a leading `~` to the home directory (`~/ws`, not `/ws` as in the original). */
function expandHome(path: string, home = homedir()): string {
  if (path === '~') return home
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(home, path.slice(2))
  return path
}

export function resolveUserPath(path: string, base: string): string {
  return resolve(base, expandHome(path))
}

export type FileState =
  | { kind: 'file'; real: string; size: number; mtimeMs: number }
  | { kind: 'directory'; real: string }
  /** A FIFO, device or socket: never read. */
  | { kind: 'other'; real: string }
  | { kind: 'missing' }

/** What `realpath` or `stat` fail with when nothing is there: the path, or a folder on it, does not exist. */
const NOTHING_THERE = new Set(['ENOENT', 'ENOTDIR'])

function inspectReal(path: string, strict: boolean): FileState {
  try {
    const real = realpathSync.native(path)
    const info = statSync(real)
    if (info.isDirectory()) return { kind: 'directory', real }
    return info.isFile() ? { kind: 'file', real, size: info.size, mtimeMs: info.mtimeMs } : { kind: 'other', real }
  } catch (error) {
    if (strict && !NOTHING_THERE.has((error as NodeJS.ErrnoException).code ?? '')) throw error
    return { kind: 'missing' }
  }
}

/**
 * Resolves symlinks and reports what is at `path`; anything that cannot be resolved is `missing`.
 * Synchronous on purpose: for the thousands of small local files of a skills tree it is several
 * times faster than queueing on libuv's pool.
 */
export async function inspectPath(path: string): Promise<FileState> {
  return inspectReal(path, false)
}

/**
 * The original's isSafeRelativePath: non-empty, forward slashes, relative, and no empty,
 * `.` or `..` segment. Returns why it is unsafe, or undefined.
 */
export function unsafeRelativePath(path: string): 'escape' | 'backslash' | 'shape' | undefined {
  if (path === '') return 'shape'
  if (isAbsolute(path) || /^[a-zA-Z]:/.test(path) || path.startsWith('/')) return 'escape'
  if (path.includes('\\')) return 'backslash'
  const segments = path.split('/')
  if (segments.includes('..')) return 'escape'
  if (segments.some((s) => s === '' || s === '.')) return 'shape'
  return undefined
}

/** A relative path of plain segments: none empty, `.` or `..`, and no backslash. */
const PLAIN_RELATIVE_RE = /^(?!\.\.?(?:\/|$))[^/\\]+(?:\/(?!\.\.?(?:\/|$))[^/\\]+)*$/

/**
 * Platform branch: the `lstat` fast path below runs on Linux only. There file names are
 * case-sensitive, so a plain path as written is the file's own name, and one `lstat` per folder
 * below a known real folder replaces `realpath`, which glibc makes one `lstat` per segment of the
 * whole path (bench/branches.ts measures a cold compile at 1,000 skills both ways). On macOS and
 * Windows names are case-insensitive by default and `realpath` also gives a file's own case, which
 * watchers report, so a path spelled otherwise in a manifest must go through `realpath` there.
 * Read when the module loads; test/validate/platform-paths.unit.test.ts loads it as on macOS too.
 */
const CASE_SENSITIVE = process.platform === 'linux'

/**
 * `join(realDir, rel)` when every folder on the way below `realDir` is a folder and no symlink,
 * found with one `lstat` per folder (glibc's realpath stats every segment of the whole path);
 * `missing` when one of them is missing or no folder. Undefined when this cannot tell: a symlink on
 * the way, a path that is not plain, or a system where case does not tell names apart (there
 * `realpath` also gives a name's own case). The last segment is not looked at. `plainDirs`, when
 * given, remembers the folders found plain (the `tools/` of several tools is looked at once).
 * What `lstat` fails with other than "nothing there" (a name too long, no search permission) is thrown.
 */
export function plainPathInside(realDir: string, rel: string, plainDirs?: Set<string>): string | 'missing' | undefined {
  if (!CASE_SENSITIVE || !PLAIN_RELATIVE_RE.test(rel)) return undefined
  const segments = rel.split('/')
  // Plain segments below a real (normalized) path: joined as they are, on Linux.
  let path = realDir.endsWith('/') ? realDir.slice(0, -1) : realDir
  for (let i = 0; i < segments.length - 1; i++) {
    path = `${path}/${segments[i]}`
    if (plainDirs?.has(path)) continue
    const info = lstatSync(path, { throwIfNoEntry: false })
    if (!info || !(info.isDirectory() || info.isSymbolicLink())) return 'missing'
    if (info.isSymbolicLink()) return undefined
    plainDirs?.add(path)
  }
  return `${path}/${segments[segments.length - 1]}`
}

/**
 * What is at `join(realDir, rel)`, a path inside a folder whose real path is known: one `lstat` per
 * segment of `rel` where it can (see `plainPathInside`), else `realpath`. Only a path with nothing
 * there is `missing`; one the system cannot resolve (a name too long, a symlink loop, a folder
 * that may not be searched) throws, on either path, and its skill is reported unreadable.
 */
export async function inspectInside(realDir: string, rel: string, plainDirs?: Set<string>): Promise<FileState> {
  return inspectInsideNow(realDir, rel, plainDirs)
}

/** inspectInside's answer, synchronously (it does its work synchronously anyway). */
export function inspectInsideNow(realDir: string, rel: string, plainDirs?: Set<string>): FileState {
  const path = plainPathInside(realDir, rel, plainDirs)
  if (path === undefined) return inspectReal(join(realDir, rel), true)
  if (path === 'missing') return { kind: 'missing' }
  const info = lstatSync(path, { throwIfNoEntry: false })
  if (!info) return { kind: 'missing' }
  if (info.isSymbolicLink()) return inspectReal(join(realDir, rel), true)
  if (info.isDirectory()) return { kind: 'directory', real: path }
  return info.isFile()
    ? { kind: 'file', real: path, size: info.size, mtimeMs: info.mtimeMs }
    : { kind: 'other', real: path }
}

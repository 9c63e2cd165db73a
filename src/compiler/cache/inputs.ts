import { type Stats, readdirSync, statSync } from 'node:fs'
import { dirname, join, sep } from 'node:path'
import { isReadFailure, readRegularFile } from '../fs/files'
import { isInside } from '../fs/paths'
import { type StampLog, contentDigest } from '../fs/stamp'

/** Installed packages' files can be larger than a skill's own; the digest reads them whole. */
const INPUT_LIMIT = 64 * 1024 * 1024
/**
 * A file changed within this long before its stamp was taken may change again with the same stamp
 * (file systems keep times in ticks, FAT in 2 s): its content is checked on every lookup, as git
 * does for a "racily clean" index entry.
 */
const RACY_MS = 2500

/** What a skill's inputs are, as its record gives them. */
export interface SkillInputs {
  /** Real path of the skill folder. */
  realDir: string
  /** Every file its compile read (real paths). */
  files: readonly string[]
  /** It has ES-module browser tools: esbuild resolved their imports (package.json files up the chain count). */
  resolves: boolean
}

/** Where the names around a skill are looked up: the project's folder (packages resolve from it too). */
export interface InputContext {
  project: string
  /** Digests of folder chains already looked at in this pass (a build has hundreds of skills in one root). */
  chains: Map<string, string>
}

/**
 * What a skill's inputs were when it was stored, by content: each file's digest (with its stamp,
 * so that an unchanged file is known by one `stat`), each folder of the skill with the digest of
 * the names in it, and the digest of what resolved its imports.
 */
export interface StoredInputs {
  /** Per file of `SkillInputs.files`, in order: its stamp ('' when racy: always read) and content digest. */
  files: [stamp: string, digest: string][]
  /**
   * The skill's folder and each folder of it holding an input: its path, and its stamp, or ('' when racy) the digest of
   * its names and their kinds.
   */
  dirs: [path: string, stamp: string, names: string][]
  /** The package.json files and package folders its imports resolved through (see resolutionDigest). */
  resolution: string
  /** One digest of all of the above. */
  digest: string
}

const hashOf = contentDigest

/**
 * A stamp that changes with any write, ctime included (a write that restores the modification time
 * still moves it). From a plain `stat` (times as fractional milliseconds): a third cheaper than
 * one in bigints, and this is what a build with every skill cached spends most of its time on.
 */
function fullStamp(info: Stats): string {
  return `${info.size}:${info.mtimeMs}:${info.ctimeMs}:${info.ino}:${info.dev}:${info.mode}`
}

function isRacy(info: Stats, at: number): boolean {
  return info.ctimeMs > at - RACY_MS || info.mtimeMs > at - RACY_MS
}

function statOf(path: string): Stats | undefined {
  return statSync(path, { throwIfNoEntry: false })
}

/**
 * Whether a plain stat and the stamp the compile logged (from bigints, `size:mtimeNs:ino:mode`) describe the same file.
 */
function sameFile(info: Stats, logged: string | undefined): boolean {
  const [size, mtimeNs, ino] = logged?.split(':') ?? []
  return (
    size === String(info.size) &&
    ino === String(info.ino) &&
    mtimeNs !== undefined &&
    Math.abs(Number(mtimeNs) / 1e6 - info.mtimeMs) < 0.001
  )
}

/** The skill's folder and every folder between it and one of its inputs, in order. */
function foldersOf(inputs: SkillInputs): string[] {
  const found = new Set([inputs.realDir])
  for (const file of inputs.files) {
    if (!isInside(inputs.realDir, file)) continue
    for (let dir = dirname(file); dir !== inputs.realDir && isInside(inputs.realDir, dir); dir = dirname(dir))
      found.add(dir)
  }
  return [...found].sort()
}

/** The names in one folder with their kinds. */
function namesIn(dir: string): { names: string } | undefined {
  let entries: import('node:fs').Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return undefined
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  let names = ''
  for (const entry of entries) {
    const kind = entry.isDirectory() ? 'd' : entry.isSymbolicLink() ? 'l' : entry.isFile() ? 'f' : 'o'
    names += `\0${kind}${entry.name}`
  }
  return { names: hashOf(names) }
}

/** The package a file under node_modules belongs to (`pkg` or `@scope/pkg`), and its folder. */
function packageOf(file: string): { name: string; dir: string } | undefined {
  const marker = `${sep}node_modules${sep}`
  const at = file.lastIndexOf(marker)
  if (at < 0) return undefined
  const rest = file.slice(at + marker.length).split(sep)
  const parts = rest[0]?.startsWith('@') ? rest.slice(0, 2) : rest.slice(0, 1)
  if (!parts.length || parts.some((p) => !p)) return undefined
  return { name: parts.join('/'), dir: join(file.slice(0, at + marker.length), ...parts) }
}

/** The folders from `dir` up to the file system's root. */
function ancestors(dir: string): string[] {
  const out: string[] = []
  for (let d = dir; ; d = dirname(d)) {
    out.push(d)
    if (dirname(d) === d) return out
  }
}

const fileDigest = (path: string) => {
  const read = readRegularFile(path, INPUT_LIMIT)
  return isReadFailure(read) ? `!${read.problem}` : hashOf(read)
}

/** The package.json files up a chain (resolver files esbuild and the guard read), by content; memoized per folder. */
function chainDigest(dir: string, context: InputContext): string {
  const known = context.chains.get(dir)
  if (known !== undefined) return known
  let all = ''
  for (const d of ancestors(dir)) all += `\0${d}\0${fileDigest(join(d, 'package.json'))}`
  const digest = hashOf(all)
  context.chains.set(dir, digest)
  return digest
}

/**
 * For a skill whose ES-module tools esbuild resolved: the package.json files up its folder's and the
 * project's chains, each imported package's own package.json, and whether a folder nearer than
 * the one it resolved from holds the same package (installing one there changes what resolves).
 */
function resolutionDigest(inputs: SkillInputs, context: InputContext): string {
  if (!inputs.resolves) return ''
  let all = `${chainDigest(dirname(inputs.realDir), context)}\0${chainDigest(context.project, context)}`
  const packages = new Map<string, string>()
  for (const file of inputs.files) {
    if (isInside(inputs.realDir, file)) continue
    const pkg = packageOf(file)
    if (pkg) packages.set(pkg.name, pkg.dir)
  }
  for (const [name, dir] of [...packages].sort(([a], [b]) => (a < b ? -1 : 1))) {
    all += `\0${name}\0${fileDigest(join(dir, 'package.json'))}`
    for (const from of [inputs.realDir, context.project]) {
      for (const d of ancestors(from)) {
        const candidate = join(d, 'node_modules', name)
        if (candidate === dir) break
        all += statOf(candidate) ? '+' : '-'
      }
    }
  }
  return hashOf(all)
}

function combine(files: readonly string[], stored: Omit<StoredInputs, 'digest'>): string {
  let all = stored.resolution
  for (const [i, file] of files.entries()) all += `\0${file}\0${stored.files[i]![1]}`
  for (const [path, , names] of stored.dirs) all += `\0${path}\0${names}`
  return hashOf(all)
}

/**
 * Takes the inputs of a skill compiled in this process, by content. Undefined when a file cannot be
 * read now, or is no longer what the compile read (`known`: the stamps taken when it was read):
 * such a skill is not stored.
 */
export function takeInputs(inputs: SkillInputs, context: InputContext, known?: StampLog): StoredInputs | undefined {
  const now = Date.now()
  const files: StoredInputs['files'] = []
  for (const file of inputs.files) {
    // Read when the compile read it: its digest then, if the file is still what was read.
    const then = known?.get(file)
    const digest = then === undefined ? undefined : known?.digests?.get(file)
    if (digest !== undefined) {
      const info = statOf(file)
      if (!info?.isFile() || !sameFile(info, then)) return undefined
      files.push([isRacy(info, now) ? '' : fullStamp(info), digest])
      continue
    }
    const log: StampLog = new Map()
    const read = readRegularFile(file, INPUT_LIMIT, log)
    if (isReadFailure(read) || (then !== undefined && then !== log.get(file))) return undefined
    const info = statOf(file)
    if (!info || !sameFile(info, log.get(file))) return undefined
    files.push([isRacy(info, now) ? '' : fullStamp(info), hashOf(read)])
  }
  // The skill's folder and each folder of it that holds an input: a name added to, removed from or
  // renamed in one (a file that now resolves first, a verification.json) moves its stamp. The names
  // are listed only for a racy one, whose stamp alone says nothing.
  const dirs: StoredInputs['dirs'] = []
  for (const dir of foldersOf(inputs)) {
    const info = statOf(dir)
    if (!info?.isDirectory()) return undefined
    if (!isRacy(info, now)) {
      dirs.push([dir, fullStamp(info), ''])
      continue
    }
    const listed = namesIn(dir)
    if (!listed) return undefined
    dirs.push([dir, '', listed.names])
  }
  const partial = { files, dirs, resolution: resolutionDigest(inputs, context) }
  return { ...partial, digest: combine(inputs.files, partial) }
}

/**
 * Whether a stored skill's inputs are the same now: a file or folder whose stamp is unchanged (and
 * was not racy) is taken as is; any other file is read and compared by content, any other folder
 * listed again. The compiler's own cache asks this again of a skill it took from the file.
 */
export function sameInputs(stored: StoredInputs, inputs: SkillInputs, context: InputContext): boolean {
  if (stored.files.length !== inputs.files.length) return false
  for (const [i, file] of inputs.files.entries()) {
    const [stamp, digest] = stored.files[i]!
    const info = statOf(file)
    if (!info?.isFile()) return false
    if (stamp !== '' && stamp === fullStamp(info)) continue
    if (fileDigest(file) !== digest) return false
  }
  for (const [dir, stamp, names] of stored.dirs) {
    const info = statOf(dir)
    if (!info?.isDirectory()) return false
    if (stamp !== '' && stamp === fullStamp(info)) continue
    // Moved, and not racy when stored: its names were not kept, so the skill is compiled again.
    if (names === '' || namesIn(dir)?.names !== names) return false
  }
  return resolutionDigest(inputs, context) === stored.resolution
}

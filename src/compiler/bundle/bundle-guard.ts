import { type BigIntStats, existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve, sep } from 'node:path'
import type { OnLoadArgs, OnResolveArgs, PartialMessage, Plugin } from 'esbuild'
import type { Finding } from '../diagnostics/catalog'
import {
  FILE_LIMITS,
  READ_FAILURE_CODES,
  type ReadFailure,
  describeKind,
  isReadFailure,
  readRegularFile,
  tooLargeMessage,
} from '../fs/files'
import type { StampLog } from '../fs/stamp'

/*
 * esbuild reads files itself: every module a tool imports, and the package.json (and tsconfig.json)
 * of each folder it resolves in. Left alone it would block forever on a named pipe and read a
 * symlink to /dev/zero until memory runs out. This plugin puts the rules of a skill's own files in
 * front of every such read: a module is read here (only a regular file, within its limit, from
 * inside the skill or from an installed package) and handed to esbuild as text; a folder's
 * package.json is looked at before esbuild may read it.
 */

/** Why the guard refused a file: carried in the `detail` of esbuild's message, made a diagnostic by the bundler. */
export type GuardProblem =
  /** A module outside the skill folder and outside the project's packages (`file`: its real path, or the specifier). */
  | { kind: 'escape'; file: string }
  /** A module that is not a regular file, too large or unreadable. */
  | { kind: 'module'; file: string; failure: ReadFailure }
  /** A package.json (or tsconfig.json) esbuild would read that is not a regular file, too large or unreadable. */
  | { kind: 'resolver'; file: string; failure: ReadFailure }

export interface GuardOptions {
  /** Real paths of the skill folders whose tools this build compiles. */
  skillDirs: readonly string[]
  /** Where packages are installed: its node_modules and those of its ancestors. @default process.cwd() */
  project?: string
  /**
   * Node tools run with the process's rights and may import from anywhere: their modules are only
   * held to the regular-file and size rules, and their tsconfig.json files are looked at too (esbuild
   * reads them; browser tools are compiled without).
   */
  anywhere?: boolean
  /** Gets the stamp of each module read (see StampLog). */
  stamps?: StampLog
  /** Called with each module's bytes as read (the bundler's cache digests them instead of reading them again). */
  onRead?: (file: string, content: Buffer) => void
}

export interface BundleGuard {
  plugin: Plugin
  /** A file that lies in one of the project's node_modules folders (real paths). */
  isPackageFile: (file: string) => boolean
  /**
   * Why esbuild may not compile tools of the skill folder `skill`: a package.json in it or above it
   * is no regular file, too large or unreadable. Undefined when it may.
   */
  skillProblem: (skill: string) => GuardProblem | undefined
}

/** Files esbuild reads in every folder it resolves in, and above it. */
const RESOLVER_FILES = ['package.json']
const NODE_RESOLVER_FILES = ['package.json', 'tsconfig.json', 'jsconfig.json']
/** Installed packages' files: larger than a tool's, but bounded. */
const PACKAGE_FILE_LIMIT = 32 * 1024 * 1024
/**
 * What esbuild resolves as a package name: not `./x`, `../x`, `.`, `..` or `/x` (esbuild filters in Go: no lookahead).
 */
const BARE_FILTER = /^(?:[^./]|\.[^./]|\.\.[^/])/
/** `name` or `@scope/name`, then any subpath: how a package is imported by name. */
const PACKAGE_SPECIFIER_RE = /^(?:@[^/\\.][^/\\]*\/)?[^/\\._][^/\\]*(?:\/.*)?$/
/** A URL scheme (`data:`, `https:`) or a Windows drive: not a package name either. */
const SCHEME_RE = /^[a-z][a-z0-9+.-]*:/i

/**
 * `path` is `dir` or below it: both absolute and normalized (esbuild's paths, resolved ones, real
 * folders), so a prefix says it, with no `relative` (thousands of calls a build).
 */
const within = (dir: string, path: string) =>
  path.startsWith(dir) && (path.length === dir.length || dir.endsWith(sep) || path[dir.length] === sep)

const fail = (problem: GuardProblem, text: string): { errors: PartialMessage[] } => ({
  errors: [{ text, detail: problem }],
})

/** The node_modules folders packages may come from: the project's and its ancestors', as written and real. */
function packageFolders(project: string): string[] {
  const found = new Set<string>()
  for (let dir = resolve(project); ; dir = dirname(dir)) {
    const folder = join(dir, 'node_modules')
    if (existsSync(folder)) {
      found.add(folder)
      found.add(realpathSync.native(folder))
    }
    if (dirname(dir) === dir) break
  }
  return [...found]
}

/** A specifier's path part: esbuild tries `./x.js?raw` without its query or hash too. */
const withoutSuffix = (specifier: string) => specifier.replace(/[?#].*$/, '')

/** Whether a package specifier reaches below its package (`pkg/../x`, `pkg/./x`) or names no package. */
function badPackageSpecifier(specifier: string): boolean {
  const path = withoutSuffix(specifier)
  if (!PACKAGE_SPECIFIER_RE.test(path)) return true
  return path.split('/').some((segment) => segment === '..' || segment === '.' || segment.includes('\\'))
}

/** A file's stats following a symlink, or undefined when there is nothing (or nothing readable) there. */
function statOf(path: string): BigIntStats | undefined {
  try {
    return statSync(path, { bigint: true })
  } catch {
    return undefined
  }
}

/**
 * A path's own stats, or undefined when nothing is there (a missing folder on the way, or a file where a folder would
 * be).
 */
function lstatOf(path: string): BigIntStats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false, bigint: true })
  } catch {
    return undefined
  }
}

/** What is wrong with a file esbuild would read on its own, or undefined (none there is fine). */
function resolverFileProblem(path: string, skillOf: (p: string) => string | undefined): ReadFailure | undefined {
  const link = lstatOf(path)
  if (!link) return undefined
  const skill = skillOf(path)
  if (link.isSymbolicLink() && skill) {
    const real = statOf(path) && realpathSync.native(path)
    if (real && !within(skill, real)) return { problem: 'not-regular', message: 'resolves outside the skill folder' }
  }
  const info = statOf(path)
  if (!info) return { problem: 'unreadable', message: 'cannot be read (a dangling symlink or no permission)' }
  if (info.isDirectory()) return undefined
  if (!info.isFile()) return { problem: 'not-regular', message: `is ${describeKind(info)}, not a regular file` }
  const size = Number(info.size)
  if (size > FILE_LIMITS.manifest)
    return { problem: 'too-large', message: tooLargeMessage(size, FILE_LIMITS.manifest), size }
  return undefined
}

/** Creates the guard for one esbuild build over tools of the given skill folders. */
export function createBundleGuard(options: GuardOptions): BundleGuard {
  const skillDirs = [...options.skillDirs]
  const packages = packageFolders(options.project ?? process.cwd())
  const names = options.anywhere ? NODE_RESOLVER_FILES : RESOLVER_FILES
  /** Folders already looked at, with what was wrong up their chain. */
  const checked = new Map<string, GuardProblem | undefined>()

  const skills = new Set(skillDirs)
  /** The skill folder a path lies in: its folders looked up from the deepest (a build has hundreds of skills). */
  const skillOf = (path: string) => {
    for (let dir = path; ; dir = dirname(dir)) {
      if (skills.has(dir)) return dir
      if (dirname(dir) === dir) return undefined
    }
  }
  const isPackageFile = (file: string) => packages.some((folder) => within(folder, file))

  function resolverProblem(dir: string): GuardProblem | undefined {
    if (checked.has(dir)) return checked.get(dir)
    let problem: GuardProblem | undefined
    for (const name of names) {
      const file = join(dir, name)
      const failure = resolverFileProblem(file, skillOf)
      if (failure) {
        problem = { kind: 'resolver', file, failure }
        break
      }
    }
    const parent = dirname(dir)
    problem ??= parent === dir ? undefined : resolverProblem(parent)
    checked.set(dir, problem)
    return problem
  }

  /** The folders esbuild will resolve `target` in: its own (when a folder) and its parent's. */
  const aroundTarget = (target: string) => resolverProblem(target) ?? resolverProblem(dirname(target))

  /** Skill folders already walked, with the first unsafe resolver file found in them. */
  const walked = new Map<string, GuardProblem | undefined>()

  /**
   * A skill's folders, walked once: esbuild may resolve in any of them (a relative import, a
   * package.json's `main` or `browser` field leading elsewhere), so every resolver file in the
   * skill is looked at before esbuild starts, and those of the folders above it up the chain.
   */
  function skillProblem(skill: string): GuardProblem | undefined {
    if (!walked.has(skill)) walked.set(skill, walk(skill) ?? resolverProblem(dirname(skill)))
    return walked.get(skill)
  }

  function walk(dir: string): GuardProblem | undefined {
    let entries: import('node:fs').Dirent[]
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return undefined
    }
    for (const entry of entries) {
      const path = join(dir, entry.name)
      if (names.includes(entry.name)) {
        const failure = resolverFileProblem(path, skillOf)
        if (failure) return { kind: 'resolver', file: path, failure }
      }
      const problem = entry.isDirectory() ? walk(path) : entry.isSymbolicLink() ? linkedFolderProblem(path) : undefined
      if (problem) return problem
    }
    return undefined
  }

  /**
   * A symlink to a folder: its own resolver files (what it leads to is not walked; imports through it out of the skill
   * are refused at load).
   */
  function linkedFolderProblem(path: string): GuardProblem | undefined {
    if (!statOf(path)?.isDirectory()) return undefined
    for (const name of names) {
      const failure = resolverFileProblem(join(path, name), skillOf)
      if (failure) return { kind: 'resolver', file: join(path, name), failure }
    }
    return undefined
  }

  /** A package import: a package name, and the folders esbuild may look it up in hold no unsafe package.json. */
  function checkPackage(args: OnResolveArgs) {
    if (!options.anywhere && badPackageSpecifier(args.path))
      return fail({ kind: 'escape', file: args.path }, 'not a package name')
    const path = withoutSuffix(args.path)
    for (let dir = args.resolveDir; ; dir = dirname(dir)) {
      const problem = aroundTarget(join(dir, 'node_modules', path))
      if (problem) return fail(problem, 'a folder esbuild resolves in is unsafe')
      if (dirname(dir) === dir) return undefined
    }
  }

  /**
   * Package imports of the skills' files (a package's own imports are the package's business; its files are still read
   * only here).
   */
  function onResolve(args: OnResolveArgs) {
    if (!args.importer || isAbsolute(args.path) || SCHEME_RE.test(args.path) || !skillOf(args.importer))
      return undefined
    return checkPackage(args)
  }

  function onLoad(args: OnLoadArgs) {
    const file = args.path
    const skill = skillOf(file)
    const inSkill = skill !== undefined
    if (!inSkill && !isPackageFile(file) && !options.anywhere)
      return fail({ kind: 'escape', file }, 'outside the skill folder')
    const problem = skill ? skillProblem(skill) : resolverProblem(dirname(file))
    if (problem) return fail(problem, 'a folder esbuild resolves in is unsafe')
    const read = readRegularFile(file, inSkill ? FILE_LIMITS.tool : PACKAGE_FILE_LIMIT, options.stamps)
    if (isReadFailure(read)) return fail({ kind: 'module', file, failure: read }, read.message)
    options.onRead?.(file, read)
    return { contents: read, loader: 'default' as const }
  }

  const plugin: Plugin = {
    name: 'site-skills-guard',
    setup(build) {
      build.onResolve({ filter: BARE_FILTER, namespace: 'file' }, onResolve)
      build.onLoad({ filter: /.*/, namespace: 'file' }, onLoad)
    },
  }
  return { plugin, isPackageFile, skillProblem }
}

/**
 * A guard problem as a finding about browser tool `tool`; `display` gives a file's path as
 * diagnostics show it (relative to the root).
 */
export function guardFinding(problem: GuardProblem, tool: string, display: (abs: string) => string): Finding {
  if (problem.kind === 'escape') {
    const file = isAbsolute(problem.file) ? display(problem.file) : problem.file
    return { code: 'path-escape', data: { via: 'import', tool, file } }
  }
  const subject = { kind: problem.kind === 'module' ? 'import' : 'resolver', name: tool, file: display(problem.file) }
  const code = READ_FAILURE_CODES[problem.failure.problem]
  return {
    code,
    data: { subject: subject as { kind: 'import'; name: string; file: string }, reason: problem.failure.message },
  }
}

/** The guard's problem carried by an esbuild message, if the message is one of the guard's. */
export function guardProblemOf(detail: unknown): GuardProblem | undefined {
  const value = detail as GuardProblem | undefined
  return value && typeof value === 'object' && typeof value.kind === 'string' && typeof value.file === 'string'
    ? value
    : undefined
}

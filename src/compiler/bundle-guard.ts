import { type BigIntStats, existsSync, lstatSync, realpathSync, statSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import type { OnLoadArgs, OnResolveArgs, PartialMessage, Plugin } from 'esbuild'
import type { Finding } from './diagnostics/catalog'
import {
  FILE_LIMITS,
  READ_FAILURE_CODES,
  type ReadFailure,
  describeKind,
  isReadFailure,
  readRegularFile,
  tooLargeMessage,
} from './files'
import { isInside } from './paths'

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
  /**
   * A module outside the skill folder and outside the project's packages (`file`: absolute, or the
   * specifier); `symlink` when the path is inside but a symlink on the way leads out.
   */
  | { kind: 'escape'; file: string; symlink?: boolean }
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
}

export interface BundleGuard {
  plugin: Plugin
  /** A file that lies in one of the project's node_modules folders (real paths). */
  isPackageFile: (file: string) => boolean
  /** Why esbuild may not resolve in `dir` (a package.json on the way up is no regular file, ...), or undefined. */
  resolverProblem: (dir: string) => GuardProblem | undefined
}

/** Files esbuild reads in every folder it resolves in, and above it. */
const RESOLVER_FILES = ['package.json']
const NODE_RESOLVER_FILES = ['package.json', 'tsconfig.json', 'jsconfig.json']
/** Installed packages' files: larger than a tool's, but bounded. */
const PACKAGE_FILE_LIMIT = 32 * 1024 * 1024
/** `./x`, `../x`, `.`, `..`, `/x`: a path, not a package name. */
const PATH_SPECIFIER_RE = /^(?:\.\.?(?:[/\\]|$)|[/\\])/
/** `name` or `@scope/name`, then any subpath: how a package is imported by name. */
const PACKAGE_SPECIFIER_RE = /^(?:@[^/\\.][^/\\]*\/)?[^/\\._][^/\\]*(?:\/.*)?$/
/** A URL scheme (`data:`, `https:`) or a Windows drive: not a package name either. */
const SCHEME_RE = /^[a-z][a-z0-9+.-]*:/i

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

/** The real path of `path`, or of the nearest folder above it that exists (symlinks on the way resolved). */
function realOfExisting(path: string): string {
  for (let at = path; ; at = dirname(at)) {
    try {
      return realpathSync.native(at)
    } catch {
      if (dirname(at) === at) return path
    }
  }
}

/** A path's own stats, or undefined when nothing is there (a missing folder on the way, or a file where a folder would be). */
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
    if (real && !isInside(skill, real)) return { problem: 'not-regular', message: 'resolves outside the skill folder' }
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

  const skillOf = (path: string) => skillDirs.find((dir) => isInside(dir, path))
  const isPackageFile = (file: string) => packages.some((folder) => isInside(folder, file))

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

  /** A `./x` or `/x` import of a skill's file: it must stay inside that skill, symlinks resolved. */
  function checkPath(args: OnResolveArgs, skill: string) {
    const target = resolve(args.resolveDir, withoutSuffix(args.path))
    if (!options.anywhere) {
      if (!isInside(skill, target)) return fail({ kind: 'escape', file: target }, 'outside the skill folder')
      if (!isInside(skill, realOfExisting(target)))
        return fail({ kind: 'escape', file: target, symlink: true }, 'a symlink leads out of the skill folder')
    }
    const problem = aroundTarget(target)
    return problem ? fail(problem, 'a folder esbuild resolves in is unsafe') : undefined
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

  function onResolve(args: OnResolveArgs) {
    if (args.kind === 'entry-point' || !args.importer) return undefined
    const skill = skillOf(args.importer)
    // A package's own imports are the package's business (its files are still read only here).
    if (!skill) return undefined
    if (PATH_SPECIFIER_RE.test(args.path) || isAbsolute(args.path)) return checkPath(args, skill)
    if (SCHEME_RE.test(args.path)) return undefined
    return checkPackage(args)
  }

  function onLoad(args: OnLoadArgs) {
    const file = args.path
    const inSkill = skillOf(file) !== undefined
    if (!inSkill && !isPackageFile(file) && !options.anywhere)
      return fail({ kind: 'escape', file }, 'outside the skill folder')
    const problem = resolverProblem(dirname(file))
    if (problem) return fail(problem, 'a folder esbuild resolves in is unsafe')
    const read = readRegularFile(file, inSkill ? FILE_LIMITS.tool : PACKAGE_FILE_LIMIT)
    if (isReadFailure(read)) return fail({ kind: 'module', file, failure: read }, read.message)
    return { contents: read, loader: 'default' as const }
  }

  const plugin: Plugin = {
    name: 'site-skills-guard',
    setup(build) {
      build.onResolve({ filter: /.*/, namespace: 'file' }, onResolve)
      build.onLoad({ filter: /.*/, namespace: 'file' }, onLoad)
    },
  }
  return { plugin, isPackageFile, resolverProblem }
}

/**
 * A guard problem as a finding about browser tool `tool`; `display` gives a file's path as
 * diagnostics show it (relative to the root).
 */
export function guardFinding(problem: GuardProblem, tool: string, display: (abs: string) => string): Finding {
  if (problem.kind === 'escape') {
    const file = isAbsolute(problem.file) ? display(problem.file) : problem.file
    return { code: 'path-escape', data: { via: 'import', tool, file, ...(problem.symlink ? { symlink: true } : {}) } }
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

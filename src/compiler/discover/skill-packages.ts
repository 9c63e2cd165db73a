/**
 * Skill packages as roots (SPEC 9): a bare package name in `roots` / `--root` names an installed
 * package whose package.json says where its skills are: `"siteSkills": { "root": "learnings" }`.
 *
 * Resolution reads files only (no package code runs, `exports` does not matter): the package's
 * folder is looked up in `node_modules` from the project up to the file system's root, as Node
 * looks a package up. A symlinked package folder (npm workspaces, `npm i ./folder`, pnpm) is
 * followed; from there on everything is confined to the package's real folder: `siteSkills.root`
 * is a plain relative path whose real path lies inside it, and each skill's files stay inside
 * their skill folder as in any root.
 */
import { realpathSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { isInside, pathBelow, toPosix, unsafeRelativePath } from '../fs/paths'
import { FILE_LIMITS, isReadFailure, readRegularFile } from '../fs/files'
import { createDiagnostic, type Diagnostic } from '../diagnostics/catalog'
import { isJsonFailure, parseJsonDocument, type Position } from '../parse'

/** An npm package name (`name` or `@scope/name`, lowercase as npm writes new names). */
const PACKAGE_NAME_RE = /^(?:@[a-z0-9~][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*$/

/** The package.json key that names a package's skill folder. */
const PACKAGE_FIELD = 'siteSkills'

/** Whether a roots entry is written as a bare package name (not `./x`, `/x`, `~/x` or `a/b/c`). */
export function isPackageName(entry: string): boolean {
  return PACKAGE_NAME_RE.test(entry)
}

/** Why a package root cannot be used, with where in its package.json when it is about that file. */
export type PackageProblem =
  | { code: 'package-missing'; data: { name: string; from: string } }
  | { code: 'package-invalid'; data: { name: string; reason: string }; file?: string; position?: Position }

/**
 * A root that a bare package name named: `path` is the real skill folder, or for a package that
 * cannot be used, the package's folder or where it was looked for.
 */
export interface PackageRoot {
  path: string
  /** The package's name, and its real folder when it can be used. */
  package: { name: string; dir?: string }
  /** Why the package cannot be used. */
  problem?: PackageProblem
}

/** The folder of package `name` as Node would find it from `from`, symlinks resolved; undefined when not installed. */
function findPackageDir(name: string, from: string): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    const state = packageFolder(candidate)
    if (state) return state
    if (dirname(dir) === dir) return undefined
  }
}

/** The real path of a folder that holds a package.json, or undefined. */
function packageFolder(dir: string): string | undefined {
  try {
    const real = realpathSync.native(dir)
    return statSync(join(real, 'package.json'), { throwIfNoEntry: false })?.isFile() ? real : undefined
  } catch {
    return undefined
  }
}

const invalid = (name: string, reason: string, position?: Position): PackageProblem => ({
  code: 'package-invalid',
  data: { name, reason },
  file: 'package.json',
  ...(position ? { position } : {}),
})

/** The `siteSkills.root` of a package's folder, checked: a plain relative folder inside the package. */
function readRoot(name: string, dir: string): { root: string } | { problem: PackageProblem } {
  const read = readRegularFile(join(dir, 'package.json'), FILE_LIMITS.manifest)
  if (isReadFailure(read)) return { problem: invalid(name, `package.json ${read.message}`) }
  const doc = parseJsonDocument(read.toString('utf8'))
  if (isJsonFailure(doc))
    return { problem: invalid(name, `package.json is not valid JSON: ${doc.message}`, doc.position) }
  const manifest = doc.value
  const field =
    manifest && typeof manifest === 'object' && !Array.isArray(manifest)
      ? (manifest as Record<string, unknown>)[PACKAGE_FIELD]
      : undefined
  if (field === undefined)
    return { problem: invalid(name, `its package.json has no "${PACKAGE_FIELD}" field, so it is no skill package`) }
  const at = doc.locate([PACKAGE_FIELD])
  if (!field || typeof field !== 'object' || Array.isArray(field))
    return { problem: invalid(name, `"${PACKAGE_FIELD}" must be an object like { "root": "learnings" }`, at) }
  const rel = (field as Record<string, unknown>).root
  const atRoot = 'root' in field ? doc.locate([PACKAGE_FIELD, 'root']) : at
  if (typeof rel !== 'string')
    return {
      problem: invalid(name, `"${PACKAGE_FIELD}.root" must be a string: the package's folder of skill folders`, atRoot),
    }
  if (rel !== '.' && unsafeRelativePath(rel) !== undefined)
    return {
      problem: invalid(
        name,
        `"${PACKAGE_FIELD}.root" ${JSON.stringify(rel)} must be a relative path inside the package`,
        atRoot,
      ),
    }
  const state = inspectPathNow(join(dir, rel))
  if (state.kind === 'missing')
    return { problem: invalid(name, `"${PACKAGE_FIELD}.root" ${JSON.stringify(rel)} is not in the package`, atRoot) }
  if (state.kind !== 'directory')
    return { problem: invalid(name, `"${PACKAGE_FIELD}.root" ${JSON.stringify(rel)} is not a folder`, atRoot) }
  if (!isInside(dir, state.real))
    return {
      problem: invalid(
        name,
        `"${PACKAGE_FIELD}.root" ${JSON.stringify(rel)} resolves outside the package (a symlink)`,
        atRoot,
      ),
    }
  return { root: state.real }
}

/** inspectPath's answer, synchronously (it does its work synchronously anyway). */
function inspectPathNow(path: string): { kind: 'missing' } | { kind: 'directory' | 'other'; real: string } {
  try {
    const real = realpathSync.native(path)
    return { kind: statSync(real).isDirectory() ? 'directory' : 'other', real }
  } catch {
    return { kind: 'missing' }
  }
}

/**
 * The root a package name stands for: the real skill folder of package `name` found from `project`.
 * A package that cannot be used comes back with its problem, which its scan reports; an unscoped
 * name that is no installed package either stays the folder it also names (a plain path), which
 * then is a `root-missing` like any mistyped folder.
 */
export function resolvePackageRoot(name: string, project: string): PackageRoot | string {
  const dir = findPackageDir(name, project)
  if (!dir && !name.startsWith('@')) return resolve(project, name)
  if (!dir) {
    const path = join(resolve(project), 'node_modules', name)
    const problem: PackageProblem = { code: 'package-missing', data: { name, from: toPosix(resolve(project)) } }
    return { path, package: { name }, problem }
  }
  const found = readRoot(name, dir)
  if ('problem' in found) return { path: dir, package: { name }, problem: found.problem }
  return { path: found.root, package: { name, dir } }
}

/**
 * A path inside a package root shown by the package's name (`@acme/skills/github/manifest.json`),
 * or undefined when the path is in no package root of `roots`.
 */
export function packagePath(
  path: string,
  roots: readonly { path: string; package?: { name: string } }[],
): string | undefined {
  for (const root of roots) {
    if (!root.package) continue
    const rel = pathBelow(root.path, path)
    if (rel !== undefined) return rel ? `${root.package.name}/${toPosix(rel)}` : root.package.name
  }
  return undefined
}

/** The finding of a package root that cannot be used, in its package.json when it is about that file. */
export function packageDiagnostic(problem: PackageProblem, root: string): Diagnostic {
  const skill = { id: '', root }
  if (problem.code === 'package-missing')
    return createDiagnostic(skill, '.', { code: problem.code, data: problem.data })
  const { line = 1, column = 1 } = problem.position ?? {}
  return createDiagnostic(skill, problem.file ?? '.', { code: problem.code, data: problem.data, line, column })
}

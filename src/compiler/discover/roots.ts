import { join } from 'node:path'
import { DEFAULT_ROOT } from '../../ids'
import { inspectPath, resolveUserPath } from '../fs/paths'
import { existsSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { isPackageName, type PackageProblem, resolvePackageRoot } from './skill-packages'

/** The environment variables that name the roots when none is given. */
export interface RootEnv {
  SITE_SKILLS_ROOT?: string
  EGO_BROWSER_AGENT_WORKSPACE?: string
  [key: string]: string | undefined
}

/**
 * A root as resolved, once: its absolute folder and, when a bare package name named it, that skill
 * package (its name, and its real folder when it can be used) or why it cannot be used.
 */
export interface Root {
  path: string
  package?: { name: string; dir?: string }
  problem?: PackageProblem
}

/** A root as the compiler and the session take it: resolved, or a plain absolute folder. */
export type RootInput = string | Root

/** The folder of a root. */
export const rootPath = (root: RootInput): string => (typeof root === 'string' ? root : root.path)

/** A root as a value (a plain folder names no package). */
export const asRoot = (root: RootInput): Root => (typeof root === 'string' ? { path: root } : root)

/** The learnings folder of an agent workspace: `<workspace>/learnings`, `~` expanded, relative to `cwd`. */
export function workspaceRoot(workspace: string, cwd: string): string {
  return join(resolveUserPath(workspace, cwd), DEFAULT_ROOT)
}

/**
 * The absolute roots to read; the one place roots are resolved. The given ones (`~` expanded,
 * relative to `cwd`; a package name resolved from `cwd`), else `$SITE_SKILLS_ROOT`, else
 * `$EGO_BROWSER_AGENT_WORKSPACE/learnings`, else `./learnings`. A root resolved already (a value this
 * function returned) is kept as it is.
 */
export function resolveRoots(
  inputs: string | readonly RootInput[] | undefined,
  cwd: string,
  env: RootEnv = process.env,
): readonly Root[] {
  const given = typeof inputs === 'string' ? [inputs] : (inputs ?? [])
  const resolved = (root: RootInput) => (typeof root === 'string' ? resolveEntry(root, cwd) : root)
  return Object.freeze(given.length > 0 ? given.map(resolved) : [{ path: defaultRoot(cwd, env) }])
}

/**
 * One given root: a folder (`~` expanded, relative to `cwd`), or, for a bare package name
 * (`@acme/site-skills-github`) that names no folder there, the skill folder of that installed
 * package (SPEC 9; write `./name` for a folder that does not exist yet).
 */
function resolveEntry(entry: string, cwd: string): Root {
  const path = resolveUserPath(entry, cwd)
  return isPackageName(entry) && !existsSync(path) ? asRoot(resolvePackageRoot(entry, cwd)) : { path }
}

function defaultRoot(cwd: string, env: RootEnv): string {
  if (env.SITE_SKILLS_ROOT) return resolveUserPath(env.SITE_SKILLS_ROOT, cwd)
  if (env.EGO_BROWSER_AGENT_WORKSPACE) return workspaceRoot(env.EGO_BROWSER_AGENT_WORKSPACE, cwd)
  return resolveUserPath(DEFAULT_ROOT, cwd)
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  )
}

/** A workspace root (holding `learnings/` that is not itself a skill) stands for its `learnings/`. */
export async function effectiveRoot(root: string): Promise<string> {
  const nested = join(root, DEFAULT_ROOT)
  if (!(await isDirectory(nested))) return root
  const [own, inner] = await Promise.all([
    inspectPath(join(root, 'manifest.json')),
    inspectPath(join(nested, 'manifest.json')),
  ])
  return own.kind === 'missing' && inner.kind === 'missing' ? nested : root
}

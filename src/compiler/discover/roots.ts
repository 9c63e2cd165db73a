import { join } from 'node:path'
import { DEFAULT_ROOT } from '../../ids'
import { inspectPath, resolveUserPath } from '../fs/paths'
import { existsSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { isPackageName, resolvePackageRoot } from './packages'

/** The environment variables that name the roots when none is given. */
export interface RootEnv {
  SITE_SKILLS_ROOT?: string
  EGO_BROWSER_AGENT_WORKSPACE?: string
  [key: string]: string | undefined
}

/** Lists resolveRoots returned: handed on (the CLI to the no-build API), they are not resolved again. */
const RESOLVED = new WeakSet<readonly string[]>()

/** The learnings folder of an agent workspace: `<workspace>/learnings`, `~` expanded, relative to `cwd`. */
export function workspaceRoot(workspace: string, cwd: string): string {
  return join(resolveUserPath(workspace, cwd), DEFAULT_ROOT)
}

/**
 * The absolute roots to read; the one place roots are resolved. The given ones (`~` expanded,
 * relative to `cwd`; a package name resolved from `cwd`), else `$SITE_SKILLS_ROOT`, else
 * `$EGO_BROWSER_AGENT_WORKSPACE/learnings`, else
 * `./learnings`. A list this function returned comes back as it is.
 */
export function resolveRoots(
  inputs: string | readonly string[] | undefined,
  cwd: string,
  env: RootEnv = process.env,
): readonly string[] {
  if (typeof inputs !== 'string' && inputs && RESOLVED.has(inputs)) return inputs
  const given = typeof inputs === 'string' ? [inputs] : (inputs ?? [])
  const roots = Object.freeze(given.length > 0 ? given.map((root) => resolveEntry(root, cwd)) : [defaultRoot(cwd, env)])
  RESOLVED.add(roots)
  return roots
}

/**
 * One given root: a folder (`~` expanded, relative to `cwd`), or, for a bare package name
 * (`@acme/site-skills-github`) that names no folder there, the skill folder of that installed
 * package (SPEC 9; write `./name` for a folder that does not exist yet).
 */
function resolveEntry(entry: string, cwd: string): string {
  const path = resolveUserPath(entry, cwd)
  return isPackageName(entry) && !existsSync(path) ? resolvePackageRoot(entry, cwd) : path
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

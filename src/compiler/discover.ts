import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { inspectPath, resolveUserPath } from './paths'

/** One skill folder found in a root. */
export interface SkillFolder {
  /** The folder name, which is the skill id. */
  id: string
  /** The root it was found in (absolute, as given). */
  root: string
  /** `root/id`, as found (not resolved). */
  dir: string
  /** The real path of the folder (symlinks resolved). */
  realDir: string
  /** The folder is a symlink (invisible to the original). */
  symlinked: boolean
}

export interface RootScan {
  root: string
  exists: boolean
  /** Why an existing root could not be read. */
  error?: string
  folders: SkillFolder[]
}

export interface RootEnv {
  SITE_SKILLS_ROOT?: string
  EGO_BROWSER_AGENT_WORKSPACE?: string
  [key: string]: string | undefined
}

/**
 * The roots to read: the given ones, else `$SITE_SKILLS_ROOT`, else
 * `$EGO_BROWSER_AGENT_WORKSPACE/learnings`, else `./learnings`; `~` expanded; relative to `cwd`.
 */
export function resolveRootInputs(
  inputs: readonly string[] | undefined,
  cwd: string,
  env: RootEnv = process.env,
): string[] {
  if (inputs && inputs.length > 0) return inputs.map((root) => resolveUserPath(root, cwd))
  if (env.SITE_SKILLS_ROOT) return [resolveUserPath(env.SITE_SKILLS_ROOT, cwd)]
  if (env.EGO_BROWSER_AGENT_WORKSPACE) return [join(resolveUserPath(env.EGO_BROWSER_AGENT_WORKSPACE, cwd), 'learnings')]
  return [resolveUserPath('learnings', cwd)]
}

const SKIPPED_RE = /^[_.]|^node_modules$/

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  )
}

/** A workspace root (holding `learnings/` that is not itself a skill) stands for its `learnings/`. */
async function effectiveRoot(root: string): Promise<string> {
  const nested = join(root, 'learnings')
  if (!(await isDirectory(nested))) return root
  const [own, inner] = await Promise.all([
    inspectPath(join(root, 'manifest.json')),
    inspectPath(join(nested, 'manifest.json')),
  ])
  return own.kind === 'missing' && inner.kind === 'missing' ? nested : root
}

/** Lists the skill folders of a root in directory-name order, following symlinked folders. */
export async function scanRoot(input: string): Promise<RootScan> {
  const root = await effectiveRoot(input)
  let entries: import('node:fs').Dirent[]
  try {
    entries = await readdir(root, { withFileTypes: true })
  } catch (error) {
    // Only a missing root is "missing"; anything else (EACCES, EMFILE) must not look like an empty root.
    const code = (error as NodeJS.ErrnoException).code
    return {
      root,
      exists: false,
      folders: [],
      ...(code === 'ENOENT' || code === 'ENOTDIR' ? {} : { error: `${code ?? 'error'}: ${(error as Error).message}` }),
    }
  }
  const candidates = entries
    .filter((e) => !SKIPPED_RE.test(e.name) && (e.isDirectory() || e.isSymbolicLink()))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const found = await Promise.all(
    candidates.map(async (entry): Promise<SkillFolder | undefined> => {
      const dir = join(root, entry.name)
      const state = await inspectPath(dir)
      if (state.kind !== 'directory') return undefined
      return { id: entry.name, root, dir, realDir: state.real, symlinked: entry.isSymbolicLink() }
    }),
  )
  return { root, exists: true, folders: found.filter((f): f is SkillFolder => f !== undefined) }
}

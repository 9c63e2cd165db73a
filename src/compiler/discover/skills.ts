import type { SkillFolder } from '../model'
import { readdir } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { inspectPath, isInside, plainPathInside } from '../fs/paths'
import { asRoot, effectiveRoot, type Root, type RootInput } from './roots'
import type { PackageProblem } from './skill-packages'

export interface RootScan {
  /** The root as given (a package root keeps its package): how its files are shown. */
  from: Root
  root: string
  exists: boolean
  /**
   * The root given was itself a skill folder (it holds manifest.json): `root` is its parent and
   * `folders` that one skill, so `validate learnings/github` checks the skill, not its subfolders.
   */
  skillFolder?: boolean
  /** Why an existing root could not be read. */
  error?: string
  /** A root named by a package that cannot be used (not installed, no valid `siteSkills.root`). */
  problem?: PackageProblem
  folders: SkillFolder[]
  /**
   * In a package root: skill folders that are symlinks to outside the package (never served), with the package's name.
   */
  escapes?: { id: string; package: string }[]
}

const SKIPPED_RE = /^[_.]|^node_modules$/
/** The file that makes a folder a skill. */
export const MANIFEST = 'manifest.json'

/** A root that holds manifest.json: the one skill of its parent folder. */
async function asSkillFolder(from: Root, dir: string): Promise<RootScan> {
  const state = await inspectPath(dir)
  const realDir = state.kind === 'missing' ? dir : state.real
  const root = dirname(dir)
  return {
    from,
    root,
    exists: true,
    skillFolder: true,
    folders: [{ id: basename(dir), root, dir, realDir, symlinked: false }],
  }
}

/** Lists the skill folders of a root in directory-name order, following symlinked folders. */
export async function scanRoot(given: RootInput): Promise<RootScan> {
  const from = asRoot(given)
  const { path: input, problem } = from
  if (problem) return { from, root: input, exists: false, problem, folders: [] }
  const root = await effectiveRoot(input)
  let entries: import('node:fs').Dirent[]
  try {
    entries = await readdir(root, { withFileTypes: true })
  } catch (error) {
    // Only a missing root is "missing"; anything else (EACCES, EMFILE) must not look like an empty root.
    const code = (error as NodeJS.ErrnoException).code
    return {
      from,
      root,
      exists: false,
      folders: [],
      ...(code === 'ENOENT' || code === 'ENOTDIR' ? {} : { error: `${code ?? 'error'}: ${(error as Error).message}` }),
    }
  }
  if (entries.some((e) => e.name === MANIFEST && !e.isDirectory())) return asSkillFolder(from, root)
  const candidates = entries
    .filter((e) => !SKIPPED_RE.test(e.name) && (e.isDirectory() || e.isSymbolicLink()))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  // A folder that is no symlink lies in the root's real path: one resolve for the root, not one each.
  const realRoot = await inspectPath(root)
  // A package's skills stay inside the package (SPEC 9): a symlinked skill folder may not lead out of it.
  const pkg = from.package?.dir === undefined ? undefined : { name: from.package.name, dir: from.package.dir }
  const escapes: { id: string; package: string }[] = []
  const found = await Promise.all(
    candidates.map(async (entry): Promise<SkillFolder | undefined> => {
      const dir = join(root, entry.name)
      // The listing already says a folder is one and no symlink: below the root's real path, it
      // needs no `lstat` where names are case-sensitive.
      const plain =
        realRoot.kind === 'directory' && entry.isDirectory() ? plainPathInside(realRoot.real, entry.name) : undefined
      if (plain !== undefined && plain !== 'missing')
        return { id: entry.name, root, dir, realDir: plain, symlinked: false }
      const state = await inspectPath(dir)
      if (state.kind !== 'directory') return undefined
      if (pkg && !isInside(pkg.dir, state.real)) {
        escapes.push({ id: entry.name, package: pkg.name })
        return undefined
      }
      return { id: entry.name, root, dir, realDir: state.real, symlinked: entry.isSymbolicLink() }
    }),
  )
  const folders = found.filter((f): f is SkillFolder => f !== undefined)
  return { from, root, exists: true, folders, ...(escapes.length ? { escapes } : {}) }
}

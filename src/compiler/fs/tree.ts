import { createHash } from 'node:crypto'
import { type Stats, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { FILE_LIMITS, describeKind, isReadFailure, readRegularFile } from './files'
import { isInside } from './paths'
import { fsReason } from './write-inside'

/**
 * Names that are no file of a skill, anywhere in its folder: what npm never packs (version
 * control, installed packages, npm's own files, editor and system droppings). A verification
 * record does not hash them and a pack does not hold them, so a record stays true in its pack.
 */
const NEVER_PACKED_RE =
  /^(?:\.git|\.svn|\.hg|CVS|node_modules|\.npmrc|\.npmignore|\.gitignore|\.DS_Store|npm-debug\.log|\._.*|\..*\.swp|.*\.orig)$/

/** Bounds on the walk of one skill folder, so a hostile tree costs little. */
export const TREE_LIMITS = {
  /** Names looked at (files, folders, symlinks): a symlinked folder walked twice counts twice. */
  entries: 10_000,
  /** Folders below the skill folder. */
  depth: 32,
  /** Bytes read to hash the files of one skill (each file also within FILE_LIMITS.fixture). */
  hashed: 256 * 1024 * 1024,
} as const

/** Why an entry of a skill folder is not one of its files. */
type TreeProblem = 'link-out' | 'dangling' | 'loop' | 'not-regular' | 'too-many' | 'too-deep' | 'unreadable'

/** An entry that is no regular file of the skill: its path, what is wrong, and the words for it. */
interface TreeRefusal {
  rel: string
  problem: TreeProblem
  reason: string
}

export interface SkillTree {
  /** Regular files, by path inside the folder (forward slashes, in path order), with their real paths. */
  files: { rel: string; real: string }[]
  refused: TreeRefusal[]
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Where a symlink at `path` leads, when it resolves inside `realDir`; else why it is refused. */
function followLink(realDir: string, path: string): { real: string; info: Stats } | Omit<TreeRefusal, 'rel'> {
  let real: string
  try {
    real = realpathSync.native(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ELOOP') return { problem: 'loop', reason: 'is a symlink that leads to itself' }
    return { problem: 'dangling', reason: 'is a symlink that points nowhere' }
  }
  if (!isInside(realDir, real))
    return { problem: 'link-out', reason: 'is a symlink that leads out of the skill folder' }
  const info = statSync(real, { throwIfNoEntry: false })
  return info ? { real, info } : { problem: 'dangling', reason: 'is a symlink that points nowhere' }
}

/**
 * The one walk of a skill folder's files (its verification record's digests, a pack, an export):
 * regular files only; a symlink followed only while it stays inside `realDir`, a symlinked folder
 * never into a folder it lies in (a loop); a FIFO, device or socket never opened; at most
 * TREE_LIMITS.entries names and TREE_LIMITS.depth folders deep. What is not a file of the skill
 * comes back in `refused`, with why. Names npm never packs are left out, and so is any path
 * `leave` names. Never throws.
 */
export function walkSkillTree(realDir: string, leave?: (rel: string) => boolean): SkillTree {
  const tree: SkillTree = { files: [], refused: [] }
  let left: number = TREE_LIMITS.entries
  const refuse = (rel: string, why: Omit<TreeRefusal, 'rel'>) => tree.refused.push({ rel, ...why })
  /** Walks `dir` (a real path); `ancestors` are the real folders it lies in. False once the bound is hit. */
  const walk = (dir: string, prefix: string, ancestors: readonly string[]): boolean => {
    let names: string[]
    try {
      names = readdirSync(dir).sort(byName)
    } catch (error) {
      refuse(prefix.slice(0, -1) || '.', { problem: 'unreadable', reason: `cannot be listed: ${fsReason(error)}` })
      return true
    }
    for (const name of names) {
      const rel = `${prefix}${name}`
      if (NEVER_PACKED_RE.test(name) || leave?.(rel)) continue
      if (--left < 0) {
        refuse(rel, {
          problem: 'too-many',
          reason: `is past the first ${TREE_LIMITS.entries} entries of the skill folder`,
        })
        return false
      }
      const path = join(dir, name)
      const own = lstatSync(path, { throwIfNoEntry: false })
      if (!own) continue
      const target = own.isSymbolicLink() ? followLink(realDir, path) : { real: path, info: own }
      if ('problem' in target) refuse(rel, target)
      else if (target.info.isFile()) tree.files.push({ rel, real: target.real })
      else if (!target.info.isDirectory())
        refuse(rel, { problem: 'not-regular', reason: `is ${describeKind(target.info)}, not a regular file` })
      else if (ancestors.includes(target.real))
        refuse(rel, { problem: 'loop', reason: 'is a symlink to a folder it is in (a loop)' })
      else if (ancestors.length > TREE_LIMITS.depth)
        refuse(rel, { problem: 'too-deep', reason: `is more than ${TREE_LIMITS.depth} folders deep` })
      else if (!walk(target.real, `${rel}/`, [...ancestors, target.real])) return false
    }
    return true
  }
  walk(realDir, '', [realDir])
  return tree
}

/** A file's digest (`sha256:<hex>`), or why it was not hashed (`unhashed:<problem>`). */
export type FileDigest = `sha256:${string}` | `unhashed:${string}`

/** The digest of a file's bytes, as verification records and the MCP server's skill:// entries (SEP-2640) hold it. */
export function fileDigest(bytes: Uint8Array): `sha256:${string}` {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`
}

/**
 * The digest of every entry of a skill folder as `walkSkillTree` finds it, by path: each regular
 * file read by the file guard (at most FILE_LIMITS.fixture bytes each, TREE_LIMITS.hashed in all)
 * and hashed; an entry that is not a file of the skill, or past the bound, says why instead
 * (`unhashed:link-out`, `unhashed:too-large`, ...), so that it changing still shows. In path order.
 */
export function digestSkillTree(realDir: string, leave?: (rel: string) => boolean): Map<string, FileDigest> {
  const { files, refused } = walkSkillTree(realDir, leave)
  const out = new Map<string, FileDigest>()
  let budget: number = TREE_LIMITS.hashed
  for (const { rel, real } of files) {
    const limit = Math.min(FILE_LIMITS.fixture, budget)
    const read = readRegularFile(real, limit)
    if (!isReadFailure(read)) {
      budget -= read.length
      out.set(rel, fileDigest(read))
    } else if (read.problem === 'too-large' && limit < FILE_LIMITS.fixture) out.set(rel, 'unhashed:over-budget')
    else out.set(rel, `unhashed:${read.problem}`)
  }
  for (const { rel, problem } of refused) out.set(rel, `unhashed:${problem}`)
  return new Map([...out].sort(([a], [b]) => byName(a, b)))
}

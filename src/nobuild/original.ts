import { basename, dirname, join } from 'node:path'
import { urlHost } from '../../runtime/internal'
import { scanRoot } from '../compiler/discover/skills'
import { stripBom } from '../compiler/parse'
import { FILE_LIMITS, isReadFailure } from '../compiler/fs/files'
import { readFileInside } from '../compiler/fs/inside'
import { inspectPath, resolveUserPath } from '../compiler/fs/paths'
import { validateSkill } from '../compiler/validate/skill'
import { type LearningEntry, type SkillsInput, current, notFound, rootError, rootsOf } from './api'
import { siteSkillsForUrl, siteSkillsRoot, validateSiteSkills } from './api'
import { originalErrors } from './original-messages'

/**
 * The rest of the original's learning API (the learning module of ego-lite), built on the
 * compiler: validation reads the same cached compile as every other no-build call.
 */

/** The original's learningsRoot: `<workspace>/learnings` (siteSkillsRoot is the same function). */
export const learningsRoot: (agentWorkspace?: string) => string = siteSkillsRoot

/**
 * The skill folders of a root (a path or `{ root }`), in directory-name order, as the compiler
 * discovers them. A root that does not exist throws a SiteToolError `root-missing`.
 */
export async function iterLearningDirs(root?: SkillsInput): Promise<string[]> {
  const scan = await scanRoot(rootsOf(root)[0]!)
  if (!scan.exists) throw rootError(scan)
  return scan.folders.map((f) => f.dir)
}

/** The original's validateLearnings, which is its validateSiteSkills under another name. */
export const validateLearnings: typeof validateSiteSkills = validateSiteSkills

/**
 * The original's validateLearning: the errors of one skill folder as `<siteId>: <message>`, `[]`
 * when it is valid. The folder is checked as part of its parent root (cached with it); a folder the
 * root's scan leaves out (`_x`, `.x`) is validated on its own.
 */
export async function validateLearning(siteDir: string): Promise<string[]> {
  const dir = resolveUserPath(siteDir, process.cwd())
  const id = basename(dir)
  const { result } = await current({ root: dirname(dir) }, true)
  const index = result.records.findIndex((r) => r.folder.dir === dir)
  const report = result.reports[index]
  if (index >= 0 && report) return originalErrors(id, dir, report.diagnostics)
  const state = await inspectPath(dir)
  const realDir = state.kind === 'missing' ? dir : state.real
  const record = await validateSkill({ id, root: dirname(dir), dir, realDir, symlinked: false })
  return originalErrors(id, dir, record.diagnostics)
}

/** The original's findSiteSkill result: the skill's folder and its parsed manifest. */
export interface FoundSiteSkill {
  siteDir: string
  manifest: Record<string, unknown>
}

/**
 * The original's findSiteSkill: the valid skill with this id, or a `skill-not-found` error saying
 * where it looked (for an invalid skill, `skill-invalid` with its first error).
 */
export async function findSiteSkill(siteId: string, options?: SkillsInput): Promise<FoundSiteSkill> {
  const { result, models } = await current(options)
  const model = models.get(siteId)
  if (!model) throw notFound(result, siteId, rootsOf(options))
  // Through the file guard, as validation read it: a manifest swapped since for a FIFO fails, never hangs.
  const found = readFileInside(model.realDir, 'manifest.json', FILE_LIMITS.manifest)
  const bytes = 'read' in found ? found.read : undefined
  if (!bytes || isReadFailure(bytes))
    throw new Error(`${siteId}/manifest.json can no longer be read${bytes ? `: it ${bytes.message}` : ''}`)
  return { siteDir: model.dir, manifest: JSON.parse(stripBom(bytes.toString('utf8'))) as Record<string, unknown> }
}

/**
 * The original's urlHostname: the host a URL, or a bare host name (`github.com/x`), is matched by;
 * `''` when nothing can match (skills apply to http and https pages only).
 */
export function urlHostname(urlOrDomain: string | URL): string {
  const input = String(urlOrDomain)
  return urlHost(input.includes('://') ? input : `https://${input}`) ?? ''
}

/** The original's checkDomainLearningExists result. */
export interface DomainLearningCheck {
  exists: boolean
  /** The host the input is matched by (`''` when nothing can match). */
  hostname: string
  root: string
  matches: LearningEntry[]
}

/**
 * The original's checkDomainLearningExists: which skills claim a URL or a bare host name. Asked
 * before an agent writes its first skill, so a root that does not exist yet answers `exists: false`
 * (naming the root) rather than throwing.
 */
export async function checkDomainLearningExists(
  urlOrDomain: string | URL,
  options?: SkillsInput,
): Promise<DomainLearningCheck> {
  const hostname = urlHostname(urlOrDomain)
  const root = rootsOf(options)[0]!.path
  const there = (await inspectPath(root)).kind !== 'missing'
  const matches = hostname && there ? await siteSkillsForUrl(`https://${hostname}/`, options) : []
  return { exists: matches.length > 0, hostname, root, matches }
}

/** The original's checkLearningExists result. */
export interface LearningCheck {
  exists: boolean
  root: string
  siteDir: string
  manifestPath: string
}

/** The original's checkLearningExists: whether `<root>/<siteId>/manifest.json` is there (valid or not). */
export async function checkLearningExists(siteId: string, options?: SkillsInput): Promise<LearningCheck> {
  const root = rootsOf(options)[0]!.path
  const siteDir = join(root, siteId)
  const manifestPath = join(siteDir, 'manifest.json')
  // An id is one folder name: `../x` or `a/b` never names a skill of this root.
  const plain = siteId !== '' && siteId !== '.' && siteId !== '..' && !/[\\/]/.test(siteId)
  const exists = plain && (await inspectPath(manifestPath)).kind === 'file'
  return { exists, root, siteDir, manifestPath }
}

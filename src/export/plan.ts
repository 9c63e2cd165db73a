import type { CompileResult } from '../compiler/compile'
import { createDiagnostic, type Diagnostic } from '../compiler/diagnostics/catalog'
import { MANIFEST } from '../compiler/discover/skills'
import type { SkillModel, SkillRecord } from '../compiler/model'
import { FILE_LIMITS, READ_FAILURE_CODES, isReadFailure, readRegularFile } from '../compiler/fs/files'
import { pathBelow, toPosix } from '../compiler/fs/paths'
import { walkSkillTree } from '../compiler/fs/tree'
import { type AgentSkillFolder, type SourceFile, generateAgentSkill } from './agent-skill'
import { checkAgentSkill } from './rules'
import { agentSkillName, agentSkillNames } from './name'

/** What an export would write, and the findings that stop it (errors) or go with it (warnings). */
export interface ExportPlan {
  folders: AgentSkillFolder[]
  diagnostics: Diagnostic[]
}

/**
 * A path with a dot-named part (`.env`, `.vscode/settings.json`): editor and local state, left out of a copy unless the
 * compile read it.
 */
const DOT_PATH_RE = /(?:^|\/)\./

/** Each path and every folder on its way (`a/b/c` gives `a`, `a/b`, `a/b/c`). */
function withFolders(paths: Iterable<string>): Set<string> {
  const out = new Set<string>()
  for (const path of paths)
    for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) out.add(path.slice(0, at))
  for (const path of paths) out.add(path)
  return out
}

/**
 * A skill's own files, to copy: the files of its folder as the file guard walks them (see
 * walkSkillTree: symlinks only inside the folder, no FIFO or device, bounded), less dot-named ones,
 * and every file of the folder the compiler read (a dot-named note, a package in the skill's own
 * node_modules), each read by the guard; so the copy validates and runs like the original. A file
 * that cannot be read now (swapped for a FIFO, grown past the limit) stops the export.
 */
function sourcesOf(record: SkillRecord): SourceFile[] {
  const { realDir } = record.folder
  const needed = new Map<string, string>()
  for (const file of record.files) {
    const rel = pathBelow(realDir, file)
    if (rel) needed.set(toPosix(rel), file)
  }
  const kept = withFolders(needed.keys())
  const tree = walkSkillTree(realDir, (rel) => DOT_PATH_RE.test(rel) && !kept.has(rel))
  const files = new Map([...needed, ...tree.files.map((f) => [f.rel, f.real] as const)])
  return [...files]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, real]) => {
      const content = readRegularFile(real, FILE_LIMITS.fixture)
      if (isReadFailure(content))
        throw Object.assign(new Error(`cannot copy ${record.folder.id}/${path}: it ${content.message}`), {
          code: READ_FAILURE_CODES[content.problem],
        })
      return { path, content }
    })
}

/**
 * Names of the chosen skills (agentSkillNames), with a warning for each mapped id and an error for
 * each that cannot have one.
 */
function nameSkills(chosen: readonly { model: SkillModel; record: SkillRecord }[]) {
  const byId = agentSkillNames(chosen.map(({ model }) => model.id))
  const owners = new Map([...byId].map(([id, name]) => [name, id]))
  const names = new Map<SkillModel, string>()
  const diagnostics: Diagnostic[] = []
  for (const { model, record } of chosen) {
    const name = byId.get(model.id)
    if (name !== undefined) names.set(model, name)
    if (name === model.id) continue
    const at = record.locate?.(['id'])
    const file = `${model.id}/${MANIFEST}`
    if (name === undefined) {
      const mapped = agentSkillName(model.id)
      const owner = owners.get(mapped)
      const data = { id: model.id, name: mapped, ...(owner === undefined ? {} : { owner }) }
      diagnostics.push(createDiagnostic(model, file, { code: 'agent-skill-name-invalid', data, ...at }))
    } else
      diagnostics.push(createDiagnostic(model, file, { code: 'agent-skill-name', data: { id: model.id, name }, ...at }))
  }
  return { names, diagnostics }
}

/**
 * The Agent Skills folders of the compiled skills (`sites`: only those ids, in the order compiled).
 * Every folder is checked against the export's own rules: one that breaks them is a bug, thrown.
 */
export async function planAgentSkills(
  result: CompileResult,
  version: string,
  sites?: readonly string[],
): Promise<ExportPlan> {
  const records = new Map(result.records.filter((r) => r.model).map((r) => [r.model!, r]))
  const chosen = result.skills
    .filter((s) => !sites?.length || sites.includes(s.model.id))
    .map((s) => ({ model: s.model, record: records.get(s.model)! }))
  const { names, diagnostics } = nameSkills(chosen)
  const folders: AgentSkillFolder[] = []
  for (const { model, record } of chosen) {
    const name = names.get(model)
    if (name === undefined) continue
    const folder = generateAgentSkill(model, name, sourcesOf(record), version)
    const broken = checkAgentSkill(name, new Map(folder.files.map((f) => [f.path, f.content])))
    if (broken.length)
      throw new Error(
        `the export of ${model.id} breaks its rules: ` +
          `${broken.map((p) => `${p.file}:${p.line}: ${p.message}`).join('; ')}`,
      )
    folders.push(folder)
  }
  return { folders, diagnostics }
}

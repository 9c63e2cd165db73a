import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import type { CompileResult } from '../compiler/compile'
import { createDiagnostic, type Diagnostic } from '../compiler/diagnostics/catalog'
import { MANIFEST } from '../compiler/discover/skills'
import type { SkillModel, SkillRecord } from '../compiler/model'
import { toPosix } from '../compiler/fs/paths'
import { type AgentSkillFolder, type SourceFile, generateAgentSkill } from './agent-skill'
import { checkAgentSkill } from './rules'
import { agentSkillName, agentSkillNames } from './name'

/** What an export would write, and the findings that stop it (errors) or go with it (warnings). */
export interface ExportPlan {
  folders: AgentSkillFolder[]
  diagnostics: Diagnostic[]
}

/** Entries a skill's copy leaves out: installed packages and dot-files (editor and VCS state). */
const SKIPPED_RE = /^(?:node_modules|\..*)$/

/** Regular files under a folder (symlinks not followed), relative with forward slashes. */
async function plainFiles(dir: string, base = dir): Promise<string[]> {
  const found: string[] = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (SKIPPED_RE.test(entry.name)) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) found.push(...(await plainFiles(path, base)))
    else if (entry.isFile()) found.push(toPosix(relative(base, path)))
  }
  return found
}

/**
 * A skill's own files, to copy: every regular file of its folder and every file the compiler read
 * for it (a symlinked one at its real place), so the copy validates and runs like the original.
 */
async function sourcesOf(record: SkillRecord): Promise<SourceFile[]> {
  const { realDir } = record.folder
  const paths = new Set(await plainFiles(realDir))
  for (const file of record.files) {
    const rel = toPosix(relative(realDir, file))
    if (!rel.startsWith('../')) paths.add(rel)
  }
  const sorted = [...paths].sort()
  return Promise.all(sorted.map(async (path) => ({ path, content: await readFile(join(realDir, path)) })))
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
    const folder = generateAgentSkill(model, name, await sourcesOf(record), version)
    const broken = checkAgentSkill(name, new Map(folder.files.map((f) => [f.path, f.content])))
    if (broken.length)
      throw new Error(
        `the export of ${model.id} breaks its rules: ${broken.map((p) => `${p.file}:${p.line}: ${p.message}`).join('; ')}`,
      )
    folders.push(folder)
  }
  return { folders, diagnostics }
}

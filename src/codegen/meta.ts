import { relative } from 'node:path'
import type { RegistryData, SkillMeta, ToolMeta } from '../../runtime/index'
import { createDomainTableData } from '../../runtime/internal'
import type { CompiledSkill } from '../compiler/compile'
import type { ToolModel } from '../compiler/model'
import { toPosix } from '../compiler/fs/paths'

/** The tool's file relative to its root: `google/tools/search.js`. */
export function toolFile(skill: CompiledSkill['model'], tool: ToolModel): string {
  return toPosix(`${skill.id}/${tool.path}`) || toPosix(relative(skill.root, tool.absPath))
}

/** The tool's result budget in its metadata: its own, else its skill's; absent: the runtime's default. */
function budgetOf(skill: CompiledSkill['model'], tool: ToolModel): { resultBudget?: number } {
  const budget = tool.resultBudget ?? skill.resultBudget
  return budget === undefined ? {} : { resultBudget: budget }
}

function toolMeta(skill: CompiledSkill['model'], tool: ToolModel): ToolMeta {
  return {
    kind: tool.kind,
    description: tool.description,
    args: tool.args,
    returns: tool.returns,
    ...(tool.timeoutMs ? { timeoutMs: tool.timeoutMs } : {}),
    ...budgetOf(skill, tool),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    file: toolFile(skill, tool),
    ...(tool.urls ? { urls: tool.urls } : {}),
    ...(tool.webmcp ? { webmcp: tool.webmcp } : {}),
  }
}

/** Metadata of a skill: no notes, no code, no absolute paths. Tools keep the original's order. */
function toSkillMeta({ model }: CompiledSkill): SkillMeta {
  // Own properties by fromEntries: a tool named `__proto__` (were one to get this far) is a key like any other.
  const tools: Record<string, ToolMeta> = Object.fromEntries(model.tools.map((t) => [t.name, toolMeta(model, t)]))
  const urls = model.urls ? { urls: model.urls } : {}
  return {
    id: model.id,
    name: model.name,
    domains: model.domains,
    ...urls,
    notes: model.notes.map((n) => n.path),
    tools,
    ...(model.verified ? { verified: model.verified } : {}),
  }
}

/** Everything the main module inlines: skill metadata and the compiled domain table. */
export function createRegistryData(skills: readonly CompiledSkill[]): RegistryData {
  const metas = skills.map(toSkillMeta)
  return { skills: metas, table: createDomainTableData(metas.map((s) => s.domains)) }
}

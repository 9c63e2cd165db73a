import {
  chunkGroups,
  generateGroupChunk,
  generateGroupMember,
  generateMainModule,
  generateSkillChunk,
} from '../codegen/module'
import type { CompiledSkill } from '../compiler/compile'
import { notesOf } from '../compiler/notes'
import { LOG_PREFIX, RESOLVED_GROUP_PREFIX, RESOLVED_ID, RESOLVED_SKILL_PREFIX } from '../ids'
import type { ResolvedOptions } from './options'

/** The valid skills of one compile, as the generated modules serve them. */
export interface ServedSkills {
  skills: readonly CompiledSkill[]
  byId: ReadonlyMap<string, CompiledSkill>
  /** Each skill's lazy chunk when skills share chunks (a build with many skills; never in the dev server). */
  groups: ReadonlyMap<string, number> | undefined
}

export function serveSkills(skills: readonly CompiledSkill[], devServer: boolean): ServedSkills {
  const byId = new Map(skills.map((s) => [s.model.id, s]))
  return { skills, byId, groups: devServer ? undefined : chunkGroups([...byId.keys()]) }
}

/** The code of every generated module, given its resolved id. */
export interface ModuleCode {
  generate: (served: ServedSkills, id: string, nodeTools: boolean) => string
}

export function createModuleCode(options: ResolvedOptions): ModuleCode {
  /**
   * Each skill's entry in its group's chunk, with and without Node tools, while its model and
   * compiled tools stay the same objects (the compiler's cache keeps them for unchanged skills):
   * a watch rebuild regenerates only the changed skills' code.
   */
  const members = new WeakMap<
    CompiledSkill['model'],
    { browser: CompiledSkill['browser']; code: Map<boolean, string> }
  >()
  function groupMember(skill: CompiledSkill, nodeTools: boolean): string {
    let entry = members.get(skill.model)
    if (entry?.browser !== skill.browser) {
      entry = { browser: skill.browser, code: new Map() }
      members.set(skill.model, entry)
    }
    let code = entry.code.get(nodeTools)
    if (code === undefined) {
      code = generateGroupMember(skill, { nodeTools, notes: notesOf(skill.model) })
      entry.code.set(nodeTools, code)
    }
    return code
  }

  function groupChunk({ skills, groups }: ServedSkills, id: string, nodeTools: boolean): string {
    const group = Number(id.slice(RESOLVED_GROUP_PREFIX.length))
    const inGroup = skills.filter((s) => groups?.get(s.model.id) === group)
    if (inGroup.length === 0) throw new Error(`${LOG_PREFIX} no skill group ${JSON.stringify(id.slice(1))}`)
    return generateGroupChunk(inGroup.map((skill) => groupMember(skill, nodeTools)))
  }

  return {
    generate(served, id, nodeTools) {
      if (id === RESOLVED_ID) return generateMainModule(served.skills, undefined, options, served.groups)
      if (id.startsWith(RESOLVED_GROUP_PREFIX)) return groupChunk(served, id, nodeTools)
      const skillId = id.slice(RESOLVED_SKILL_PREFIX.length)
      const skill = served.byId.get(skillId)
      if (!skill) throw new Error(`${LOG_PREFIX} no skill ${JSON.stringify(skillId)}`)
      return generateSkillChunk(skill, { nodeTools, notes: notesOf(skill.model) })
    },
  }
}

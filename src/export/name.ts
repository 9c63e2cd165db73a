/**
 * Agent Skills names (agentskills.io/specification): 1 to 64 characters, lowercase letters, digits
 * and hyphens, no hyphen at either end, no two in a row, and the same as the skill's folder name.
 */
const AGENT_SKILL_NAME_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const AGENT_SKILL_NAME_MAX = 64

/** The name rules a string breaks, in words; empty when it is a valid name. */
export function nameProblems(name: string): string[] {
  const problems: string[] = []
  if (name.length === 0 || name.length > AGENT_SKILL_NAME_MAX)
    problems.push(`must be 1 to ${AGENT_SKILL_NAME_MAX} characters (has ${name.length})`)
  if (!AGENT_SKILL_NAME_RE.test(name))
    problems.push('may hold only a-z, 0-9 and single hyphens between them (no hyphen at either end)')
  return problems
}

/**
 * The Agent Skills name of a skill id: the id itself when it is a valid name, else the id
 * lowercased, each run of other characters (a-z and 0-9 kept, after removing accents) as one
 * hyphen, hyphens trimmed, cut to 64 characters. Empty when nothing is left (`"日本"`).
 */
export function agentSkillName(id: string): string {
  if (nameProblems(id).length === 0) return id
  const folded = id.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()
  const hyphenated = folded.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')
  return hyphenated.slice(0, AGENT_SKILL_NAME_MAX).replace(/-+$/, '')
}

/**
 * The Agent Skills name of each id that can have one: an id that is a valid name keeps it, then each
 * other id gets its mapped name unless that is empty or taken (`My_Site` never takes the name of a
 * skill `my-site`; of two ids that map alike, the first keeps it).
 */
export function agentSkillNames(ids: readonly string[]): Map<string, string> {
  const names = new Map<string, string>()
  const taken = new Set<string>()
  for (const id of ids)
    if (agentSkillName(id) === id) {
      names.set(id, id)
      taken.add(id)
    }
  for (const id of ids) {
    const name = agentSkillName(id)
    if (names.has(id) || !name || taken.has(name)) continue
    names.set(id, name)
    taken.add(name)
  }
  return names
}

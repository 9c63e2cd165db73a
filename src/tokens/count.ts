import type { SiteSkills, SkillMeta } from '../../runtime/index'
import { listedTool, modelText } from '../listing/site-tool'
import type { Tokenizer } from './tokenizer'

/** The tokens of one tool's definition, as `site-skills mcp` lists it (icons left out). */
interface ToolTokens {
  /** The model-facing name (`<siteId>__<tool>`). */
  name: string
  tool: string
  tokens: number
  /**
   * A typical result's tokens, the median of its examples' (see ExampleTokens); absent when no
   * example gives one.
   */
  result?: number
}

/** The tokens of one note, as an agent puts it in its prompt. */
interface NoteTokens {
  /** The note's path inside the skill folder (`notes/overview.md`). */
  file: string
  tokens: number
}

export interface SkillTokens {
  siteId: string
  tools: ToolTokens[]
  notes: NoteTokens[]
  /** Tools and notes. */
  total: number
}

/** What `context URL --tokens` reports: per tool, per note, per skill, and in all. */
export interface ContextTokens {
  encoding: string
  skills: SkillTokens[]
  tools: number
  notes: number
  total: number
}

const sum = (items: readonly { tokens: number }[]) => items.reduce((n, item) => n + item.tokens, 0)

/** The tokens of a skill's tool definitions (named by `names`: siteId + "\0" + tool -> name) and notes. */
export function skillTokens(
  tokenizer: Tokenizer,
  skill: SkillMeta,
  names: ReadonlyMap<string, string>,
  notes: readonly string[],
): SkillTokens {
  const tools = Object.keys(skill.tools).map((tool) => {
    const name = names.get(`${skill.id}\0${tool}`)!
    return { name, tool, tokens: tokenizer.count(modelText(listedTool(skill, tool, name).def)) }
  })
  const counted = skill.notes.map((file, i) => ({ file, tokens: tokenizer.count(notes[i] ?? '') }))
  return { siteId: skill.id, tools, notes: counted, total: sum(tools) + sum(counted) }
}

/**
 * The result tokens of a tool's examples (site id, tool name): the runtime's estimate of each
 * result as compact text, what budgets are checked against (not the tokenizer's count).
 */
export type ExampleTokens = (siteId: string, tool: string) => readonly number[]

/** A tool's typical result tokens: the median of its examples'. */
function typicalResult(tokens: readonly number[]): { result?: number } {
  if (tokens.length === 0) return {}
  return { result: [...tokens].sort((a, b) => a - b)[(tokens.length - 1) >> 1]! }
}

/**
 * The tokens of what `url` gets: the tool definitions and the notes of every skill that matches it,
 * and each tool's typical result when `examples` gives its examples' result tokens.
 */
export async function contextTokens(
  api: SiteSkills,
  url: string,
  tokenizer: Tokenizer,
  examples: ExampleTokens = () => [],
): Promise<ContextTokens> {
  const names = new Map(Object.entries(api.toolDefinitions(url).names).map(([n, r]) => [`${r.siteId}\0${r.tool}`, n]))
  const skills = await Promise.all(
    api.siteSkillsForUrl(url).map(async (skill) => {
      const notes = (await api.loadNotes(skill.id)).map((n) => n.content)
      // Only the tools the page is offered: a tool scoped by `urls` to other paths is not in its context.
      const offered = Object.entries(skill.tools).filter(([tool]) => names.has(`${skill.id}\0${tool}`))
      const counted = skillTokens(tokenizer, { ...skill, tools: Object.fromEntries(offered) }, names, notes)
      const tools = counted.tools.map((t) => ({ ...t, ...typicalResult(examples(skill.id, t.tool)) }))
      return { ...counted, tools }
    }),
  )
  const tools = skills.reduce((n, s) => n + sum(s.tools), 0)
  const notes = skills.reduce((n, s) => n + sum(s.notes), 0)
  return { encoding: tokenizer.encoding, skills, tools, notes, total: tools + notes }
}

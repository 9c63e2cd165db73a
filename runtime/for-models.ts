/**
 * What a registry does for agents that come by URL or by a model's tool call: the learned context
 * of a URL and the dispatch of a model tool name. Loaded with the first such call (registry.ts
 * imports it then): an agent that calls its tools by site and name never loads it.
 */
import type { ToolDefinitions } from './definitions'
import { copyArgs } from './args'
import { siteToolError } from './errors'
import { urlHost } from './match'
import type { KnowledgeNote, SkillChunk, SkillMeta, ToolMeta } from './skill-data'

/** The original's LearnedToolSignature. */
export interface LearnedToolSignature {
  siteId: string
  toolName: string
  toolType: 'node' | 'browser'
  description: string
  args: ToolMeta['args']
  returns: ToolMeta['returns'] | null
  example: string
}

/** The original's LearnedContext, plus the matched tools as model tool definitions. */
export interface LearnedContext {
  exists: boolean
  siteId: string | null
  siteName: string | null
  domain: string
  knowledge: KnowledgeNote[]
  tools: LearnedToolSignature[]
  toolDefinitions: ToolDefinitions
}

/** A model's tool call arguments: an object, or the JSON text of one. */
export type ModelArgs = Record<string, unknown> | string | null | undefined

/** What these functions use of the registry that calls them. */
export interface RegistryCore {
  siteSkillsForUrl: (url: string | URL) => SkillMeta[]
  /** A skill's tools offered on `url`. */
  toolsForUrl: (skill: SkillMeta, url: string | URL) => [string, ToolMeta][]
  toolDefinitions: (url: string | URL) => ToolDefinitions
  load: (siteId: string) => Promise<SkillChunk>
  meta: (siteId: string, tool: string) => ToolMeta
  /** A model tool name's site and tool. */
  byName: ReadonlyMap<string, readonly [siteId: string, tool: string]>
  /**
   * Runs a model's call: its result paged when over the tool's budget (or when it has a cursor).
   * `args` is the caller's own copy (copyArgs): it is checked, not copied again.
   */
  runTool: (siteId: string, tool: string, args: Record<string, unknown>, ctx?: unknown) => Promise<unknown>
}

/**
 * How to call a tool with this API (`virtual:site-skills`): the original's example text, with the
 * functions this module exports in place of ego-lite's `site` object, names JSON-quoted.
 */
function example(siteId: string, tool: string, kind: 'node' | 'browser'): string {
  const call = kind === 'node' ? 'runTool' : 'runBrowserTool'
  return (
    `await ${call}(${JSON.stringify(siteId)}, ${JSON.stringify(tool)}, { ... }, ` +
    `${kind === 'node' ? 'ctx' : 'target'})`
  )
}

/** The original's LearnedContext of a URL, plus its tools as model tool definitions. */
export async function learnedContext(core: RegistryCore, url: string | URL): Promise<LearnedContext> {
  const matches = core.siteSkillsForUrl(url)
  const chunkList = await Promise.all(matches.map((s) => core.load(s.id)))
  const first = matches[0]
  return {
    exists: matches.length > 0,
    siteId: first?.id ?? null,
    siteName: first?.name ?? null,
    domain: urlHost(url) ?? '',
    knowledge: chunkList.flatMap((c) => c.notes),
    tools: matches.flatMap((s) => {
      const entries = core.toolsForUrl(s, url)
      const ordered = [
        ...entries.filter(([, m]) => m.kind === 'node'),
        ...entries.filter(([, m]) => m.kind === 'browser'),
      ]
      return ordered.map(([toolName, m]) => ({
        siteId: s.id,
        toolName,
        toolType: m.kind,
        description: m.description,
        args: m.args,
        returns: m.returns ?? null,
        example: example(s.id, toolName, m.kind),
      }))
    }),
    toolDefinitions: core.toolDefinitions(url),
  }
}

/** Runs a model's tool call by its name; `args` may be the JSON text of OpenAI's `function.arguments`. */
export async function dispatchToolCall(core: RegistryCore, name: string, args: ModelArgs, ctx?: unknown) {
  const ref = core.byName.get(name)
  if (!ref) throw siteToolError('tool-not-found', { name })
  const [siteId, tool] = ref
  const declared = core.meta(siteId, tool).args
  let value: unknown = args ?? {}
  if (typeof value === 'string') {
    try {
      value = value.trim() ? JSON.parse(value) : {}
    } catch {
      throw siteToolError('invalid-args', { reason: 'not-json' }, { siteId, tool })
    }
  }
  // OpenAI strict mode sends optional arguments as null: treat them as absent.
  const entries = Object.entries(copyArgs(value, { siteId, tool }))
  const optional = (k: string) => !Object.hasOwn(declared, k) || !declared[k]!.required
  const cleaned = Object.fromEntries(entries.filter(([k, v]) => !(v === null && optional(k))))
  return core.runTool(siteId, tool, cleaned, ctx)
}

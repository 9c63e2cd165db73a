/**
 * The public shape of a registry of site skills (`SiteSkills`, what `virtual:site-skills` and the
 * no-build API give) and the data it is made from; registry.ts makes one.
 */
import type { BrowserTarget } from './browser'
import type { ToolDefinitions } from './definitions'
import type { LearnedContext, ModelArgs } from './for-models'
import type { DomainTableData } from './match'
import type { ValidateReturns } from './results'
import type { KnowledgeNote, SkillChunk, SkillMeta } from './skill-data'
import type { WebMcpHandle, WebMcpOptions } from './webmcp'

/** The data a generated module (or the no-build API) hands to the runtime. */
export interface RegistryData {
  skills: SkillMeta[]
  table: DomainTableData
}

export type SkillLoaders = Record<string, () => Promise<SkillChunk>>

/** How a registry behaves at run time. */
export interface SiteSkillsOptions {
  /** What a result that does not fit its tool's `returns` does: see {@link ValidateReturns}. @default 'warn' */
  validateReturns?: ValidateReturns
  /**
   * The mismatches already logged under `'warn'` (keys of tool and path), shared by the registries
   * of one no-build session, so that a recompile does not log them again. @internal
   */
  warned?: Set<string>
}

export interface BrowserRunOptions {
  /** Run in an isolated world (shares the DOM, not the page's globals). */
  isolatedWorld?: boolean
  timeoutMs?: number
}

export type ToolStub = (args?: Record<string, unknown>, ctxOrTarget?: unknown) => Promise<unknown>

export interface SiteSkills {
  /** Metadata of every skill: id, name, domains, note paths and tools (no code). */
  skills: readonly SkillMeta[]
  /** The skills whose domains (and `urls`, when the manifest scopes them) match the URL. */
  siteSkillsForUrl: (url: string | URL) => SkillMeta[]
  /** Notes and tool signatures of the skills for a URL, ready for an agent's prompt. */
  loadLearnedContext: (url: string | URL) => Promise<LearnedContext>
  /**
   * Runs a tool: `(siteId, tool, args, ctx)` for a Node tool (`ctx` is handed to it as is),
   * `(siteId, tool, args, target)` for a browser tool (a CDP target). Checks the arguments first.
   */
  runTool: (siteId: string, tool: string, args?: Record<string, unknown>, ctxOrTarget?: unknown) => Promise<unknown>
  /** Runs a browser tool in the page of a CDP target: a client or session (`send()`), `{ host, port }` or a URL. */
  runBrowserTool: (
    siteId: string,
    tool: string,
    args: Record<string, unknown> | undefined,
    target: BrowserTarget,
    options?: BrowserRunOptions,
  ) => Promise<unknown>
  /** The compiled source of a browser tool: one self-contained function expression. */
  browserToolSource: (siteId: string, tool: string) => Promise<string>
  /** The notes of one skill (loads its chunk). */
  loadNotes: (siteId: string) => Promise<KnowledgeNote[]>
  /** Tool definitions for the skills of a URL, for MCP, Anthropic and OpenAI tool calling. */
  toolDefinitions: (url: string | URL) => ToolDefinitions
  /** Runs a model's tool call by its name; `args` may be the JSON text of OpenAI's `function.arguments`. */
  dispatchToolCall: (name: string, args: ModelArgs, ctxOrTarget?: unknown) => Promise<unknown>
  /** Site id -> tool name -> a stub that runs the tool (`sites.github.read_repo(args, target)`). */
  sites: Record<string, Record<string, ToolStub>>
  /**
   * Registers the skills' browser tools as WebMCP tools in the target's page and the pages it
   * navigates to (see docs/webmcp.md); the registry's `validateReturns` applies.
   */
  exposeWebMcpTools: (target: BrowserTarget, options?: Omit<WebMcpOptions, 'siteSkills'>) => Promise<WebMcpHandle>
}

const API_NAMES = [
  'skills',
  'siteSkillsForUrl',
  'loadLearnedContext',
  'runTool',
  'runBrowserTool',
  'browserToolSource',
  'loadNotes',
  'toolDefinitions',
  'dispatchToolCall',
  'sites',
  'exposeWebMcpTools',
] as const satisfies readonly (keyof SiteSkills)[]

/** `L`, when it names every member of SiteSkills; else `never`, so the assignment below fails to compile. */
type EveryMember<L extends readonly PropertyKey[]> = Exclude<keyof SiteSkills, L[number]> extends never ? L : never

/**
 * The names `virtual:site-skills` exports besides `default` (the whole API): every member of
 * SiteSkills, in one list. The generated module exports them (src/codegen/module.ts); client.d.ts
 * declares them, which test/package/public-names.test.ts checks against this list.
 */
export const SITE_SKILLS_EXPORTS: EveryMember<typeof API_NAMES> = API_NAMES

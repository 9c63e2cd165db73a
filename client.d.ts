// Fallback types of `virtual:site-skills` for before the first build. The plugin (or
// `site-skills types`) writes site-skills.d.ts, which fills in SiteSkillRegistry.
declare module 'virtual:site-skills' {
  import type { SiteSkillsModule } from 'unplugin-site-skills/runtime'
  import type { SiteSkillsHost } from 'unplugin-site-skills/tool'
  export type {
    BrowserTool,
    NodeTool,
    SiteSkillsHost,
    SiteToolArgs,
    SiteToolResult,
  } from 'unplugin-site-skills/tool'

  /** Site id -> tool name -> { kind, args, returns }; declared by the generated site-skills.d.ts. */
  export interface SiteSkillRegistry {}
  /**
   * Site id -> tool name -> a stub that runs the tool, each documented with its manifest's words;
   * declared by the generated site-skills.d.ts (editors show it without a plugin).
   */
  export interface SiteSkillSites {}
  /** The signatures of `runTool`: one per tool, documented; declared by the generated site-skills.d.ts. */
  export interface SiteSkillRunTool {}

  type Api = SiteSkillsModule<SiteSkillRegistry, SiteSkillsHost>
  /** Metadata of every skill: id, name, domains, note paths and tools (no code). */
  export const skills: Api['skills']
  /** The skills whose domains match the URL's host. */
  export const siteSkillsForUrl: Api['siteSkillsForUrl']
  /** Notes and tool signatures of the skills for a URL, ready for an agent's prompt. */
  export const loadLearnedContext: Api['loadLearnedContext']
  /**
   * Runs a tool of a site: `runTool(siteId, tool, args, ctx)` for a Node tool, `runTool(siteId, tool, args, target)`
   * for a browser tool (a CDP target). A call shows its tool's description, arguments and result.
   */
  export const runTool: Record<never, never> extends SiteSkillSites ? Api['runTool'] : SiteSkillRunTool
  /** Runs a browser tool in a page: the target is a CDP client or session (`send()`), `{ host, port }` or a URL. */
  export const runBrowserTool: Api['runBrowserTool']
  /** The compiled source of a browser tool: one self-contained function expression. */
  export const browserToolSource: Api['browserToolSource']
  /** The notes of a site, in manifest order. */
  export const loadNotes: Api['loadNotes']
  /** Tool definitions for the skills of a URL, for MCP, Anthropic and OpenAI tool calling. */
  export const toolDefinitions: Api['toolDefinitions']
  /** Runs a model's tool call by the name `toolDefinitions` gave it. */
  export const dispatchToolCall: Api['dispatchToolCall']
  /** Site id -> tool name -> a typed stub that runs the tool; each carries the manifest's documentation. */
  export const sites: Record<never, never> extends SiteSkillSites ? Api['sites'] : SiteSkillSites
  /** Registers the browser tools as WebMCP tools in a CDP target's pages, where their skills apply. */
  export const exposeWebMcpTools: Api['exposeWebMcpTools']
  const api: Api
  export default api
}

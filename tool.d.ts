// Types for tool authors. The registry comes from the generated site-skills.d.ts (written by the
// plugin, `site-skills types` or `site-skills check`); before it exists no site id is known.
/// <reference path="./client.d.ts" />
import type { SiteSkillRegistry } from 'virtual:site-skills'

/**
 * What the host passes to every Node tool as `ctx`. Empty by default: the runtime adds nothing to
 * `ctx`, it hands the tool the value given to `runTool`/`sites[...]` as is. Declare its members once
 * in your project, and every Node tool's `ctx` (and every call's `ctx`) gets that type:
 *
 * ```ts
 * declare module 'unplugin-site-skills/tool' {
 *   interface SiteSkillsHost { page: import('playwright').Page; fetch: typeof fetch }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by declaration merging
export interface SiteSkillsHost {}

/** Every site id of the generated registry. */
export type SiteId = keyof SiteSkillRegistry & string

type Entry<S extends SiteId, T> = T extends keyof SiteSkillRegistry[S] ? SiteSkillRegistry[S][T] : never
type ToolsOfKind<S extends SiteId, K extends 'node' | 'browser'> = {
  [T in keyof SiteSkillRegistry[S]]: SiteSkillRegistry[S][T] extends { kind: K } ? T : never
}[keyof SiteSkillRegistry[S]] &
  string

/** The Node tools of a site, by name. */
export type NodeToolName<S extends SiteId> = ToolsOfKind<S, 'node'>
/** The browser tools of a site, by name. */
export type BrowserToolName<S extends SiteId> = ToolsOfKind<S, 'browser'>

/** The arguments a tool receives, as its manifest declares them (`SiteToolArgs<'github', 'read_repo'>`). */
export type SiteToolArgs<S extends SiteId, T extends keyof SiteSkillRegistry[S]> =
  Entry<S, T> extends { args: infer A } ? A : never
/** What a tool returns, as its manifest's `returns` declares it. */
export type SiteToolResult<S extends SiteId, T extends keyof SiteSkillRegistry[S]> =
  Entry<S, T> extends { returns: infer R } ? R : never

/** A Node tool's function: `(ctx, args) => result` (or a promise of it). */
export type NodeTool<S extends SiteId, T extends NodeToolName<S>> = (
  ctx: SiteSkillsHost,
  args: SiteToolArgs<S, T>,
) => SiteToolResult<S, T> | Promise<SiteToolResult<S, T>>

/** A browser tool's function, evaluated in the page: `(args) => result` (or a promise of it). */
export type BrowserTool<S extends SiteId, T extends BrowserToolName<S>> = (
  args: SiteToolArgs<S, T>,
) => SiteToolResult<S, T> | Promise<SiteToolResult<S, T>>

/**
 * Declares the Node tool `tool` of site `site`: `ctx` and `args` get their types, and what it
 * returns is checked against the manifest. Returns `fn` itself.
 *
 * ```ts
 * export const searchCatalog = defineNodeTool('demo-shop', 'search_catalog', async (ctx, args) => { ... })
 * ```
 */
export declare function defineNodeTool<S extends SiteId, T extends NodeToolName<S>>(
  site: S,
  tool: T,
  fn: NodeTool<S, T>,
): NodeTool<S, T>

/**
 * Declares the browser tool `tool` of site `site` (the default export of an ES-module tool):
 * `args` gets its type and what it returns is checked against the manifest. Returns `fn` itself,
 * so the bundled tool is still one self-contained function.
 *
 * ```ts
 * export default defineBrowserTool('github', 'read_repo', async (args) => { ... })
 * ```
 */
export declare function defineBrowserTool<S extends SiteId, T extends BrowserToolName<S>>(
  site: S,
  tool: T,
  fn: BrowserTool<S, T>,
): BrowserTool<S, T>

// Only the names exported above are the entry's: without it, a declaration file exports every name.
// biome-ignore lint/complexity/noUselessEmptyExport: not useless in a declaration file (see above)
export {}

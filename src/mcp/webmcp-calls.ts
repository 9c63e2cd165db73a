import type { CallToolResult, Tool } from '@modelcontextprotocol/server'
import { SiteToolError } from '../../runtime/index'
import type { Catalog } from './tool-catalog'
import type { SiteTool } from '../listing/site-tool'
import type { TabInfo } from './tabs'
import { CURSOR_ARG } from '../../runtime/internal'
import { errorResult } from './tool-results'
import type { PageTools } from './page-webmcp'
import { pagesPageTool, pageToolResult, readOutput, WEBMCP_PREFIX } from './webmcp-tools'

/**
 * Where the server's listing and calling meet a page's own WebMCP tools (webmcp.ts): the few
 * functions host.ts and calls.ts call, so that the rest of the server does not know of them.
 */

/**
 * The page names the tab's own tools may not be listed under: those of the site tools served on
 * the page (a page that holds our own registered tools, or a clash), and the names `prefer` tools
 * take over (their calls go to the page's tool already).
 */
function takenNames(catalog: Catalog, url: string): Set<string> {
  const served = catalog.forUrl(url)
  return new Set([
    ...served.map((t) => t.def.name),
    ...served.filter((t) => t.meta.webmcp === 'prefer').map((t) => t.ref.tool),
  ])
}

/** The tab's own tools as listed after the site tools (page mode, `site_skills_find_tools`). */
export function pageToolsOf(pages: PageTools, catalog: Catalog, tab: TabInfo | undefined): Promise<Tool[]> {
  if (!tab) return Promise.resolve([])
  return pages.listed(tab, takenNames(catalog, tab.url))
}

/** Whether a name is one of a page's tools as listed (and no site tool's). */
export const isPageCall = (catalog: Catalog, name: string) =>
  catalog.mode !== 'all' && name.startsWith(WEBMCP_PREFIX) && !catalog.byName.has(name)

/**
 * Runs a page's own tool (`webmcp__<name>`) in the tab with the call's arguments, less the
 * `cursor` the server added to a paged tool's schema: its output is budgeted and encoded as a site
 * tool's (pageToolResult).
 */
export async function callPageTool(
  pages: PageTools,
  catalog: Catalog,
  tab: TabInfo | undefined,
  listedName: string,
  args: Record<string, unknown> | undefined,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const name = listedName.slice(WEBMCP_PREFIX.length)
  try {
    const announced = tab && !takenNames(catalog, tab.url).has(name) ? await pages.announced(tab, name) : undefined
    if (!tab || !announced)
      throw new SiteToolError(
        'tool-not-found',
        `no page tool is named ${JSON.stringify(listedName)} on ${tab ? tab.url : 'no tab'}`,
      )
    const paged = pagesPageTool(announced)
    const { [CURSOR_ARG]: cursor, ...own } = args ?? {}
    const input = paged ? own : (args ?? {})
    if (paged && cursor !== undefined && typeof cursor !== 'string')
      throw new SiteToolError('invalid-cursor', 'argument "cursor" must be a string (pageInfo.cursor)')
    const output = await pages.call(tab, name, input, signal)
    return pageToolResult(
      { name: listedName, args: input, cursor: paged ? (cursor as string) : undefined, paged },
      output,
    )
  } catch (error) {
    return errorResult(error)
  }
}

/**
 * A `"webmcp": "prefer"` tool's call, sent to the page's tool of the tool's name when the tab
 * holds one (with the call's own arguments): `finish` makes its result, with the site tool's
 * result check, budget and encoding. Undefined when the page holds none (the site tool runs).
 */
export async function preferredCall(
  pages: PageTools,
  tab: TabInfo,
  tool: SiteTool,
  args: Record<string, unknown>,
  signal: AbortSignal,
  finish: (value: unknown) => CallToolResult,
): Promise<CallToolResult | undefined> {
  if (tool.meta.webmcp !== 'prefer' || !(await pages.announced(tab, tool.ref.tool))) return undefined
  try {
    const read = readOutput(await pages.call(tab, tool.ref.tool, args, signal))
    if ('failed' in read)
      throw new SiteToolError('tool-threw', `the page's tool ${tool.ref.tool} failed: ${read.failed}`, tool.ref)
    return finish(read.value)
  } catch (error) {
    return errorResult(error)
  }
}

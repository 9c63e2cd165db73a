import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import { SiteToolError } from '../../runtime/index'
import type { Catalog } from './catalog'
import type { SiteTool } from './listing'
import type { TabInfo } from './tabs'
import { errorResult, toolResult } from './tools'
import type { PageTools } from './webmcp'
import { pageToolResult, WEBMCP_PREFIX } from './webmcp-tools'

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

/** Runs a page's own tool (`webmcp__<name>`) in the tab, with the call's arguments as they are. */
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
    if (!tab || takenNames(catalog, tab.url).has(name))
      throw new SiteToolError(
        'tool-not-found',
        `no page tool is named ${JSON.stringify(listedName)} on ${tab ? tab.url : 'no tab'}`,
      )
    return pageToolResult(listedName, await pages.call(tab, name, args ?? {}, signal))
  } catch (error) {
    return errorResult(error)
  }
}

/**
 * A `"webmcp": "prefer"` tool's call, sent to the page's tool of the tool's name when the tab
 * holds one: its output goes through the site tool's result check and encoding. Undefined when
 * the page holds none (the site tool runs).
 */
export async function preferredCall(
  pages: PageTools,
  tab: TabInfo,
  tool: SiteTool,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<CallToolResult | undefined> {
  if (tool.meta.webmcp !== 'prefer' || !(await pages.holds(tab, tool.ref.tool))) return undefined
  try {
    return toolResult(tool, { value: await pages.call(tab, tool.ref.tool, args, signal), paged: false })
  } catch (error) {
    return errorResult(error)
  }
}

import type { CallToolResult, Tool } from '@modelcontextprotocol/server'
import { SiteToolError } from '../../runtime/index'
import { pageResult, pagesResults, splitCursor, urlMatchesDomains } from '../../runtime/internal'
import type { Catalog } from './tool-catalog'
import type { ClientTabs, TabView } from './clients'
import { noteLinks } from './site-context'
import { type SiteTool, TAB_ARG, takesTab } from '../listing/site-tool'
import type { TabInfo, Tabs } from './tabs'
import { type CallValue, errorResult, toolResult } from './tool-results'
import type { PageTools } from './page-webmcp'
import { callPageTool, isPageCall, pageToolsOf, preferredCall } from './webmcp-calls'

/**
 * What a Node tool gets as `ctx` under `site-skills mcp`: the tab it runs against, a CDP session
 * to it (`send(method, params)`, `on`, `off`), `fetch`, and a signal that aborts when the call is
 * cancelled or its client goes.
 */
interface McpToolContext {
  host: 'site-skills mcp'
  /** The tab's URL, and its origin (`https://example.com`). */
  url: string
  baseUrl: string
  tab: TabView
  cdp: Awaited<ReturnType<Tabs['session']>>
  fetch: typeof fetch
  signal: AbortSignal
}

/** One call of a site tool: the tool, its arguments without the server's `tab`, and where. */
export interface SiteCall {
  catalog: Catalog
  client: ClientTabs
  tabs: Tabs
  name: string
  args: Record<string, unknown> | undefined
  /** `site_skills_call`'s own `tab`, which wins over one in the arguments. */
  tab?: string
  signal: AbortSignal
  /** The pages' own WebMCP tools (webmcp.ts). */
  pages?: PageTools
}

function findTool(catalog: Catalog, name: string): SiteTool {
  const tool = catalog.byName.get(name)
  if (!tool) throw new SiteToolError('tool-not-found', `no tool is named ${JSON.stringify(name)}`)
  return tool
}

/** The tool's own arguments, and the tab handle the server's `tab` argument named. */
function splitTab(tool: SiteTool, call: SiteCall): { args: Record<string, unknown>; handle?: string } {
  const args = { ...(call.args ?? {}) }
  if (!takesTab(tool.meta)) return { args, handle: call.tab }
  const given = args[TAB_ARG]
  delete args[TAB_ARG]
  const handle = call.tab ?? given
  if (handle !== undefined && typeof handle !== 'string')
    throw new SiteToolError('invalid-args', `argument "${TAB_ARG}" must be a tab id (a string)`, {
      ...tool.ref,
      file: tool.meta.file,
    })
  return { args, ...(handle === undefined ? {} : { handle }) }
}

/** The tab a call runs in, as the browser reports it now (undefined: the client has no tab). */
export async function currentTab(client: ClientTabs, tabs: Tabs, handle?: string): Promise<TabInfo | undefined> {
  tabs.check()
  const tab = client.tab(handle)
  return tab && (await tabs.refresh(tab.id))
}

function notHere(catalog: Catalog, tool: SiteTool, tab: TabInfo | undefined): SiteToolError {
  const skill = catalog.state.api.skills.find((s) => s.id === tool.ref.siteId)!
  const page = tab ? `the tab (${tab.url})` : 'no tab'
  const scopes = [skill.urls, tool.meta.urls].filter((u) => u !== undefined)
  if (tab && scopes.length && urlMatchesDomains(tab.url, skill.domains))
    return new SiteToolError(
      'url-mismatch',
      `${page} is not on the paths this tool is for (urls: ${scopes.map((u) => u.join(' | ')).join(' and ')})`,
      { ...tool.ref, file: tool.meta.file },
    )
  return new SiteToolError(
    'domain-mismatch',
    `${page} is not a page of this skill (domains: ${skill.domains.join(', ')}); its tools apply only there`,
    { ...tool.ref, file: tool.meta.file },
  )
}

/** Resolves with the work, or rejects once `signal` aborts (after `onAbort` tried to stop the work). */
function abortable<T>(work: Promise<T>, signal: AbortSignal, onAbort: () => void): Promise<T> {
  if (signal.aborted) onAbort()
  return new Promise<T>((resolve, reject) => {
    const stop = () => {
      onAbort()
      reject(new SiteToolError('disconnected', 'the call was cancelled'))
    }
    signal.addEventListener('abort', stop, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop))
  })
}

/** What a Node tool gets as `ctx` when it runs against a tab of a client. */
export function nodeContext(
  tab: TabInfo,
  view: TabView,
  cdp: McpToolContext['cdp'],
  signal: AbortSignal,
): McpToolContext {
  let baseUrl = ''
  try {
    baseUrl = new URL(tab.url).origin
  } catch {}
  return { host: 'site-skills mcp', url: tab.url, baseUrl, tab: view, cdp, fetch: globalThis.fetch, signal }
}

/** The result as a model gets it: a page when it is over the tool's budget or a cursor was given (SPEC 12). */
function budgeted(tool: SiteTool, args: Record<string, unknown>, cursor: unknown, value: unknown): CallValue {
  if (!pagesResults(tool.meta)) return { value, paged: false }
  if (cursor !== undefined && typeof cursor !== 'string')
    throw new SiteToolError('invalid-cursor', 'argument "cursor" must be a string (pageInfo.cursor)', tool.ref)
  return pageResult(value, { ...tool.ref, args, cursor, budget: tool.meta.resultBudget })
}

/** Runs a site tool in its tab through the runtime (argument checks, domain guard, timeouts). */
export async function callSiteTool(call: SiteCall): Promise<CallToolResult> {
  const { catalog, client, tabs, signal, pages } = call
  if (pages && isPageCall(catalog, call.name))
    return callPageTool(pages, catalog, await currentTab(client, tabs, call.tab), call.name, call.args, signal)
  const tool = findTool(catalog, call.name)
  const { args: given, handle } = splitTab(tool, call)
  const { own: args, cursor } = splitCursor(tool.meta, given)
  const tab = await currentTab(client, tabs, handle)
  if (!tab || !catalog.forUrl(tab.url).includes(tool)) throw notHere(catalog, tool, tab)
  const finish = (value: unknown) => toolResult(tool, budgeted(tool, args ?? {}, cursor, value), catalog.checker)
  const preferred = pages && (await preferredCall(pages, tab, tool, args ?? {}, signal, finish))
  if (preferred) return preferred
  const { api, skills } = catalog.state
  const { siteId, tool: name } = tool.ref
  const model = skills.find((s) => s.model.id === siteId)?.model.tools.find((t) => t.name === name)
  try {
    const session = await tabs.session(tab.id)
    const work =
      tool.meta.kind === 'browser'
        ? api.runBrowserTool(siteId, name, args, session)
        : api.runTool(siteId, name, args, nodeContext(tab, client.view(tab), session, signal))
    // A browser tool's synchronous work is stopped; what it awaits ends with its tab or its timeout.
    const stop = () => void session.send('Runtime.terminateExecution').catch(() => undefined)
    return finish(await abortable(work, signal, tool.meta.kind === 'browser' ? stop : () => {}))
  } catch (error) {
    return errorResult(error, model?.kind === 'node' ? model.absPath : undefined)
  }
}

/** The site tools of a tab for `site_skills_find_tools`, with links to their skills' notes. */
export async function findTools(
  catalog: Catalog,
  client: ClientTabs,
  tabs: Tabs,
  args: Record<string, unknown> | undefined,
  pages?: PageTools,
): Promise<CallToolResult> {
  const handle = typeof args?.tab === 'string' ? args.tab : undefined
  const tab = await currentTab(client, tabs, handle)
  const words = typeof args?.query === 'string' ? args.query.toLowerCase().split(/\s+/).filter(Boolean) : []
  const holds = (def: Tool) => {
    const text = `${def.name} ${def.title ?? ''} ${def.description ?? ''}`.toLowerCase()
    return words.every((w) => text.includes(w))
  }
  const own = pages ? await pageToolsOf(pages, catalog, tab) : []
  const tools = [...catalog.forUrl(tab?.url).map((t) => t.def), ...own].filter(holds)
  const value = { tab: tab ? client.view(tab) : null, tools }
  const skills = tab ? catalog.state.api.siteSkillsForUrl(tab.url) : []
  return {
    // Tool definitions as a model knows them: JSON (no indentation).
    content: [{ type: 'text', text: JSON.stringify(value) }, ...noteLinks(skills)],
    structuredContent: value,
  }
}

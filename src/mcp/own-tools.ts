import type { CallToolResult, Tool } from '@modelcontextprotocol/server'
import { SiteToolError } from '../../runtime/index'
import { TAB_PROPERTY } from '../listing/site-tool'
import { callSiteTool, findTools } from './calls'
import type { Catalog, ToolsMode } from './tool-catalog'
import type { ClientTabs } from './clients'
import { tabState, tabsList } from './tab-state'
import type { TabInfo, Tabs } from './tabs'
import type { PageTools } from './page-webmcp'

/** What an own tool's call runs with: the skills served now, the client, the browser, the call's signal. */
interface OwnCall {
  catalog: Catalog
  client: ClientTabs
  tabs: Tabs
  pages: PageTools
  signal: AbortSignal
}

/**
 * One of the server's own tools: its definition as listed (name, schema, annotations), how its
 * arguments are checked against that schema, and what a call does. Their names never contain `__`,
 * so they cannot meet a site tool's name.
 */
export interface OwnTool {
  def: Tool
  /** Listed in the `search` mode only (every own tool may be called in every mode). */
  searchOnly?: true
  /**
   * Keywords added to a property's schema when its argument is checked (see own-args.ts); `false`:
   * not checked, the tool reads what it can (`site_skills_find_tools` takes a `tab` or `query` that
   * is not a string as absent).
   */
  check: Readonly<Record<string, Record<string, unknown>>> | false
  run: (args: Record<string, unknown>, call: OwnCall) => Promise<CallToolResult>
}

// No outputSchema: they would triple what the own tools cost in every prompt (about 1,600 tokens
// for the six instead of 700); the results say their shape in their descriptions' words and carry
// structuredContent all the same.
const tabArg = TAB_PROPERTY
const noArgs: Tool['inputSchema'] = { type: 'object', properties: {}, additionalProperties: false }

/** The state of the tab a call moved to, else of the active tab, as the browser reports it now. */
async function stateOf(call: OwnCall, moved: TabInfo | undefined): Promise<CallToolResult> {
  const here = moved ?? call.client.active()
  const now = here && (await call.tabs.refresh(here.id))
  return tabState(call.catalog, call.client, now)
}

const str = (value: unknown) => value as string | undefined

const ACTIVE_TAB: OwnTool = {
  def: {
    name: 'site_skills_active_tab',
    title: 'Active tab and its site skills',
    description:
      'Which browser tab is your active one (its URL and title), your open tabs, and the site skills that match ' +
      'the active tab.',
    inputSchema: noArgs,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  check: {},
  run: (_, call) => stateOf(call, undefined),
}

const TABS: OwnTool = {
  def: {
    name: 'site_skills_tabs',
    title: 'Tabs',
    description:
      'Your browser tabs, each with an id to pass as `tab` to the page tools, which one is active, and the site ' +
      'skills that match it. Tabs of other clients are not shown.',
    inputSchema: noArgs,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  check: {},
  run: async (_, { catalog, client }) => tabsList(catalog, client),
}

/** The own tool that makes another tab the active one (none under 2026-07-28: no tab is active there). */
export const SWITCH_TAB_NAME = 'site_skills_switch_tab'

const SWITCH_TAB: OwnTool = {
  def: {
    name: SWITCH_TAB_NAME,
    title: 'Switch tab',
    description: 'Makes a tab your active one: by its id (`tab`) or its URL (`url`).',
    inputSchema: {
      type: 'object',
      properties: { tab: tabArg, url: { type: 'string', description: 'The URL of the tab, or a part only it has.' } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  check: {},
  async run(args, call) {
    const choice = { tab: str(args.tab), url: str(args.url) }
    if (choice.tab === undefined && !choice.url)
      throw new SiteToolError('invalid-args', 'give the tab to switch to: "tab" (an id) or "url" (a part of its URL)')
    return stateOf(call, call.client.select(choice))
  },
}

const NAVIGATE: OwnTool = {
  def: {
    name: 'site_skills_navigate',
    title: 'Open a URL',
    description:
      'Opens an http(s) URL in your active tab (or in `tab`) and waits for it to load; without a tab, opens one for ' +
      'you (closed when you disconnect).',
    inputSchema: {
      type: 'object',
      properties: { url: { type: 'string', description: 'The http(s) URL to open.' }, tab: tabArg },
      required: ['url'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  },
  check: { url: { minLength: 1 } },
  run: async (args, call) => stateOf(call, await call.client.navigate(args.url as string, str(args.tab), call.signal)),
}

const FIND_TOOLS: OwnTool = {
  def: {
    name: 'site_skills_find_tools',
    title: 'Find the site tools of a page',
    description:
      'The site tools of the skills that match a tab (default: your active tab), as full tool definitions: ' +
      'run one with site_skills_call. `query` keeps those whose name or description holds each of its words.',
    inputSchema: {
      type: 'object',
      properties: { tab: tabArg, query: { type: 'string', description: 'Words to look for.' } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  searchOnly: true,
  check: false,
  run: (args, { catalog, client, tabs, pages }) => findTools(catalog, client, tabs, args, pages),
}

const CALL: OwnTool = {
  def: {
    name: 'site_skills_call',
    title: 'Call a site tool',
    description:
      'Runs a site tool found with site_skills_find_tools, in a tab (default: your active tab), with its arguments.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The tool name, as site_skills_find_tools gives it.' },
        arguments: { type: 'object', description: "The tool's arguments." },
        tab: tabArg,
      },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, openWorldHint: true },
  },
  searchOnly: true,
  check: {},
  run(args, { catalog, client, tabs, pages, signal }) {
    const call = { catalog, client, tabs, pages, signal, name: args.name as string }
    const site = { ...call, args: args.arguments as Record<string, unknown> | undefined }
    return callSiteTool(args.tab === undefined ? site : { ...site, tab: args.tab as string })
  },
}

/** The server's own tools, in the order `tools/list` shows them. */
export const OWN_TOOLS: readonly OwnTool[] = [ACTIVE_TAB, TABS, SWITCH_TAB, NAVIGATE, FIND_TOOLS, CALL]

/** The own tools `tools/list` shows in a mode (always present, whatever the page). */
export function ownTools(mode: ToolsMode): readonly Tool[] {
  return OWN_TOOLS.filter((t) => mode === 'search' || !t.searchOnly).map((t) => t.def)
}

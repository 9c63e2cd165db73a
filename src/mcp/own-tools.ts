import type { Tool } from '@modelcontextprotocol/server'
import type { ToolsMode } from './catalog'
import { TAB_PROPERTY } from './listing'

/** The server's own tools (their names never contain `__`, so they cannot meet a site tool's name). */
export const OWN = {
  activeTab: 'site_skills_active_tab',
  tabs: 'site_skills_tabs',
  switchTab: 'site_skills_switch_tab',
  navigate: 'site_skills_navigate',
  findTools: 'site_skills_find_tools',
  call: 'site_skills_call',
} as const

// No outputSchema: they would triple what the own tools cost in every prompt (about 1,600 tokens
// for the six instead of 700); the results say their shape in their descriptions' words and carry
// structuredContent all the same.
const tabArg = TAB_PROPERTY
const noArgs: Tool['inputSchema'] = { type: 'object', properties: {}, additionalProperties: false }

const ACTIVE_TAB: Tool = {
  name: OWN.activeTab,
  title: 'Active tab and its site skills',
  description:
    'Which browser tab is your active one (its URL and title), your open tabs, and the site skills that match ' +
    'the active tab.',
  inputSchema: noArgs,
  annotations: { readOnlyHint: true, openWorldHint: false },
}

const TABS: Tool = {
  name: OWN.tabs,
  title: 'Tabs',
  description:
    'Your browser tabs, each with an id to pass as `tab` to the page tools, which one is active, and the site ' +
    'skills that match it. Tabs of other clients are not shown.',
  inputSchema: noArgs,
  annotations: { readOnlyHint: true, openWorldHint: false },
}

const SWITCH_TAB: Tool = {
  name: OWN.switchTab,
  title: 'Switch tab',
  description: 'Makes a tab your active one: by its id (`tab`) or its URL (`url`).',
  inputSchema: {
    type: 'object',
    properties: { tab: tabArg, url: { type: 'string', description: 'The URL of the tab, or a part only it has.' } },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
}

const NAVIGATE: Tool = {
  name: OWN.navigate,
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
}

const FIND_TOOLS: Tool = {
  name: OWN.findTools,
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
}

const CALL: Tool = {
  name: OWN.call,
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
}

const PAGE_OWN = [ACTIVE_TAB, TABS, SWITCH_TAB, NAVIGATE]
const SEARCH_OWN = [...PAGE_OWN, FIND_TOOLS, CALL]

/** The own tools `tools/list` shows in a mode (always present, whatever the page). */
export function ownTools(mode: ToolsMode): readonly Tool[] {
  return mode === 'search' ? SEARCH_OWN : PAGE_OWN
}

/** Every own tool name, whichever mode lists it (each may be called in every mode). */
export const OWN_NAMES: ReadonlySet<string> = new Set(Object.values(OWN))

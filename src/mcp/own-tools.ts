import type { Tool } from '@modelcontextprotocol/sdk/types.js'

/** The server's own tools (their names never contain `__`, so they cannot meet a site tool's name). */
export const OWN = {
  activeTab: 'site_skills_active_tab',
  switchTab: 'site_skills_switch_tab',
  navigate: 'site_skills_navigate',
} as const

const tab = {
  type: ['object', 'null'],
  properties: { id: { type: 'string' }, url: { type: 'string' }, title: { type: 'string' } },
  required: ['id', 'url', 'title'],
}

const stateSchema = {
  type: 'object',
  properties: {
    tab,
    tabs: { type: 'array', items: tab },
    skills: {
      type: 'array',
      description: 'The skills that match the active tab, with the names of their tools.',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          tools: { type: 'array', items: { type: 'string' } },
        },
        required: ['id', 'name', 'tools'],
      },
    },
  },
  required: ['tab', 'tabs', 'skills'],
} as Tool['outputSchema']

const urlArg = (description: string): Tool['inputSchema'] => ({
  type: 'object',
  properties: { url: { type: 'string', description } },
  required: ['url'],
  additionalProperties: false,
})

/** The own tools as `tools/list` shows them (always present, whatever the page). */
export const OWN_TOOLS: Tool[] = [
  {
    name: OWN.activeTab,
    title: 'Active tab and its site skills',
    description:
      'Which browser tab is active (its URL and title), the open tabs, and the site skills that match the ' +
      'active tab. The site tools offered are those of these skills.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: stateSchema,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: OWN.switchTab,
    title: 'Switch tab',
    description: 'Makes the first open tab whose URL contains the given text (or whose id it is) the active tab.',
    inputSchema: urlArg('A substring of the URL of the tab to make active, or its target id.'),
    outputSchema: stateSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: OWN.navigate,
    title: 'Open a URL',
    description: 'Opens a URL in the active tab and waits for it to load; the site tools then follow the new page.',
    inputSchema: urlArg('The http(s) URL to open.'),
    outputSchema: stateSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  },
]

import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import { SiteToolError } from '../../runtime/index'
import { type SiteContext, createContext } from './context'
import { OWN, OWN_TOOLS } from './own-tools'
import type { LiveSkills, LiveState } from './skills'
import type { TabInfo, Tabs } from './tabs'
import { allToolNames, errorResult, type SiteTool, siteTools, toolResult } from './tools'

/** What changed for clients since the last notice. */
interface Changes {
  tools: boolean
  resources: boolean
}

/**
 * What the server offers, shared by every client connection: tools that follow the active tab,
 * notes as resources, the learned-context prompt.
 */
export interface McpHost {
  listTools: (at?: string) => Promise<Tool[]>
  callTool: (name: string, args: Record<string, unknown> | undefined) => Promise<CallToolResult>
  /** Notes as resources and the learned-context prompt. */
  context: SiteContext
  /** Called when the list of tools or resources changed (navigation, another tab, an edited skill). */
  onChange: (listener: (changes: Changes) => void) => void
  close: () => Promise<void>
}

/**
 * What a Node tool gets as `ctx` under `site-skills mcp`: the active tab, a CDP session to it
 * (`send(method, params)`, `on`, `off`), and `fetch`.
 */
interface McpToolContext {
  host: 'site-skills mcp'
  /** The active tab's URL, and its origin (`https://example.com`). */
  url: string
  baseUrl: string
  tab: TabInfo
  cdp: Awaited<ReturnType<Tabs['session']>>
  fetch: typeof fetch
}

function tabState(state: LiveState, tabs: Tabs) {
  const tab = tabs.active()
  const url = tab?.url
  const skills = (url ? state.api.siteSkillsForUrl(url) : []).map((s) => ({
    id: s.id,
    name: s.name,
    tools: siteTools(state, url)
      .filter((t) => t.ref.siteId === s.id)
      .map((t) => t.def.name),
  }))
  return { tab: tab ?? null, tabs: tabs.list(), skills }
}

function stateResult(value: ReturnType<typeof tabState>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value }
}

function urlArg(args: Record<string, unknown> | undefined): string {
  const url = args?.url
  if (typeof url !== 'string' || !url) throw new SiteToolError('invalid-args', 'argument "url" must be a string')
  return url
}

export function createHost(skills: LiveSkills, tabs: Tabs): McpHost {
  const listeners: ((changes: Changes) => void)[] = []
  let last: { tools: string; resources: string } | undefined

  async function listTools(at = tabs.active()?.url): Promise<Tool[]> {
    const state = await skills.current()
    return [...OWN_TOOLS, ...siteTools(state, at).map((t) => t.def)]
  }

  const context = createContext({ skills, url: () => tabs.active()?.url })

  /** Compares the lists for the tab as it is now with the last ones (checks run one after another). */
  async function check(at: string | undefined): Promise<void> {
    const tools = JSON.stringify(await listTools(at))
    const resources = JSON.stringify(await context.listResources(at ?? null))
    // The first look is the baseline: a client that connects lists what is there.
    const changes = { tools: !!last && tools !== last.tools, resources: !!last && resources !== last.resources }
    last = { tools, resources }
    if (changes.tools || changes.resources) for (const listener of listeners) listener(changes)
  }
  let queue = Promise.resolve()
  const recheck = () => {
    const at = tabs.active()?.url
    queue = queue.then(() => check(at)).catch(() => undefined)
  }
  tabs.onChange(recheck)
  skills.onChange(recheck)
  recheck()

  async function ownTool(name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    if (name === OWN.switchTab) {
      const part = urlArg(args)
      if (!tabs.select(part)) throw new SiteToolError('target-not-found', `no open tab matches ${JSON.stringify(part)}`)
    } else if (name === OWN.navigate) await tabs.navigate(urlArg(args))
    await tabs.refresh()
    return stateResult(tabState(await skills.current(), tabs))
  }

  /** The tool of the active tab's skills, or why it cannot run here (fail closed). */
  function findTool(state: LiveState, url: string | undefined, name: string): SiteTool {
    const found = siteTools(state, url).find((t) => t.def.name === name)
    if (found) return found
    const ref = allToolNames(state).get(name)
    if (!ref) throw new SiteToolError('tool-not-found', `no tool is named ${JSON.stringify(name)}`)
    const skill = state.api.skills.find((s) => s.id === ref.siteId)!
    const page = url ? `the active tab (${url})` : 'no tab'
    throw new SiteToolError(
      'domain-mismatch',
      `${page} is not a page of this skill (domains: ${skill.domains.join(', ')}); its tools apply only there`,
      { siteId: ref.siteId, tool: ref.tool, file: skill.tools[ref.tool]!.file },
    )
  }

  async function siteCall(name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    const tab = await tabs.refresh()
    const state = await skills.current()
    const tool = findTool(state, tab?.url, name)
    const { siteId, tool: toolName } = tool.ref
    const absPath = state.skills.find((s) => s.model.id === siteId)?.model.tools.find((t) => t.name === toolName)
    try {
      const session = await tabs.session(tab!.id)
      const value =
        tool.meta.kind === 'browser'
          ? await state.api.runBrowserTool(siteId, toolName, args, session)
          : await state.api.runTool(siteId, toolName, args, nodeContext(tab!, session))
      return toolResult(tool, value)
    } catch (error) {
      return errorResult(error, absPath?.kind === 'node' ? absPath.absPath : undefined)
    }
  }

  return {
    listTools: () => listTools(),
    async callTool(name, args) {
      try {
        if (OWN_TOOLS.some((t) => t.name === name)) return await ownTool(name, args)
        return await siteCall(name, args)
      } catch (error) {
        return errorResult(error)
      }
    },
    context,
    onChange: (listener) => void listeners.push(listener),
    async close() {
      skills.close()
      await tabs.close()
    },
  }
}

function nodeContext(tab: TabInfo, cdp: McpToolContext['cdp']): McpToolContext {
  let baseUrl = ''
  try {
    baseUrl = new URL(tab.url).origin
  } catch {}
  return { host: 'site-skills mcp', url: tab.url, baseUrl, tab, cdp, fetch: globalThis.fetch }
}

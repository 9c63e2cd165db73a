import {
  type CallToolResult,
  type GetPromptResult,
  type Prompt,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type Resource,
  type Tool,
} from '@modelcontextprotocol/server'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv'
import type { Tokenizer } from '../tokens/tokenizer'
import { DEBUG_RE } from '../ids'
import { callSiteTool, currentTab } from './calls'
import { type Catalog, createCatalogs, type ToolsMode } from './tool-catalog'
import type { AgentSkills } from './agent-skills/resources'
import { AUTHOR_NAMES, type AuthoringFactory, readOnlyResult } from './author/index'
import { type ClientOptions, createClients } from './clients'
import { createContext } from './site-context'
import { type ArgsCheck, argsCheck } from './own-args'
import { OWN_TOOLS, type OwnTool, SWITCH_TAB_NAME, ownTools } from './own-tools'
import type { WatchedSkills } from './watched-skills'
import { tablesLine } from './tables'
import type { TabInfo, Tabs } from './tabs'
import { createWatch } from './watch'
import { errorResult } from './tool-results'
import { createPageTools } from './page-webmcp'
import { pageToolsOf } from './webmcp-calls'

/**
 * The most calls one client has running at once: each holds a promise, an abort controller and the
 * SDK's entries for its request until it ends. Another is refused with a JSON-RPC error.
 */
const MAX_CALLS = 32

/** What changed for a client since the last notice. */
interface Changes {
  tools: boolean
  resources: boolean
}

/** One client of the server (an MCP session today): its own tab, the shared skills. */
export interface McpClient {
  /** The whole list (`tools/list` pages it). */
  listTools: () => Promise<Tool[]>
  callTool: (name: string, args: Record<string, unknown> | undefined, signal?: AbortSignal) => Promise<CallToolResult>
  listResources: () => Promise<Resource[]>
  readResource: (uri: string) => Promise<ReadResourceResult>
  prompts: Prompt[]
  getPrompt: (name: string, args?: Record<string, string>) => Promise<GetPromptResult>
  /** Calls `listener` when this client's list of tools or resources changed; returns what stops it. */
  onChange: (listener: (changes: Changes) => void) => () => void
  /** The client is gone: its calls are cancelled, the tabs opened for it closed. */
  close: () => Promise<void>
}

/** What the server offers, shared by every client: the skills, the browser, the mode. */
export interface McpHost {
  connect: (options: ClientOptions) => McpClient
  close: () => Promise<void>
}

export interface HostOptions {
  /** `--tools`; absent: the default (`all` within `budget` tokens, else `search`). */
  mode?: ToolsMode
  budget: number
  tokenizer: () => Promise<Tokenizer>
  log: (line: string) => void
  /** `--allow-write DIR`: the authoring tools (absent: read-only, none listed, calls refused). */
  authoring?: AuthoringFactory
  /** The skills as Agent Skills (`skill://` resources). */
  agentSkills?: AgentSkills
}

/**
 * The tools a client lists: the mode's own tools, the authoring tools (with `--allow-write`), then
 * the site tools of every skill or of its tab.
 */
function listedFor(catalog: Catalog, tab: TabInfo | undefined, authoring: readonly Tool[], stateless: boolean): Tool[] {
  // Under 2026-07-28 no tab is active: there is nothing to switch.
  const mine = ownTools(catalog.mode).filter((t) => !stateless || t.name !== SWITCH_TAB_NAME)
  const own = [...mine, ...authoring]
  if (catalog.mode === 'search') return [...own]
  const site = catalog.mode === 'all' ? catalog.tools : catalog.forUrl(tab?.url)
  return [...own, ...site.map((t) => t.def)]
}

const OWN_BY_NAME: ReadonlyMap<string, OwnTool> = new Map(OWN_TOOLS.map((t) => [t.def.name, t]))

/** Each own tool's argument check, compiled on its first call (one Ajv per server). */
function ownArgsChecks(): (tool: OwnTool) => ArgsCheck | undefined {
  const validator = new AjvJsonSchemaValidator()
  const checks = new Map<OwnTool, ArgsCheck>()
  return (tool) => {
    if (tool.check === false) return undefined
    let check = checks.get(tool)
    if (!check) {
      check = argsCheck(tool.def.inputSchema, tool.check, validator)
      checks.set(tool, check)
    }
    return check
  }
}

export function createHost(skills: WatchedSkills, tabs: Tabs, options: HostOptions): McpHost {
  const clients = createClients(tabs)
  const context = createContext(options.agentSkills ? { skills, agentSkills: options.agentSkills } : { skills })
  const catalogs = createCatalogs({
    mode: options.mode,
    budget: options.budget,
    tokenizer: options.tokenizer,
    ownTools: ownTools('all'),
  })
  const current = async () => catalogs(await skills.current())
  const open = new Set<() => void>()
  const debug = DEBUG_RE.test(process.env.DEBUG ?? '')
  const sayTables = async () => {
    const sizes = { clients: open.size, ...tabs.stats(), ...clients.stats(), kept: skills.kept() }
    options.log(tablesLine({ ...sizes, schemas: (await current()).checker.size }))
  }
  const authoring = options.authoring?.({
    skills,
    tabs,
    async servedName(siteId, tool) {
      const catalog = await current()
      return catalog.tools.find((t) => t.ref.siteId === siteId && t.ref.tool === tool)?.def.name
    },
  })
  const authoringTools = authoring?.tools ?? []
  const pages = createPageTools(tabs)
  const checkOf = ownArgsChecks()
  const recheckAll = () => {
    for (const recheck of open) recheck()
  }
  skills.onChange(recheckAll)
  pages.onChange(recheckAll)
  let said = ''
  const sayMode = (catalog: Catalog) => {
    if (catalog.tokens === undefined) return
    const line =
      `serving ${catalog.tools.length} site tools as --tools ${catalog.mode}: the all list is ` +
      `${catalog.tokens.toLocaleString('en-US')} tokens, the budget ${options.budget.toLocaleString('en-US')}`
    if (line === said) return
    said = line
    options.log(line)
  }

  function connect(clientOptions: ClientOptions): McpClient {
    const client = clients.connect(clientOptions)
    const listeners: ((changes: Changes) => void)[] = []
    const aborts = new Set<AbortController>()
    const send = (changes: Changes) => {
      for (const listener of listeners) listener(changes)
    }
    const listTools = async () => {
      // The tab is read before the skills are awaited: a list is of the page at the time it was
      // asked for, so that a tab that moves while a slow first compile runs is a change, not the baseline.
      const tab = currentTab(client, tabs).catch(() => undefined)
      const catalog = await current()
      sayMode(catalog)
      const page = catalog.mode === 'page' ? await tab : undefined
      const listed = listedFor(catalog, page, authoringTools, clientOptions.stateless === true)
      // The tab's own WebMCP tools after the site tools (page mode only: no tab, none).
      return [...listed, ...(await pageToolsOf(pages, catalog, page))]
    }
    const listResources = async () => {
      const url = client.active()?.url
      const catalog = await current()
      const every = catalog.mode !== 'page'
      return context.listResources(every ? null : url, every)
    }
    const toolsWatch = createWatch(
      async () => JSON.stringify(await listTools()),
      () => send({ tools: true, resources: false }),
    )
    const resourcesWatch = createWatch(
      async () => JSON.stringify(await listResources()),
      () => send({ tools: false, resources: true }),
    )
    const recheck = () => {
      toolsWatch()
      resourcesWatch()
    }
    open.add(recheck)
    // Only the `page` mode's lists follow the client's tab.
    client.onChange(
      () =>
        void current().then(
          (c) => c.mode === 'page' && recheck(),
          () => undefined,
        ),
    )
    recheck()

    async function ownCall(tool: OwnTool, args: Record<string, unknown> | undefined, signal: AbortSignal) {
      const catalog = await current()
      const given = args ?? {}
      checkOf(tool)?.(given)
      return tool.run(given, { catalog, client, tabs, pages, signal })
    }

    return {
      listTools,
      async callTool(name, args, signal) {
        if (aborts.size >= MAX_CALLS)
          throw new ProtocolError(
            ProtocolErrorCode.InvalidRequest,
            `too many calls at once: ${aborts.size} of yours are running, the most this server runs for one ` +
              `client; wait for one to end`,
          )
        const abort = new AbortController()
        const cancel = () => abort.abort()
        signal?.addEventListener('abort', cancel, { once: true })
        aborts.add(abort)
        try {
          const own = OWN_BY_NAME.get(name)
          if (own) return await ownCall(own, args, abort.signal)
          if (AUTHOR_NAMES.has(name)) {
            if (!authoring) return readOnlyResult(name)
            const result = await authoring.call(name, args, { client, signal: abort.signal })
            // What was written is served at once: every client's lists are looked at again now.
            for (const recheck of open) recheck()
            return result
          }
          return await callSiteTool({ catalog: await current(), client, tabs, pages, name, args, signal: abort.signal })
        } catch (error) {
          return errorResult(error)
        } finally {
          aborts.delete(abort)
          signal?.removeEventListener('abort', cancel)
          if (debug) sayTables().catch(() => undefined)
        }
      },
      listResources,
      readResource: (uri) => context.readResource(uri),
      prompts: context.prompts,
      async getPrompt(name, args) {
        const tab = await currentTab(client, tabs, args?.tab)
        return context.getPrompt(name, tab?.url)
      },
      onChange(listener) {
        listeners.push(listener)
        return () => {
          const at = listeners.indexOf(listener)
          if (at >= 0) listeners.splice(at, 1)
        }
      },
      async close() {
        open.delete(recheck)
        listeners.length = 0
        for (const abort of aborts) abort.abort()
        await client.dispose()
      },
    }
  }

  return {
    connect,
    async close() {
      await authoring?.close()
      skills.close()
      await tabs.close()
    },
  }
}

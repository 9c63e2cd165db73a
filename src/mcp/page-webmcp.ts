import type { Tool } from '@modelcontextprotocol/server'
import { SiteToolError } from '../../runtime/index'
import { type CdpClient, command, listen } from '../../runtime/internal'
import type { TabInfo, Tabs } from './tabs'
import { type AnnouncedTool, listableName, listedPageTool, PAGE_TOOL_LIMITS, WEBMCP_PREFIX } from './webmcp-tools'

/**
 * A page's own WebMCP tools, as `site-skills mcp` offers them beside the site tools (page and search
 * modes): each tab's top frame is followed over CDP (`WebMCP.enable`, then `toolsAdded` and
 * `toolsRemoved`; a navigation of the frame forgets its tools, since Chromium 150 sends no
 * `toolsRemoved` then) from the first time a client looks at the tab, and a call goes to the page
 * with `WebMCP.invokeTool`. A page decides what it announces: the table keeps at most
 * PAGE_TOOL_LIMITS.tools tools per tab, and the listing bounds each one (webmcp-tools.ts).
 */
export interface PageTools {
  /** The tab's own tools now, as listed, by name (less those named in `except`); starts following the tab. */
  listed: (tab: TabInfo, except?: ReadonlySet<string>) => Promise<Tool[]>
  /** The tool of that (page) name the tab's top frame holds, as announced. */
  announced: (tab: TabInfo, name: string) => Promise<AnnouncedTool | undefined>
  /** Calls a page tool by its page name; resolves with its output, or throws a SiteToolError. */
  call: (tab: TabInfo, name: string, input: Record<string, unknown>, signal: AbortSignal) => Promise<unknown>
  /** Called when a followed tab's tools change. */
  onChange: (listener: () => void) => () => void
}

/** The time a page tool has to answer, as a browser tool's default. */
const CALL_TIMEOUT_MS = 30_000
/** Answers kept that came before their call was waited for (the answer can beat `invokeTool`'s reply). */
const EARLY_KEPT = 16

type Responded = { invocationId: string; status: string; output?: unknown; errorText?: string; exception?: unknown }

/** One followed tab: its top frame, its tools there, the calls waiting for their answer. */
interface Followed {
  session: CdpClient
  frameId: string
  tools: Map<string, AnnouncedTool>
  waiting: Map<string, (event: Responded) => void>
  early: Map<string, Responded>
}

function follow(session: CdpClient, frameId: string, changed: () => void): Followed {
  const state: Followed = { session, frameId, tools: new Map(), waiting: new Map(), early: new Map() }
  listen(session, 'WebMCP.toolsAdded', ({ tools }) => {
    for (const tool of tools) {
      if (tool.frameId !== frameId || !listableName(tool.name)) continue
      if (state.tools.size < PAGE_TOOL_LIMITS.tools || state.tools.has(tool.name)) state.tools.set(tool.name, tool)
    }
    changed()
  })
  listen(session, 'WebMCP.toolsRemoved', ({ tools }) => {
    for (const tool of tools) if (tool.frameId === frameId) state.tools.delete(tool.name)
    changed()
  })
  listen(session, 'Page.frameNavigated', ({ frame }) => {
    if (frame.id !== frameId || !state.tools.size) return
    state.tools.clear()
    changed()
  })
  listen(session, 'WebMCP.toolResponded', (event) => {
    const resolve = state.waiting.get(event.invocationId)
    if (resolve) return resolve(event)
    if (state.early.size >= EARLY_KEPT) state.early.delete(state.early.keys().next().value!)
    state.early.set(event.invocationId, event)
  })
  return state
}

/** Waits for a call's answer; on timeout or abort the invocation is cancelled. */
function answer(state: Followed, invocationId: string, signal: AbortSignal): Promise<Responded> {
  const early = state.early.get(invocationId)
  state.early.delete(invocationId)
  if (early) return Promise.resolve(early)
  return new Promise((resolve, reject) => {
    const stop = (error: SiteToolError) => {
      done()
      command(state.session, 'WebMCP.cancelInvocation', { invocationId }).catch(() => undefined)
      reject(error)
    }
    const timer = setTimeout(
      () => stop(new SiteToolError('timeout', `the page tool did not answer within ${CALL_TIMEOUT_MS} ms`)),
      CALL_TIMEOUT_MS,
    )
    const aborted = () => stop(new SiteToolError('disconnected', 'the call was cancelled'))
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', aborted)
      state.waiting.delete(invocationId)
    }
    signal.addEventListener('abort', aborted, { once: true })
    state.waiting.set(invocationId, (event) => {
      done()
      resolve(event)
    })
  })
}

/** A failed answer as a SiteToolError: the page's error text, or its exception's first line. */
function failure(name: string, event: Responded): SiteToolError {
  if (event.status === 'Canceled') return new SiteToolError('disconnected', `the page cancelled ${name}`)
  const exception = (event.exception as { description?: string; value?: unknown } | undefined) ?? {}
  const text = event.errorText || exception.description?.split('\n')[0] || String(exception.value ?? 'no reason given')
  return new SiteToolError('tool-threw', `the page's tool ${name} failed: ${text}`)
}

export function createPageTools(tabs: Tabs): PageTools {
  const followed = new Map<string, Promise<Followed>>()
  const listeners = new Set<() => void>()
  const changed = () => {
    for (const listener of listeners) listener()
  }
  tabs.onChange((targetId, event) => {
    if (event === 'closed') followed.delete(targetId)
  })

  function stateOf(tab: TabInfo): Promise<Followed> {
    let state = followed.get(tab.id)
    if (!state) {
      state = (async () => {
        const session = await tabs.session(tab.id)
        const { frameTree } = await command(session, 'Page.getFrameTree')
        const made = follow(session, frameTree.frame.id, changed)
        await command(session, 'Page.enable')
        await command(session, 'WebMCP.enable')
        return made
      })()
      // A tab without WebMCP (or gone) is tried again the next time it is looked at.
      state.catch(() => followed.delete(tab.id))
      followed.set(tab.id, state)
    }
    return state
  }

  const toolsOf = (tab: TabInfo) =>
    stateOf(tab).then(
      (s) => s.tools,
      () => new Map<string, AnnouncedTool>(),
    )

  return {
    async listed(tab, except = new Set()) {
      const tools = [...(await toolsOf(tab)).values()].filter((t) => !except.has(t.name))
      return tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(listedPageTool)
    },
    announced: async (tab, name) => (await toolsOf(tab)).get(name),
    async call(tab, name, input, signal) {
      const state = await stateOf(tab)
      if (!state.tools.has(name))
        throw new SiteToolError('tool-not-found', `the tab holds no page tool ${WEBMCP_PREFIX}${name} now`)
      const { invocationId } = await command(state.session, 'WebMCP.invokeTool', {
        frameId: state.frameId,
        toolName: name,
        input,
      })
      const event = await answer(state, invocationId, signal)
      if (event.status !== 'Completed') throw failure(name, event)
      return event.output
    },
    onChange(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}

/**
 * `exposeWebMcpTools`: registers skills' browser tools as WebMCP tools in a CDP target's pages.
 * The script (webmcp-script.ts) runs in an isolated world of every new document of the target
 * before the page's own scripts (`Page.addScriptToEvaluateOnNewDocument`), and at once in the
 * current one; it follows the page's URL on its own. Node only listens: to the page code's reports
 * (no WebMCP, a name the page holds) and to the guard's signals, to stop a tool whose synchronous
 * part outlives its timeout (`Runtime.terminateExecution`, as runBrowserTool). Loaded with the
 * first call (expose.ts).
 */
import type { BrowserTarget, CdpSendable } from './cdp'
import type { BrowserToolCode, SkillMeta } from './skill-data'
import type { ValidateReturns } from './results'
import { command, heldSession, isSendable, listen } from './cdp'
import { type SiteToolError, siteToolError } from './errors'
import { LOG_PREFIX } from './text'
import { type WebMcpSkill, type WebMcpToolRef, webMcpNames, webMcpScript } from './webmcp-script'

export type { WebMcpToolRef } from './webmcp-script'

/** How `exposeWebMcpTools` registers. */
export interface WebMcpOptions {
  /** The skills: the default export of `virtual:site-skills`, or a registry of `createSiteSkills`. */
  siteSkills: { skills: readonly SkillMeta[]; browserToolSource: (siteId: string, tool: string) => Promise<string> }
  /** Only these skills (ids). @default every skill with browser tools */
  skills?: readonly string[]
  /** What a result that does not fit its `returns` does (see ValidateReturns). @default 'warn' */
  validateReturns?: ValidateReturns
  /**
   * Called with what goes wrong in a later page: `webmcp-unavailable` (a page in scope without
   * WebMCP) and `webmcp-conflict` (the page held a tool of the same name first). @default a warning
   */
  onError?: (error: SiteToolError) => void
}

/** What `exposeWebMcpTools` resolves to. */
export interface WebMcpHandle {
  /** Every tool registered where its skill's scope matches: its WebMCP name, site and tool. */
  readonly tools: readonly WebMcpToolRef[]
  /** Unregisters the tools from the current page, stops registering them in new ones, stops listening. */
  close(): Promise<void>
}

/** The world the tools live in: one of its own (not runBrowserTool's), made again in every document. */
const WORLD = 'site-skills-webmcp'

const noop = () => {}
/** Calls watched at once, at most (each ends with its `d` signal or its document). */
const MAX_RUNS = 1024
const token = () => Math.random().toString(36).slice(2, 12)

/** The session of a target, and what closes a connection opened here. */
async function sessionOf(target: BrowserTarget): Promise<{ session: CdpSendable; close: () => Promise<unknown> }> {
  const held = isSendable(target) ? target : heldSession(target)
  if (held) return { session: held, close: async () => {} }
  const opened = await (await import('./connect')).openTarget(target)
  return { session: opened.session, close: async () => opened.close?.() }
}

/** A browser tool's compiled code: its source map too when the registry hands it (see exposeWebMcpTools). */
export type ToolCode = (siteId: string, tool: string) => Promise<BrowserToolCode>

/** The skills chosen, with their browser tools' code. */
async function chosenSkills(options: WebMcpOptions, code: ToolCode): Promise<WebMcpSkill[]> {
  const { skills } = options.siteSkills
  const known = skills.map((s) => s.id)
  for (const id of options.skills ?? [])
    if (!known.includes(id)) throw siteToolError('skill-not-found', { known }, { siteId: id })
  const chosen = skills.filter((s) => !options.skills || options.skills.includes(s.id))
  return Promise.all(
    chosen.map(async (skill) => {
      const browser = Object.keys(skill.tools).filter((tool) => skill.tools[tool]!.kind === 'browser')
      const sources = await Promise.all(browser.map((tool) => code(skill.id, tool)))
      return { skill, sources: new Map(browser.map((tool, i) => [tool, sources[i]!])) }
    }),
  )
}

/** The context of the world in the target's current top document (the same one each time it is asked). */
async function worldContext(session: CdpSendable): Promise<number> {
  const { frameTree } = await command(session, 'Page.getFrameTree')
  const world = await command(session, 'Page.createIsolatedWorld', {
    frameId: frameTree.frame.id,
    worldName: WORLD,
    grantUniveralAccess: false,
  })
  return world.executionContextId
}

/** Throws `webmcp-unavailable` when the current page could hold WebMCP tools and has no `document.modelContext`. */
async function checkAvailable(session: CdpSendable, contextId: number): Promise<void> {
  const { result } = await command(session, 'Runtime.evaluate', {
    expression: '[isSecureContext && typeof document.modelContext !== "object", location.href]',
    contextId,
    returnByValue: true,
  })
  const [missing, url] = result.value as [boolean, string]
  if (missing) throw siteToolError('webmcp-unavailable', { url })
}

/**
 * Follows the page code's reports and the guard's signals (`s`/`y` + id, then `d` + id when the
 * call is over; an id ends in its timeout): a tool still in its synchronous part at its deadline is
 * terminated. A document that goes takes its runs with it.
 */
function watch(session: CdpSendable, binding: string, onError: (error: SiteToolError) => void): () => void {
  const runs = new Map<string, ReturnType<typeof setTimeout>>()
  const end = (key: string) => {
    clearTimeout(runs.get(key))
    runs.delete(key)
  }
  const stops = [
    listen(session, 'Runtime.bindingCalled', ({ name, payload, executionContextId }) => {
      if (name !== binding) return
      const [kind, rest] = [payload[0], payload.slice(1)]
      const key = `${executionContextId}:${rest}`
      const ms = Number(rest.split('.')[1])
      // A tool's own code may call the binding too: a signal that is not ours is dropped.
      if (kind === 's' && Number.isFinite(ms) && runs.size < MAX_RUNS) {
        const stop = () => runs.has(key) && void command(session, 'Runtime.terminateExecution').catch(noop)
        runs.set(key, setTimeout(stop, ms))
      } else if (kind === 'y' || kind === 'd') end(key)
      else if (kind === 'u') onError(siteToolError('webmcp-unavailable', { url: rest }))
      else if (kind === 'c') conflict(rest, onError)
    }),
    listen(session, 'Runtime.executionContextDestroyed', ({ executionContextId }) => {
      for (const key of runs.keys()) if (key.startsWith(`${executionContextId}:`)) end(key)
    }),
    listen(session, 'Runtime.executionContextsCleared', () => {
      for (const key of runs.keys()) end(key)
    }),
  ]
  return () => {
    for (const stop of stops) stop()
    for (const key of runs.keys()) end(key)
  }
}

/** A report of a name the page held first: `[name, reason]` as JSON. */
function conflict(text: string, onError: (error: SiteToolError) => void): void {
  let report: unknown
  try {
    report = JSON.parse(text)
  } catch {
    return
  }
  if (Array.isArray(report) && report.length === 2)
    onError(siteToolError('webmcp-conflict', { name: String(report[0]), reason: String(report[1]) }))
}

const warn = (error: SiteToolError) => console.warn(`${LOG_PREFIX} ${error.message}`)

/**
 * Registers the browser tools of `options.siteSkills` as WebMCP tools in the target's page and in
 * every page it navigates to, each where its skill's domains and `urls` (and the tool's) match; a
 * page that leaves the scope loses them. Fails with `webmcp-unavailable` when the current page has
 * no WebMCP (Chromium needs `--enable-features=WebMCP`).
 */
export async function exposeWebMcpTools(
  target: BrowserTarget,
  options: WebMcpOptions,
  code: ToolCode = async (siteId, tool) => ({ source: await options.siteSkills.browserToolSource(siteId, tool) }),
): Promise<WebMcpHandle> {
  const skills = await chosenSkills(options, code)
  const binding = `__siteSkillsWebMcp${token()}`
  const handle = `__siteSkillsWebMcpClose${token()}`
  const names = webMcpNames(options.siteSkills.skills)
  const { script, tools } = webMcpScript(skills, names, { validateReturns: options.validateReturns, binding, handle })
  const { session, close } = await sessionOf(target)
  let unwatch = noop
  try {
    await checkAvailable(session, await worldContext(session))
    unwatch = watch(session, binding, options.onError ?? warn)
    await command(session, 'Runtime.addBinding', { name: binding, executionContextName: WORLD })
    await command(session, 'Runtime.enable')
    await command(session, 'Page.enable')
    const { identifier } = await command(session, 'Page.addScriptToEvaluateOnNewDocument', {
      source: script,
      worldName: WORLD,
      runImmediately: true,
    })
    let closing: Promise<void> | undefined
    const shut = async () => {
      await command(session, 'Page.removeScriptToEvaluateOnNewDocument', { identifier }).catch(noop)
      const contextId = await worldContext(session).catch(() => undefined)
      const expression = `globalThis[${JSON.stringify(handle)}]?.()`
      if (contextId !== undefined) await command(session, 'Runtime.evaluate', { expression, contextId }).catch(noop)
      await command(session, 'Runtime.removeBinding', { name: binding }).catch(noop)
      unwatch()
      await close().catch(noop)
    }
    return { tools, close: () => (closing ??= shut()) }
  } catch (error) {
    unwatch()
    await close().catch(noop)
    throw error
  }
}

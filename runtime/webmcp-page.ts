/**
 * The in-page half of WebMCP (see webmcp-script.ts): run in an isolated world (a world of its own
 * that `exposeWebMcpTools` creates over CDP, or the content scripts' world of the exported
 * extension), it registers the in-scope browser tools with `document.modelContext.registerTool`,
 * keeps the registrations in step with the page's URL, and runs each call as `runBrowserTool` does:
 * the argument checks, the page's path against `urls`, then DOMAIN_GUARD (host and path in the step
 * that calls the tool), the timeout, the result check, and the result as compact text within the
 * tool's budget, paged with a cursor past it (webmcp-result.ts), as over `site-skills mcp`.
 *
 * Not imported by the runtime: `npm run gen:webmcp-page` bundles it with what it imports into
 * webmcp-page.generated.ts, a string, so no bundler of a user's build can change it. An isolated
 * world holds its own globals, so nothing the page does to its own (prototypes, `JSON`,
 * `document.modelContext`'s members) reaches this code; what it hands to the page is frozen.
 */
import { copyArgs } from './args'
import { errorMessage } from './error-catalog'
import { isSiteToolError, messageOf, type SiteToolError, siteToolError, useMessages } from './errors'
import { createResultCheck } from './results'
import { argsProblem, isValueSchema, resultProblem } from './value-problems'
import { cursorOf, resultText } from './webmcp-result'
import type { PageConfig, PageSkill, PageTool } from './webmcp-script'
import { throwSite } from './webmcp-where'

/** DOMAIN_GUARD (page-code.ts): `(args, global, tool)`. */
type Guard = (a: unknown[], g: object, t: (args: unknown) => unknown) => unknown
type ToolFunction = (args: unknown) => unknown

interface ModelContext {
  registerTool(tool: object, options: { signal: AbortSignal }): unknown
}

/** A registration: the tool, its function and its compiled path patterns; `controller` while registered. */
interface Entry {
  skill: PageSkill
  tool: PageTool
  fn: ToolFunction
  patterns?: URLPattern[][]
  controller?: AbortController
}

const DEFAULT_TIMEOUT_MS = 30_000

/** Freezes a value the page could reach and everything in it. */
function deepFreeze<T>(value: T): T {
  if (value && (typeof value === 'object' || typeof value === 'function') && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key])
  }
  return value
}

/** The path `urls` are matched against: a `blob:` document's is its inner URL's (as urls.ts). */
function pagePath(): string | undefined {
  if (location.protocol !== 'blob:') return location.pathname
  try {
    return new URL(location.pathname).pathname
  } catch {
    return undefined
  }
}

/** Whether every list of `urls` has a pattern the path matches (the page's own URLPattern is not used). */
function pathAllowed(entry: Entry, path: string | undefined): boolean {
  if (!entry.tool.urls.length) return true
  if (path === undefined) return false
  try {
    entry.patterns ??= entry.tool.urls.map((list) => list.map((p) => new URLPattern({ pathname: p })))
  } catch {
    return false
  }
  return entry.patterns.every((list) => list.some((p) => p.test({ pathname: path })))
}

/** A failure as WebMCP hosts show one: an MCP error result (a thrown error reaches them as "UnknownError"). */
function errorText(error: unknown): string {
  const text = isSiteToolError(error) ? `${error.code}: ${error.message}` : `internal-error: ${messageOf(error)}`
  return JSON.stringify({ isError: true, content: [{ type: 'text', text }] })
}

/** Settles as `value` does, or rejects with a `timeout` after `ms`. */
function within(value: unknown, ms: number, at: { siteId: string; tool: string; file: string }): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(siteToolError('timeout', { within: ms }, at)), ms)
  })
  return Promise.race([Promise.resolve(value), late]).finally(() => clearTimeout(timer))
}

/** What a tool threw, as `tool-threw`: the tool's file and line when its stack and source map tell (throwSite). */
function threw(error: unknown, tool: PageTool): SiteToolError {
  if (isSiteToolError(error)) return error
  const at = { siteId: tool.siteId, tool: tool.tool, file: tool.file }
  const thrown =
    error instanceof Error ? `${error.name}: ${error.message}` : typeof error === 'string' ? error : messageOf(error)
  return siteToolError('tool-threw', { thrown }, { ...at, ...throwSite(error, tool), cause: error })
}

/** Registers the in-scope tools of `config` now and after every same-document navigation. */
export function register(guard: Guard, config: PageConfig, fns: ToolFunction[]): void {
  if (window.top !== window) return
  useMessages(errorMessage)
  const mc = (document as { modelContext?: ModelContext }).modelContext
  const binding = config.binding
  const report = (message: string) => {
    const send = binding ? (globalThis as Record<string, unknown>)[binding] : undefined
    if (typeof send === 'function') send(message)
    else console.warn(`[site-skills] WebMCP: ${message.slice(1)}`)
  }
  // randomUUID exists only in secure contexts, where WebMCP is; elsewhere the page code only reports.
  const nonce = `site-skills:${crypto.randomUUID?.() ?? Math.random().toString(36).slice(2)}`
  const matched = {}
  let index = 0
  const entries: Entry[] = config.skills.flatMap((skill) =>
    skill.tools.map((tool) => ({ skill, tool, fn: fns[index++]! })),
  )
  /** DOMAIN_GUARD's answer for the skill's domains, with a tool that only says it ran. */
  const onDomains = (entry: Entry) =>
    guard([undefined, entry.skill.domains, nonce, '', '', 0], {}, () => matched) === matched
  const resultCheck = createResultCheck(config.validateReturns)
  let calls = 0

  async function execute(entry: Entry, input: unknown): Promise<string> {
    const { tool } = entry
    const at = { siteId: tool.siteId, tool: tool.tool, file: tool.file }
    const id = `${++calls}.${tool.timeoutMs}`
    try {
      // As runBrowserTool's: argument errors name the site and tool, not the file.
      const { own: args, cursor } = cursorOf(tool, copyArgs(input, { siteId: at.siteId, tool: at.tool }))
      const problem = argsProblem(tool.args, args)
      if (problem) throw siteToolError('invalid-args', { problem }, { siteId: at.siteId, tool: at.tool })
      const path = pagePath()
      if (!pathAllowed(entry, path)) throw refusal(entry, at)
      // Host and path in one step: the guard refuses a path other than the one just checked.
      let out: unknown
      try {
        out = guard(
          [args, entry.skill.domains, nonce, binding, id, 0, tool.urls.length ? path : undefined],
          globalThis,
          entry.fn,
        )
      } catch (error) {
        throw threw(error, tool)
      }
      if (out && typeof out === 'object' && Object.hasOwn(out, nonce)) throw refusal(entry, at)
      const value = await within(out, tool.timeoutMs || DEFAULT_TIMEOUT_MS, at).catch((error) => {
        throw threw(error, tool)
      })
      const validator = isValueSchema(tool.returns) ? (v: unknown) => resultProblem(tool.returns, v) : undefined
      return resultText(tool, args, cursor, await resultCheck(value, validator, at))
    } catch (error) {
      return errorText(error)
    } finally {
      if (binding) report(`d${id}`)
    }
  }

  function refusal(entry: Entry, at: { siteId: string; tool: string; file: string }): SiteToolError {
    const url = location.href
    if (entry.tool.urls.length && onDomains(entry))
      return siteToolError(
        'url-mismatch',
        { url, patterns: entry.tool.urls.map((l) => l.join(' | ')).join(' and ') },
        at,
      )
    return siteToolError('domain-mismatch', { url, patterns: entry.skill.domains.join(', ') || 'no domains' }, at)
  }

  function add(entry: Entry): void {
    const controller = new AbortController()
    const { tool } = entry
    const definition = deepFreeze({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: tool.annotations,
      execute: (input: unknown) => execute(entry, input),
    })
    const refused = (error: unknown) => {
      if (controller.signal.aborted) return
      if (entry.controller === controller) entry.controller = undefined
      report(`c${JSON.stringify([tool.name, messageOf(error)])}`)
    }
    entry.controller = controller
    try {
      const registered = mc!.registerTool(definition, { signal: controller.signal })
      // The draft's registerTool returns a promise (rejected on a conflict, or once aborted); Chromium 150's throws.
      if (registered instanceof Promise) registered.catch(refused)
    } catch (error) {
      refused(error)
    }
  }

  function sync(): void {
    const path = pagePath()
    for (const entry of entries) {
      const wanted = onDomains(entry) && pathAllowed(entry, path)
      if (wanted && !entry.controller) add(entry)
      else if (!wanted && entry.controller) {
        entry.controller.abort()
        entry.controller = undefined
      }
    }
  }

  if (!mc) {
    if (isSecureContext && entries.some(onDomains)) report(`u${location.href}`)
    return
  }
  sync()
  const nav = (globalThis as { navigation?: EventTarget }).navigation
  nav?.addEventListener('currententrychange', sync)
  if (config.handle)
    Object.defineProperty(globalThis, config.handle, {
      configurable: true,
      value: () => {
        nav?.removeEventListener('currententrychange', sync)
        for (const entry of entries) entry.controller?.abort()
        for (const entry of entries) entry.controller = undefined
      },
    })
}

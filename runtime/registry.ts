import type { BrowserTarget } from './browser'
import { CURSOR_ARG, type ToolDefinitions, assignToolNames, createToolDefinitions, pagesResults } from './definitions'
import type { ModelArgs, RegistryCore } from './for-models'
import { createDomainTable, lookupHost, urlHost } from './match'
import { exposeWithCode } from './expose'
import type { ResultCheck } from './results'
import { copyArgs } from './args'
import { siteToolError, withMessages } from './errors'
import type { BrowserToolCode, SkillChunk, SkillMeta, ToolMeta } from './skill-data'
import { pathTestOf, urlPathname } from './urls'
import type {
  BrowserRunOptions,
  RegistryData,
  SiteSkills,
  SiteSkillsOptions,
  SkillLoaders,
  ToolStub,
} from './site-skills-api'

export type { LearnedContext, LearnedToolSignature, ModelArgs } from './for-models'

export {
  type BrowserRunOptions,
  type RegistryData,
  SITE_SKILLS_EXPORTS,
  type SiteSkills,
  type SiteSkillsOptions,
  type SkillLoaders,
  type ToolStub,
} from './site-skills-api'

/** The argument and result checks (see results.ts): loaded with the first tool call, beside the skill's chunk. */
const valueChecks = async () => {
  const [results, problems] = await Promise.all([import('./results'), import('./value-problems')])
  const { argsProblem, isValueSchema, resultProblem } = problems
  return { createResultCheck: results.createResultCheck, argsProblem, isValueSchema, resultProblem }
}
type Checks = Awaited<ReturnType<typeof valueChecks>>

/** The learned context and model tool calls: loaded with the first of them (see for-models.ts). */
const forModels = () => import('./for-models')

/** Paging of results over their budget: loaded with the first call that has a cursor or comes from a model. */
const paging = () => import('./pages')

/**
 * A call's own arguments and its cursor (kept in the arguments of a tool that declares its own).
 * Arguments that cannot be read (a revoked proxy, a throwing getter) are left as they are: the
 * argument check that follows refuses them as `invalid-args`.
 */
export function splitCursor(m: ToolMeta, args: Record<string, unknown> | undefined) {
  try {
    if (args && pagesResults(m) && Object.hasOwn(args, CURSOR_ARG)) {
      const { [CURSOR_ARG]: cursor, ...own } = args
      return { own, cursor }
    }
  } catch {}
  return { own: args, cursor: undefined }
}

/** A browser tool's code: compiled into the chunk, or compiled now by the chunk's loader. */
function codeOf(chunk: SkillChunk, tool: string): BrowserToolCode | Promise<BrowserToolCode> {
  const code = Object.hasOwn(chunk.browserTools, tool) ? chunk.browserTools[tool] : undefined
  if (code || !chunk.loadBrowserTool) return code!
  return chunk.loadBrowserTool(tool)
}

/** The check of a tool's result against its `returns`, when it has a usable one. */
const returnsCheck = (checks: Checks, { returns }: ToolMeta) =>
  checks.isValueSchema(returns) ? (value: unknown) => checks.resultProblem(returns, value) : undefined

/** Keys a caller may read without meaning a skill or tool: promise and JSON probes, Object's own methods. */
const PROBES = new Set(['then', 'toJSON', ...Object.getOwnPropertyNames(Object.prototype)])

/**
 * A read-only view of `record` whose unknown keys throw (through `missing`, which throws the
 * catalog's error) instead of reading as undefined: `sites['typo'].tool()` is a `skill-not-found`
 * naming the known ids, not a TypeError. Symbols and the probes above read as usual.
 */
function strictRecord<T extends object>(record: T, missing: (key: string) => unknown): T {
  return new Proxy(record, {
    get(target, key) {
      if (typeof key === 'string' && !Object.hasOwn(target, key) && !PROBES.has(key)) missing(key)
      return Reflect.get(target, key)
    },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  })
}

/** Builds the runtime API over compiled data and lazy per-skill loaders. */
export function createSiteSkills(
  data: RegistryData,
  loaders: SkillLoaders,
  options: SiteSkillsOptions = {},
): SiteSkills {
  let resultCheck: ResultCheck | undefined
  /** The result check of this registry, made with its first call. */
  const checkResult = (checks: Checks, result: unknown, m: ToolMeta, at: { siteId: string; tool: string }) => {
    resultCheck ??= checks.createResultCheck(options.validateReturns ?? 'warn', options.warned)
    return resultCheck(result, returnsCheck(checks, m), { ...at, file: m.file })
  }
  const table = createDomainTable(data.table)
  const byId = new Map(data.skills.map((s) => [s.id, s]))
  const chunks = new Map<string, Promise<SkillChunk>>()
  const refs = data.skills.flatMap((s) => Object.keys(s.tools).map((tool) => ({ siteId: s.id, tool })))
  const names = assignToolNames(refs)
  /** Model tool name -> site and tool, made with the first dispatch. */
  let byName: RegistryCore['byName'] | undefined

  // Path tests of scoped skills and tools are compiled when a lookup first reaches them (pathTestOf).
  /** Whether `urls` (absent: every path) admit a URL's path, parsed once per lookup by `path`. */
  const admits = (urls: readonly string[] | undefined, path: () => string | undefined) => {
    if (!urls) return true
    const pathname = path()
    return pathname !== undefined && pathTestOf(urls)(pathname)
  }
  const pathOf = (url: string | URL) => {
    let pathname: string | undefined | null = null
    return () => {
      if (pathname === null) pathname = urlPathname(url)
      return pathname
    }
  }

  // The host lookup first; then only the matched skills' patterns: the cost stays that of the page's skills.
  const siteSkillsForUrl = (url: string | URL) => {
    const host = urlHost(url)
    if (!host) return []
    const path = pathOf(url)
    return lookupHost(table, host)
      .map((i) => data.skills[i]!)
      .filter((s) => admits(s.urls, path))
  }

  /** A skill's tools offered on `url`: those whose own `urls` (if any) match its path. */
  const toolsForUrl = (skill: SkillMeta, url: string | URL) => {
    const path = pathOf(url)
    return Object.entries(skill.tools).filter(([, m]) => admits(m.urls, path))
  }

  function load(siteId: string): Promise<SkillChunk> {
    let chunk = chunks.get(siteId)
    if (!chunk) {
      const loader = Object.hasOwn(loaders, siteId) ? loaders[siteId] : undefined
      if (!loader) return Promise.reject(siteToolError('skill-not-found', {}, { siteId }))
      chunk = loader()
      chunk.catch(() => chunks.delete(siteId))
      chunks.set(siteId, chunk)
    }
    return chunk
  }

  function meta(siteId: string, tool: string): ToolMeta {
    const skill = byId.get(siteId)
    if (!skill) throw siteToolError('skill-not-found', { known: [...byId.keys()] }, { siteId })
    const found = Object.hasOwn(skill.tools, tool) ? skill.tools[tool] : undefined
    if (!found) throw siteToolError('tool-not-found', { known: Object.keys(skill.tools) }, { siteId, tool })
    return found
  }

  type ToolAt = { siteId: string; tool: string }
  /**
   * A copy of the args (see copyArgs), checked against the tool's declared `args`; `copied`: they
   * are one already (dispatchToolCall's), so a call is copied once.
   */
  function checkedArgs(checks: Checks, at: ToolAt, args: Record<string, unknown> | undefined, copied: boolean) {
    const { siteId, tool } = at
    const value = copied && args ? args : copyArgs(args ?? {}, { siteId, tool })
    const problem = checks.argsProblem(meta(siteId, tool).args, value)
    if (problem) throw siteToolError('invalid-args', { problem }, { siteId, tool })
    return value
  }

  /**
   * Runs a call without its cursor, then pages the result: when a cursor was given, or (`always`, a
   * model's call) whenever it is over the tool's budget.
   */
  async function paged(
    siteId: string,
    tool: string,
    args: Record<string, unknown> | undefined,
    always: boolean,
    run: (own: Record<string, unknown> | undefined) => Promise<unknown>,
  ) {
    const m = meta(siteId, tool)
    const { own, cursor } = splitCursor(m, args)
    if (cursor !== undefined && typeof cursor !== 'string')
      throw siteToolError('invalid-cursor', { reason: 'malformed' }, { siteId, tool })
    const value = await run(own)
    if (!pagesResults(m) || (cursor === undefined && !always)) return value
    const request = { siteId, tool, args: own ?? {}, cursor, budget: m.resultBudget }
    return (await paging()).pageResult(value, request).value
  }

  const runBrowserTool = (
    siteId: string,
    tool: string,
    args: Record<string, unknown> | undefined,
    target: BrowserTarget,
    options: BrowserRunOptions = {},
  ) => paged(siteId, tool, args, false, (own) => runPageTool(siteId, tool, own, target, options, false))

  async function runPageTool(
    siteId: string,
    tool: string,
    args: Record<string, unknown> | undefined,
    target: BrowserTarget,
    options: BrowserRunOptions,
    copied: boolean,
  ) {
    const m = meta(siteId, tool)
    if (m.kind !== 'browser') throw siteToolError('tool-kind', { called: 'browser' }, { siteId, tool })
    const [chunk, checks] = await Promise.all([load(siteId), valueChecks()])
    const value = checkedArgs(checks, { siteId, tool }, args, copied)
    if (!target) throw siteToolError('unavailable', { missing: 'target' }, { siteId, tool })
    const code = await codeOf(chunk, tool)
    const skill = byId.get(siteId)!
    const urls = [skill.urls, m.urls].filter((u): u is string[] => u !== undefined)
    // The CDP call and the page code are loaded with the first browser tool call, as Node tools' runner is.
    const { callBrowserTool } = await import('./browser')
    const result = await callBrowserTool(target, {
      siteId,
      tool,
      code,
      args: value,
      domains: skill.domains,
      ...(urls.length ? { urls } : {}),
      timeoutMs: options.timeoutMs ?? m.timeoutMs,
      file: m.file,
      isolatedWorld: options.isolatedWorld,
    })
    return checkResult(checks, result, m, { siteId, tool })
  }

  /**
   * Runs a tool by its kind (`ctx` is a browser tool's target); `model`: a model's call, whose
   * arguments dispatchToolCall copied already, and whose result is paged whenever over budget.
   */
  const runTool = (siteId: string, tool: string, args?: Record<string, unknown>, ctx?: unknown, model = false) =>
    paged(siteId, tool, args, model, (own) => runAnyTool(siteId, tool, own, ctx, model))

  async function runAnyTool(
    siteId: string,
    tool: string,
    args: Record<string, unknown> | undefined,
    ctx: unknown,
    copied: boolean,
  ) {
    const m = meta(siteId, tool)
    if (m.kind === 'browser') return runPageTool(siteId, tool, args, ctx as BrowserTarget, {}, copied)
    const [chunk, checks] = await Promise.all([load(siteId), valueChecks()])
    const value = checkedArgs(checks, { siteId, tool }, args, copied)
    const loadFn = Object.hasOwn(chunk.nodeTools, tool) ? chunk.nodeTools[tool] : undefined
    if (!loadFn) throw siteToolError('unavailable', { missing: 'node-tools' }, { siteId, tool })
    const fn = await loadFn()
    // The runner is loaded with the first Node tool call: a browser build has no Node tools.
    const { callNodeTool } = await import('./node')
    const result = await callNodeTool({ siteId, tool, fn, ctx, args: value, timeoutMs: m.timeoutMs, file: m.file })
    return checkResult(checks, result, m, { siteId, tool })
  }

  function toolDefinitions(url: string | URL): ToolDefinitions {
    const tools = siteSkillsForUrl(url).flatMap((s) =>
      toolsForUrl(s, url).map(([tool, m]) => ({
        siteId: s.id,
        tool,
        name: names.get(`${s.id}\0${tool}`)!,
        meta: m,
      })),
    )
    return createToolDefinitions(tools)
  }

  const core: RegistryCore = {
    siteSkillsForUrl,
    toolsForUrl,
    toolDefinitions,
    load,
    meta,
    // From the refs themselves: splitting the key would cut a name that contains the separator.
    get byName() {
      byName ??= new Map(refs.map((r) => [names.get(`${r.siteId}\0${r.tool}`)!, [r.siteId, r.tool] as const]))
      return byName
    },
    runTool: (siteId, tool, args, ctx) => runTool(siteId, tool, args, ctx, true),
  }

  const sites: SiteSkills['sites'] = Object.create(null)
  for (const skill of data.skills) {
    const stubs: Record<string, ToolStub> = Object.create(null)
    for (const tool of Object.keys(skill.tools))
      stubs[tool] = withMessages((args?: Record<string, unknown>, ctx?: unknown) => runTool(skill.id, tool, args, ctx))
    sites[skill.id] = strictRecord(stubs, (tool) => meta(skill.id, tool))
  }

  const api: SiteSkills = {
    skills: data.skills,
    siteSkillsForUrl,
    loadLearnedContext: withMessages(async (url: string | URL) => (await forModels()).learnedContext(core, url)),
    runTool: withMessages((siteId: string, tool: string, args?: Record<string, unknown>, ctx?: unknown) =>
      runTool(siteId, tool, args, ctx),
    ),
    runBrowserTool: withMessages(runBrowserTool),
    browserToolSource: withMessages(async (siteId: string, tool: string) => {
      if (meta(siteId, tool).kind !== 'browser')
        throw siteToolError('tool-kind', { called: 'source' }, { siteId, tool })
      return (await codeOf(await load(siteId), tool)).source
    }),
    loadNotes: withMessages(async (siteId: string) => {
      if (!byId.has(siteId)) throw siteToolError('skill-not-found', {}, { siteId })
      return (await load(siteId)).notes
    }),
    toolDefinitions,
    dispatchToolCall: withMessages(async (name: string, args: ModelArgs, ctx?: unknown) =>
      (await forModels()).dispatchToolCall(core, name, args, ctx),
    ),
    sites: strictRecord(sites, (siteId) => meta(siteId, '')),
    exposeWebMcpTools: (target, more = {}) =>
      exposeWithCode(
        target,
        { validateReturns: options.validateReturns, ...more, siteSkills: api },
        async (siteId, tool) => codeOf(await load(siteId), tool),
      ),
  }
  return api
}

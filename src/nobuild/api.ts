import { join } from 'node:path'
import {
  type BrowserTarget,
  SiteToolError,
  type BrowserRunOptions,
  type LearnedContext,
  type ToolDefinitions,
  type SkillMeta,
  type ValidateReturns,
} from '../../runtime/index'
import { siteToolError } from '../../runtime/internal'
import { jsValue } from '../codegen/literal'
import type { Compat } from '../compiler/compat'
import type { CompileResult } from '../compiler/compile'
import type { Focus } from '../compiler/focus'
import { FILE_LIMITS, isReadFailure, readRegularFile } from '../compiler/fs/files'
import type { ManifestTool, SkillModel } from '../compiler/model'
import { type Root, resolveRoots, rootPath, workspaceRoot } from '../compiler/discover/roots'
import { type ToolRef, invalidSkill } from './invalid'
import { originalReportErrors } from './original-messages'
import { type Session, type SessionState, createSession } from '../session/session'

/** Where to read skills from: the original's `root` / `agentWorkspace`, or several `roots`. */
export interface SkillsOptions {
  root?: string
  agentWorkspace?: string
  roots?: readonly string[]
  compat?: Compat
  /**
   * Look for changes: every call sees the skills as they are on disk (edited, added, removed).
   * The watchers never keep a process alive. `false` reads the skills once, for a one-shot
   * script or command. @default true
   */
  watch?: boolean
  /** What a result that does not fit its tool's `returns` does: see {@link ValidateReturns}. @default 'warn' */
  validateReturns?: ValidateReturns
}

/** The original's LearningEntry. */
export interface LearningEntry {
  id: string
  name: string
  path: string
  domains: string[]
  /** URLPattern pathname patterns the skill is scoped to (absent: every page of its domains). */
  urls?: string[]
  notes: string[]
  nodeTools: Record<string, ManifestTool>
  browserTools: Record<string, ManifestTool>
}

export type { ManifestTool }

/**
 * Where a no-build function reads skills: a root folder (`'learnings'`, as the original's
 * validateSiteSkills takes it) or the options object (`{ root }`, `{ roots }`, `{ agentWorkspace }`).
 */
export type SkillsInput = string | SkillsOptions

/** The options object a SkillsInput stands for (a string is its `root`). */
function optionsOf(input?: SkillsInput): SkillsOptions {
  return typeof input === 'string' ? { root: input } : (input ?? {})
}

/**
 * Sessions by what they compile (roots, compat, watching): the no-build functions have no instance
 * to keep them in, as the original's had none. At most SESSIONS_MAX, the least recently used one
 * closed (its watchers stopped) to make room; a call of its roots later opens it again.
 */
const sessions = new Map<string, Session>()
const SESSIONS_MAX = 16

/** How many sessions the no-build functions keep open (at most SESSIONS_MAX). @internal */
export const openSessionCount = () => sessions.size

/** The original's siteSkillsRoot: `<workspace>/learnings`, defaulting from the environment. */
export function siteSkillsRoot(agentWorkspace?: string): string {
  return rootsOf({ agentWorkspace })[0]!.path
}

/** Where options made by `oneShot` carry their roots as values, and their session. */
const RESOLVED_ROOTS = Symbol('resolved roots')
const OWN_SESSION = Symbol('own session')

/**
 * Options over a session of the caller's own (a CLI command's): its roots resolved already and
 * handed on as values (a package root keeps its package), compiled once, never watched, kept in
 * no cache of this module. `roots` shows their folders. @internal
 */
export function oneShot(roots: readonly Root[], compat?: Compat): SkillsOptions {
  const session = createSession(roots, { invalidSkill, compat, watch: false })
  const shown = { roots: roots.map(rootPath), compat, watch: false }
  return { ...shown, [RESOLVED_ROOTS]: roots, [OWN_SESSION]: session } as SkillsOptions
}

/**
 * The absolute roots an options object names (for the original's other functions); roots the CLI
 * already resolved are taken as they are. @internal
 */
export function rootsOf(input?: SkillsInput): readonly Root[] {
  const options = optionsOf(input)
  const resolved = (options as { [RESOLVED_ROOTS]?: readonly Root[] })[RESOLVED_ROOTS]
  if (resolved) return resolved
  const cwd = process.cwd()
  if (options.roots?.length) return resolveRoots(options.roots, cwd)
  if (options.root) return resolveRoots(options.root, cwd)
  if (options.agentWorkspace) return [{ path: workspaceRoot(options.agentWorkspace, cwd) }]
  return resolveRoots(undefined, cwd)
}

function sessionFor(input: SkillsInput | undefined, checkOnly: boolean): Session {
  const options = optionsOf(input)
  const own = (options as { [OWN_SESSION]?: Session })[OWN_SESSION]
  if (own) return own
  const roots = rootsOf(options)
  const compat = options.compat
  const watch = options.watch !== false
  const validateReturns = options.validateReturns
  const key = JSON.stringify([roots, compat ?? null, watch, checkOnly, validateReturns ?? 'warn'])
  const known = sessions.get(key)
  if (known) {
    sessions.delete(key)
    sessions.set(key, known)
    return known
  }
  const session = createSession(roots, { invalidSkill, compat, watch, checkOnly, validateReturns })
  sessions.set(key, session)
  if (sessions.size > SESSIONS_MAX) {
    const [oldest, dropped] = sessions.entries().next().value!
    sessions.delete(oldest)
    dropped.close()
  }
  return session
}

/** The error of a root that cannot be read: not there, or a package name that names no skill package. @internal */
export function rootError(scan: CompileResult['roots'][number]): SiteToolError {
  const { problem } = scan
  if (problem?.code === 'package-missing') return siteToolError(problem.code, problem.data)
  if (problem?.code === 'package-invalid') return siteToolError(problem.code, problem.data)
  return siteToolError('root-missing', { root: scan.root, ...(scan.error ? { error: scan.error } : {}) })
}

/** A root that is not there: an error, so that a typo never reads as "no skills" (the CLI exits 2). */
function missingRoot(result: CompileResult): SiteToolError | undefined {
  const scan = result.roots.find((r) => !r.exists)
  return scan && rootError(scan)
}

/**
 * The current compile of the roots an options object names. Browser tools are compiled when first
 * called; `checkOnly` (validation) bundles ES-module tools up front to check their imports. A root
 * that does not exist is a SiteToolError `root-missing` (`package-missing`, `package-invalid` for a
 * package name that names no skill package). `focus`: what the call answers from, so that a
 * session's first call checks only those skills (see Session.current). @internal
 */
export async function current(input?: SkillsInput, checkOnly = false, focus?: Focus): Promise<SessionState> {
  const state = await sessionFor(input, checkOnly).current(focus)
  const missing = missingRoot(state.result)
  if (missing) throw missing
  return state
}

function manifestTool(t: SkillModel['tools'][number]): ManifestTool {
  return {
    description: t.description,
    path: t.path,
    ...(t.callable ? { callable: t.callable } : {}),
    args: t.args,
    returns: t.returns,
    ...(t.timeoutMs ? { timeoutMs: t.timeoutMs } : {}),
    ...(t.urls ? { urls: t.urls } : {}),
  }
}

function toEntry(model: SkillModel): LearningEntry {
  // Tool maps by fromEntries: every name is an own property, whatever it is.
  const map = (kind: 'node' | 'browser') =>
    Object.fromEntries(model.tools.filter((t) => t.kind === kind).map((t) => [t.name, manifestTool(t)]))
  return {
    id: model.id,
    name: model.name,
    path: model.dir,
    domains: model.domains,
    ...(model.urls ? { urls: model.urls } : {}),
    notes: model.notes.map((n) => join(model.dir, n.path)),
    nodeTools: map('node'),
    browserTools: map('browser'),
  }
}

/** The skills whose domains match a URL, in directory order (the original's shape). */
export async function siteSkillsForUrl(url: string | URL, options?: SkillsInput): Promise<LearningEntry[]> {
  const { api, models } = await current(options, false, { url })
  return api.siteSkillsForUrl(url).map((meta) => toEntry(models.get(meta.id)!))
}

/** Metadata of every valid skill (id, name, domains, tool signatures), in directory order. */
export async function listSiteSkills(options?: SkillsInput): Promise<readonly SkillMeta[]> {
  return (await current(options)).api.skills
}

/**
 * Notes and tool signatures for a URL, as an agent puts them in its prompt; each tool's `example`
 * calls it with this API (`runNodeSiteTool`, `runBrowserSiteTool`).
 */
export async function loadLearnedContext(url: string | URL, options?: SkillsInput): Promise<LearnedContext> {
  const context = await (await current(options, false, { url })).api.loadLearnedContext(url)
  const tools = context.tools.map((t) => {
    const call = t.toolType === 'node' ? 'runNodeSiteTool' : 'runBrowserSiteTool'
    const last = t.toolType === 'node' ? 'ctx' : 'target'
    return {
      ...t,
      example: `await ${call}(${JSON.stringify(t.siteId)}, ${JSON.stringify(t.toolName)}, { ... }, ${last})`,
    }
  })
  return { ...context, tools }
}

/** Model tool definitions (MCP, Anthropic, OpenAI) of the tools that match a URL. */
export async function toolDefinitionsForUrl(url: string | URL, options?: SkillsInput): Promise<ToolDefinitions> {
  return (await current(options, false, { url })).api.toolDefinitions(url)
}

/** Runs a tool call a model made with a name from `toolDefinitions`. */
export async function dispatchToolCall(
  name: string,
  args: Record<string, unknown> | null | undefined,
  ctxOrTarget?: unknown,
  options?: SkillsInput,
): Promise<unknown> {
  return (await current(options)).api.dispatchToolCall(name, args, ctxOrTarget)
}

/** Says why a skill id is not usable: missing, or invalid (with its first error). @internal */
export function notFound(result: CompileResult, siteId: string, roots: readonly Root[], tool?: ToolRef): SiteToolError {
  const report = result.reports.find((r) => r.id === siteId)
  if (report?.diagnostics.some((d) => d.severity === 'error')) return invalidSkill(report.diagnostics, siteId, tool)
  const env = process.env.EGO_BROWSER_AGENT_WORKSPACE
  return new SiteToolError(
    'skill-not-found',
    [
      `site skill not found: ${JSON.stringify(siteId)}`,
      `  searched: ${roots.map(rootPath).join(', ')}`,
      `  EGO_BROWSER_AGENT_WORKSPACE: ${env ?? 'unset'}`,
      '  hint: ensure your write path begins with the searched root above',
    ].join('\n'),
    { siteId },
  )
}

async function toolOf(siteId: string, tool: string, kind: 'node' | 'browser', options?: SkillsInput) {
  const state = await current(options, false, { siteId })
  const model = state.models.get(siteId)
  if (!model) throw notFound(state.result, siteId, rootsOf(options), { name: tool, kind })
  const found = model.tools.find((t) => t.name === tool && t.kind === kind)
  if (!found) {
    const label = kind === 'node' ? 'Node tool' : 'browser tool'
    throw new SiteToolError(
      'tool-not-found',
      `${label} ${JSON.stringify(tool)} is not declared by site skill ${JSON.stringify(siteId)}`,
      { siteId, tool },
    )
  }
  return { api: state.api, tool: found }
}

/** Runs a Node tool as `fn(ctx, args)` after checking the args against the manifest. */
export async function runNodeSiteTool(
  siteId: string,
  tool: string,
  args: Record<string, unknown> = {},
  ctx?: unknown,
  options?: SkillsInput,
): Promise<unknown> {
  return (await toolOf(siteId, tool, 'node', options)).api.runTool(siteId, tool, args, ctx)
}

/** Runs a browser tool in a page over CDP (see the runtime's `runBrowserTool`). */
export async function runBrowserSiteTool(
  siteId: string,
  tool: string,
  args: Record<string, unknown> | undefined,
  target: BrowserTarget,
  options?: string | (SkillsOptions & BrowserRunOptions),
): Promise<unknown> {
  const run = typeof options === 'string' ? {} : options
  return (await toolOf(siteId, tool, 'browser', options)).api.runBrowserTool(siteId, tool, args, target, run)
}

/**
 * A browser tool as one self-contained function expression: for a bare-function `.js` file its
 * own text, as the original returns it (ending in a newline, so that a trailing `//` comment
 * cannot swallow what wrapBrowserTool adds); otherwise the module bundled and minified.
 */
export async function loadBrowserToolSource(siteId: string, tool: string, options?: SkillsInput): Promise<string> {
  const found = await toolOf(siteId, tool, 'browser', options)
  if (found.tool.module || !found.tool.absPath.endsWith('.js')) return found.api.browserToolSource(siteId, tool)
  // Read as validation read it: a file swapped for a pipe or a huge one since is an error, not a hang.
  const read = readRegularFile(found.tool.absPath, FILE_LIMITS.tool)
  if (isReadFailure(read))
    throw new SiteToolError('unavailable', `browser tool ${jsValue(tool)} ${read.message}`, { siteId, tool })
  const text = read.toString('utf8')
  return text.endsWith('\n') ? text : `${text}\n`
}

/** The original's wrapper: an expression that calls the tool source with the args pasted in. */
export function wrapBrowserTool(source: string, args: Record<string, unknown> | null = {}): string {
  const call = `return await __egoBrowserTool(${jsValue(args || {})});`
  return `(async () => { const __egoBrowserTool = ${source}; ${call} })()`
}

/**
 * The original's validateSiteSkills (also named validateLearnings): the errors of every skill
 * under the root (a path, or `{ root }` / `{ roots }` as every function here takes; default:
 * siteSkillsRoot()) as `<siteId>: <message>` in the original's words and check order, `[]` when
 * all are valid. A root that does not exist throws a SiteToolError `root-missing`.
 */
export async function validateSiteSkills(
  root?: SkillsInput,
  options: Omit<SkillsOptions, 'root'> = {},
): Promise<string[]> {
  return originalReportErrors((await current({ ...options, ...optionsOf(root) }, true)).result)
}

/** Forgets every cached session and stops its watchers (never needed for a process to exit). */
export function closeSiteSkills(): void {
  for (const session of sessions.values()) session.close()
  sessions.clear()
}

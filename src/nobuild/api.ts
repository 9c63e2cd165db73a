import { join } from 'node:path'
import type { BrowserTarget } from '../../runtime/browser'
import { SiteToolError } from '../../runtime/errors'
import type { BrowserRunOptions, LearnedContext } from '../../runtime/registry'
import type { ToolDefinitions } from '../../runtime/definitions'
import type { SkillMeta, ValueSchema } from '../../runtime/types'
import type { CompileResult } from '../core/compiler'
import { resolveRootInputs } from '../core/discover'
import type { SkillModel } from '../core/model'
import { resolveUserPath } from '../core/paths'
import { type Session, type SessionState, createSession } from './session'

/** Where to read skills from: the original's `root` / `agentWorkspace`, or several `roots`. */
export interface SkillsOptions {
  root?: string
  agentWorkspace?: string
  roots?: string[]
  compat?: 'ego-lite'
  /**
   * Look for changes: every call sees the skills as they are on disk (edited, added, removed).
   * The watchers never keep a process alive. `false` reads the skills once, for a one-shot
   * script or command. @default true
   */
  watch?: boolean
}

/** The original's LearningEntry. */
export interface LearningEntry {
  id: string
  name: string
  path: string
  domains: string[]
  notes: string[]
  nodeTools: Record<string, ManifestTool>
  browserTools: Record<string, ManifestTool>
}

export interface ManifestTool {
  description: string
  path: string
  callable?: string
  args: Record<string, ValueSchema>
  returns: ValueSchema
  timeoutMs?: number
}

const sessions = new Map<string, Session>()

/** The original's siteSkillsRoot: `<workspace>/learnings`, defaulting from the environment. */
export function siteSkillsRoot(agentWorkspace?: string): string {
  if (agentWorkspace) return join(resolveUserPath(agentWorkspace, process.cwd()), 'learnings')
  return resolveRootInputs(undefined, process.cwd())[0]!
}

function rootsOf(options: SkillsOptions = {}): string[] {
  if (options.roots?.length) return resolveRootInputs(options.roots, process.cwd())
  if (options.root) return [resolveUserPath(options.root, process.cwd())]
  return [siteSkillsRoot(options.agentWorkspace)]
}

function sessionFor(options?: SkillsOptions): Session {
  const roots = rootsOf(options)
  const compat = options?.compat
  const watch = options?.watch !== false
  const key = JSON.stringify([roots, compat ?? null, watch])
  let session = sessions.get(key)
  if (!session) sessions.set(key, (session = createSession(roots, { compat, watch })))
  return session
}

async function current(options?: SkillsOptions): Promise<SessionState> {
  return sessionFor(options).current()
}

function toEntry(model: SkillModel): LearningEntry {
  const entry: LearningEntry = { id: model.id, name: model.name, path: model.dir, domains: model.domains, notes: model.notes.map((n) => join(model.dir, n.path)), nodeTools: {}, browserTools: {} }
  for (const t of model.tools) {
    const tool: ManifestTool = { description: t.description, path: t.path, ...(t.callable ? { callable: t.callable } : {}), args: t.args, returns: t.returns, ...(t.timeoutMs ? { timeoutMs: t.timeoutMs } : {}) }
    ;(t.kind === 'node' ? entry.nodeTools : entry.browserTools)[t.name] = tool
  }
  return entry
}

/** The skills whose domains match a URL, in directory order (the original's shape). */
export async function siteSkillsForUrl(url: string | URL, options?: SkillsOptions): Promise<LearningEntry[]> {
  const { api, models } = await current(options)
  return api.siteSkillsForUrl(url).map((meta) => toEntry(models.get(meta.id)!))
}

/** Metadata of every valid skill (id, name, domains, tool signatures), in directory order. */
export async function listSiteSkills(options?: SkillsOptions): Promise<readonly SkillMeta[]> {
  return (await current(options)).api.skills
}

/** Notes and tool signatures for a URL, as an agent puts them in its prompt. */
export async function loadLearnedContext(url: string | URL, options?: SkillsOptions): Promise<LearnedContext> {
  return (await current(options)).api.loadLearnedContext(url)
}

/** Model tool definitions (MCP, Anthropic, OpenAI) of the tools that match a URL. */
export async function toolDefinitionsForUrl(url: string | URL, options?: SkillsOptions): Promise<ToolDefinitions> {
  return (await current(options)).api.toolDefinitions(url)
}

/** Runs a tool call a model made with a name from `toolDefinitions`. */
export async function dispatchToolCall(name: string, args: Record<string, unknown> | null | undefined, ctxOrTarget?: unknown, options?: SkillsOptions): Promise<unknown> {
  return (await current(options)).api.dispatchToolCall(name, args, ctxOrTarget)
}

/** Says why a skill id is not usable: missing, or invalid (with its first error). */
function notFound(result: CompileResult, siteId: string, roots: string[]): SiteToolError {
  const report = result.reports.find((r) => r.id === siteId)
  const firstError = report?.diagnostics.find((d) => d.severity === 'error')
  if (firstError) return new SiteToolError('skill-not-found', `site skill is invalid: ${firstError.file}:${firstError.line}:${firstError.column} ${firstError.message}`, { siteId })
  const env = process.env.EGO_BROWSER_AGENT_WORKSPACE
  return new SiteToolError('skill-not-found', `site skill not found: ${JSON.stringify(siteId)}\n  searched: ${roots.join(', ')}\n  EGO_BROWSER_AGENT_WORKSPACE: ${env ?? 'unset'}\n  hint: ensure your write path begins with the searched root above`, { siteId })
}

async function toolOf(siteId: string, tool: string, kind: 'node' | 'browser', options?: SkillsOptions) {
  const state = await current(options)
  const model = state.models.get(siteId)
  if (!model) throw notFound(state.result, siteId, rootsOf(options))
  if (!model.tools.some((t) => t.name === tool && t.kind === kind)) {
    const label = kind === 'node' ? 'Node tool' : 'browser tool'
    throw new SiteToolError('tool-not-found', `${label} ${JSON.stringify(tool)} is not declared by site skill ${JSON.stringify(siteId)}`, { siteId, tool })
  }
  return state.api
}

/** Runs a Node tool as `fn(ctx, args)` after checking the args against the manifest. */
export async function runNodeSiteTool(siteId: string, tool: string, args: Record<string, unknown> = {}, ctx?: unknown, options?: SkillsOptions): Promise<unknown> {
  return (await toolOf(siteId, tool, 'node', options)).runTool(siteId, tool, args, ctx)
}

/** Runs a browser tool in a page over CDP (see the runtime's `runBrowserTool`). */
export async function runBrowserSiteTool(siteId: string, tool: string, args: Record<string, unknown> | undefined, target: BrowserTarget, options?: SkillsOptions & BrowserRunOptions): Promise<unknown> {
  return (await toolOf(siteId, tool, 'browser', options)).runBrowserTool(siteId, tool, args, target, options)
}

/** A browser tool as one self-contained function expression (bundled and minified). */
export async function loadBrowserToolSource(siteId: string, tool: string, options?: SkillsOptions): Promise<string> {
  return (await toolOf(siteId, tool, 'browser', options)).browserToolSource(siteId, tool)
}

/** The original's wrapper: an expression that calls the tool source with the args pasted in. */
export function wrapBrowserTool(source: string, args: Record<string, unknown> | null = {}): string {
  return `(async () => { const __egoBrowserTool = ${source}; return await __egoBrowserTool(${JSON.stringify(args || {})}); })()`
}

/** The original's validateSiteSkills: every error as `<siteId>: <message>`. */
export async function validateSiteSkills(root?: string, options: Omit<SkillsOptions, 'root'> = {}): Promise<string[]> {
  const { result } = await current({ ...options, root })
  return result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.siteId}: ${d.message}`)
}

/** Forgets every cached session and stops its watchers (never needed for a process to exit). */
export function closeSiteSkills(): void {
  for (const session of sessions.values()) session.close()
  sessions.clear()
}

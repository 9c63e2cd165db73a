import { pathToFileURL } from 'node:url'
import {
  type BrowserToolCode,
  type NodeToolFunction,
  type SiteSkills,
  SiteToolError,
  type SkillChunk,
  type ValidateReturns,
  createSiteSkills,
  loadUrlPattern,
} from '../../runtime/index'
import { createRegistryData } from '../codegen/meta'
import type { CompileResult, CompiledSkill, Compiler } from '../compiler/compile'
import type { Focus } from '../compiler/focus'
import type { Compat } from '../compiler/compat'
import type { RootInput } from '../compiler/discover/roots'
import type { Diagnostic } from '../compiler/diagnostics/catalog'
import type { SkillModel, ToolModel } from '../compiler/model'
import { compileNodeTool, fileVersion } from './node-tools'
import { notesOf } from '../compiler/notes'
import { acquireEventBarrier } from './barrier'
import { createFolderWatcher, foldersOf } from './folder-watcher'
import { createBudgetedCompiler } from '../tokens/budget'

/** A compile of one set of roots, and what is built on it. */
export interface SessionState {
  result: CompileResult
  api: SiteSkills
  models: Map<string, SkillModel>
}

/** One set of roots, compiled once and again only after a file under them changed. */
export interface Session {
  /**
   * The current compile result and runtime API (recompiled when something changed). With a
   * focus, the first call of a session compiles only what it answers from (see Focus): a one-shot
   * script pays for the skills it uses. That state is not kept: the next call compiles every skill.
   */
  current: (focus?: Focus) => Promise<SessionState>
  /** The compiler of this session (compiles a browser tool when it is first called). */
  compiler: Compiler
  close: () => void
}

/**
 * The error of a call into a skill that is invalid (its first error, the asked-for tool's own
 * first): the caller's wording (the no-build API's is the original's).
 */
type InvalidSkill = (
  diagnostics: readonly Diagnostic[],
  siteId: string,
  tool: { name: string; kind: 'node' | 'browser' },
) => SiteToolError

/** How the function of a Node tool is had: imported into this process, or (the MCP server's examples) run elsewhere. */
export type NodeToolLoader = (model: SkillModel, tool: ToolModel) => Promise<NodeToolFunction>

/** Imports a Node tool; the version query changes only with its content, so a change is imported once. */
const importNodeTool: NodeToolLoader = async (model, { name: tool, absPath, callable = tool }) => {
  const siteId = model.id
  const file = await compileNodeTool(absPath, model.realDir)
  const mod = (await import(`${pathToFileURL(file).href}?v=${await fileVersion(absPath)}`)) as Record<string, unknown>
  const fn = mod[callable]
  if (typeof fn !== 'function')
    throw new SiteToolError('unavailable', `callable ${JSON.stringify(callable)} is not an exported function`, {
      siteId,
      tool,
    })
  return fn as NodeToolFunction
}

/** Compiles one browser tool when it is called; the compiler's cache makes later calls a stamp check. */
function browserToolLoader(
  compiler: Compiler,
  model: SkillModel,
  invalidSkill: InvalidSkill,
): (tool: string) => Promise<BrowserToolCode> {
  return async (name) => {
    const tool = model.tools.find((t) => t.kind === 'browser' && t.name === name)!
    const { code, diagnostics } = await compiler.compileBrowserTool(model, tool)
    if (!code || diagnostics.some((d) => d.severity === 'error'))
      throw invalidSkill(diagnostics, model.id, { name, kind: 'browser' })
    return code
  }
}

function chunkLoader(
  compiler: Compiler,
  skill: CompiledSkill,
  load: NodeToolLoader,
  invalidSkill: InvalidSkill,
): () => Promise<SkillChunk> {
  return async () => {
    const { model, browser } = skill
    const nodeTools: SkillChunk['nodeTools'] = Object.create(null)
    for (const tool of model.tools) {
      if (tool.kind !== 'node') continue
      let loaded: Promise<NodeToolFunction> | undefined
      nodeTools[tool.name] = () => (loaded ??= load(model, tool))
    }
    const loadBrowserTool = browserToolLoader(compiler, model, invalidSkill)
    return { notes: notesOf(model), nodeTools, browserTools: browser, loadBrowserTool }
  }
}

/** How `createSkillsApi` serves. */
interface SkillsApiOptions {
  /** The error of a call into an invalid skill. */
  invalidSkill: InvalidSkill
  validateReturns?: ValidateReturns
  warned?: Set<string>
  /** Where Node tools run. @default imported into this process */
  loadNodeTool?: NodeToolLoader
}

/** The runtime API over compiled skills (Node tools imported, browser tools compiled, on first call). @internal */
export function createSkillsApi(
  compiler: Compiler,
  skills: readonly CompiledSkill[],
  options: SkillsApiOptions,
): SiteSkills {
  const { invalidSkill, validateReturns, warned, loadNodeTool = importNodeTool } = options
  const loaders = Object.fromEntries(
    skills.map((s) => [s.model.id, chunkLoader(compiler, s, loadNodeTool, invalidSkill)]),
  )
  return createSiteSkills(createRegistryData(skills), loaders, { validateReturns, warned })
}

/** The same folders with the same (cached, so identical) records: the state built on it still holds. */
function unchanged(before: CompileResult, after: CompileResult): boolean {
  const sameRoot = (r: CompileResult['roots'][number], i: number) => {
    const other = after.roots[i]
    return r.root === other?.root && r.exists === other.exists && r.error === other.error
  }
  const { records } = after
  const sameRecords = before.records.length === records.length && before.records.every((r, i) => r === records[i])
  return before.roots.every(sameRoot) && sameRecords
}

/** Matching `urls` needs URLPattern (its polyfill before Node 23.8): loaded once, if at all. */
async function withUrlPattern(result: CompileResult): Promise<CompileResult> {
  if (result.skills.some(({ model }) => model.urls || model.tools.some((t) => t.urls))) await loadUrlPattern()
  return result
}

function stateOf(
  compiler: Compiler,
  result: CompileResult,
  options: SessionOptions,
  warned: Set<string>,
): SessionState {
  const { invalidSkill, validateReturns } = options
  return {
    result,
    api: createSkillsApi(compiler, result.skills, { invalidSkill, validateReturns, warned }),
    models: new Map(result.skills.map((s) => [s.model.id, s.model])),
  }
}

/** How a session learns about changes. */
export interface SessionOptions {
  /** The error of a call into an invalid skill. */
  invalidSkill: InvalidSkill
  compat?: Compat
  /**
   * Watch the roots, so that every call sees the files as they are (the watchers never keep the
   * process alive). `false`: compile once and keep that (one-shot commands). @default true
   */
  watch?: boolean
  /** Called (without arguments) when a watcher sees something change under the roots. */
  onChange?: () => void
  /**
   * For validation only: ES-module browser tools are bundled during the compile (their imports
   * checked), bare functions not compiled. Otherwise every browser tool is compiled when called.
   */
  checkOnly?: boolean
  /** What a result that does not match its tool's `returns` does (see SiteSkillsOptions). @default 'warn' */
  validateReturns?: ValidateReturns
  /**
   * Whose file-system events arrive in the order the changes were made (see `acquireEventBarrier`):
   * a call then waits for the events of every change made before it and compiles only after one.
   * Elsewhere every call compiles (the compiler's cache makes that a stamp check). @default process.platform
   */
  platform?: NodeJS.Platform
}

export function createSession(roots: readonly RootInput[], options: SessionOptions): Session {
  const { compat, checkOnly = false } = options
  const compiler = createBudgetedCompiler({
    roots,
    compat,
    checkOnly,
    lazyBrowser: !checkOnly,
    tolerate: ['returns-invalid'],
  })
  const watching = options.watch !== false
  const barrier = watching ? acquireEventBarrier(options.platform) : undefined
  // One set for every state of the session: a mismatch is logged once, whatever was recompiled.
  const warned = new Set<string>()
  // dirty: a change was seen since the last compile began; unwatched: some folder is not watched.
  let dirty = true
  let unwatched = false
  let begun = 0
  let pending: { done: Promise<SessionState>; number: number } | undefined
  let state: SessionState | undefined
  const watcher = watching
    ? createFolderWatcher(() => {
        dirty = true
        options.onChange?.()
      })
    : undefined

  async function refresh(): Promise<SessionState> {
    dirty = false
    try {
      const result = await withUrlPattern(await compiler.compile())
      const next = state && unchanged(state.result, result) ? state : stateOf(compiler, result, options, warned)
      if (watcher) {
        const { added, complete } = watcher.update(foldersOf(roots, result))
        // A new watcher did not see changes made during the compile: the next call looks again.
        if (added) dirty = true
        unwatched = !complete
      }
      state = next
      return next
    } catch (error) {
      dirty = true
      throw error
    }
  }

  function begin(): Promise<SessionState> {
    const number = ++begun
    const done = refresh().finally(() => {
      if (pending?.number === number) pending = undefined
    })
    pending = { done, number }
    return done
  }

  /**
   * The state of a compile that began after every change seen so far, or after the call began
   * (`since`: compiles begun before it). `seen`: the events of every change made before the call
   * have arrived, so the state is current unless one of them said otherwise.
   */
  async function settled(seen: boolean, since: number): Promise<SessionState> {
    for (;;) {
      // Begun after the call began, it reads the files as they were when the call was made.
      if (pending && pending.number > since) return pending.done
      // Begun before, it may have read them before the change this call must see: wait, then look again.
      if (pending) await pending.done.catch(() => undefined)
      else if (state && seen && !dirty && !unwatched) return state
      else return begin()
    }
  }

  let first = true
  /** The first call's answer, from a focused compile (see Session.current). */
  async function focused(focus: Focus): Promise<SessionState> {
    first = false
    return stateOf(compiler, await withUrlPattern(await compiler.compile(focus)), options, warned)
  }

  return {
    compiler,
    async current(focus) {
      if (focus && first && !checkOnly && begun === 0) return focused(focus)
      const since = begun
      // Without watchers the first compile stands; without the barrier only a compile tells.
      const seen = !watching || (barrier !== undefined && (await barrier.flush()))
      return settled(seen, since)
    },
    close() {
      watcher?.close()
      barrier?.release()
    },
  }
}

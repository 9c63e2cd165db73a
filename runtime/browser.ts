import type { CallInfo } from './browser-errors'
import {
  type BrowserTarget,
  type CdpSendable,
  type CommandResult,
  command,
  heldSession,
  isSendable,
  listen,
  type OpenedTarget,
} from './cdp'
import { CACHED_LINE0_SHIFT, CALL_CACHED, toolUrl, wrapToolSource } from './page-code'
import { SiteToolError, siteToolError } from './errors'
import { urlMatchesDomains } from './match'
import { LINE0_SHIFT } from './page-code'
import type { BrowserToolCode } from './skill-data'

export type { BrowserTarget } from './cdp'

/** One call of a browser tool. */
export interface BrowserCall {
  siteId: string
  tool: string
  code: BrowserToolCode
  /** Passed to the tool as a value (never pasted into its source); the caller's copy, not changed after the call. */
  args: Record<string, unknown>
  /** The skill's normalized patterns (`host`, `*.host`): the page's URL must match one before the tool runs. */
  domains: readonly string[]
  /**
   * Pathname patterns (URLPattern syntax) of the skill and of the tool: the page's path must match
   * one pattern of every list, else the call fails with `url-mismatch` before the tool runs.
   */
  urls?: readonly (readonly string[])[]
  /** Limit for the whole call; on expiry the tool's in-page work is terminated. @default 30000 */
  timeoutMs?: number
  /** The tool's file relative to its root, for messages when the source map cannot tell. */
  file?: string
  /**
   * Run in an isolated world: page scripts that replace globals (`JSON.stringify`, `Array.prototype.map`)
   * cannot affect the tool; the DOM is shared. @default false
   */
  isolatedWorld?: boolean
}

const DEFAULT_TIMEOUT_MS = 30_000

type World = 'main' | 'isolated'

/** A tool's function made in a page context (see CACHED_START), by the source it was made of. */
interface CachedTool {
  source: string
  /** Its objectId, once made; never, when making it failed (the call then sends the whole source). */
  handle?: string
  failed?: boolean
}

/**
 * What a connection keeps of one world of the page's current document: the objectId of its global
 * object, and the functions of the tools called there (by sourceURL). A new document (a navigation)
 * makes them all stale: the first call that finds so starts the world anew. A handle is kept as a
 * string once known, so that a call reaches `send` without awaiting.
 */
interface WorldState {
  global?: Promise<string> | string
  tools: Map<string, CachedTool>
  /** When a call last carried a user gesture into this document (Date.now()); see GESTURE_FRESH_MS. */
  gestureAt?: number
}

/** Per connection: its worlds (see WorldState), the page events it listens to, its watched runs. */
interface SessionState {
  main: WorldState
  isolated: WorldState
  pageEnabled?: boolean
  /** The page's renderer crashed and the page has not been reloaded since. */
  crashed?: boolean
  /** Runs whose page work is watched (see Run), oldest first. */
  watched: Set<Run>
  /** Unanswered calls, by the secret their page's signals carry (sent only to the page the call runs in). */
  running: Map<string, Run>
  /** Calls sent so far: each call's remote objects are a group of its own, named by this count. */
  sent: number
}

/**
 * One call: `pending` while our callFunctionOn is unanswered, `over` once the caller has its
 * answer; `phase` as the page signals it: `s` the tool started, `y` its synchronous part is over
 * and its promise still pending (a tool that settles in the call's own task sends no `y`: its
 * answer follows at once, before any other task of the page can run).
 * `done` ends the watch over the page (dialogs, crash, deadline), which lasts until the tool's
 * page work is over, or the deadline: after the caller's answer too (a dialog fails the call at
 * once, but the tool goes on and may open another).
 */
interface Run extends CallInfo {
  call: BrowserCall
  session?: CdpSendable
  pending: boolean
  over: boolean
  phase?: string
  /** The page's path as checked against `urls`; the guard refuses when it has changed since. */
  pathname?: string
  /** The execution context the run's first signal came from; later ones must come from it too. */
  context?: number
  /** The page had no transient user activation: the call goes again, with a user gesture. */
  gesture?: boolean
  fail: (error: SiteToolError) => void
  done: () => void
}

type CallResponse = CommandResult<'Runtime.callFunctionOn'>

const HANDLE_GROUP = 'site-skills-handle'
const WORLD_NAME = 'site-skills'
// Marks the guard's refusal; random, so that no tool result can pass for one.
const NONCE = `site-skills:${Math.random().toString(36).slice(2)}`
// The page calls it when a tool starts and when its synchronous part ends (see DOMAIN_GUARD). Every
// page the runtime touched can see its name; each call's signals carry a secret of that call.
const BINDING = `__siteSkills${NONCE.slice(12)}`
/** The state of each CDP session the runtime called into: nothing is kept beyond the session's own. */
const sessions = new WeakMap<CdpSendable, SessionState>()

/**
 * A call carries a user gesture (transient activation for popups, clipboard, fullscreen) when the
 * last one into this document is older than this; in between, the guard checks that the page
 * still has activation and, if not, the call goes again with a gesture (see DOMAIN_GUARD). A
 * gesture costs about a third of a bare call (bench/RESULTS.md); activation lasts 5 s in Chrome.
 */
const GESTURE_FRESH_MS = 1000

const noop = () => {}

/** Errors that mean the cached handle of the page's global object is gone, so nothing ran. */
const STALE_HANDLE_RE = /Cannot find context with specified id|Could not find object with given id/

/** What turns failures into SiteToolErrors: loaded on the first failure (see browser-errors.ts). */
const failures = () => import('./browser-errors')
/** The checks of the page's URL on Node's side: loaded for scoped tools and refusals (see page-url.ts). */
const pageUrl = () => import('./page-url')

const newWorld = (): WorldState => ({ tools: new Map() })

function stateOf(session: CdpSendable): SessionState {
  let state = sessions.get(session)
  if (!state) {
    state = { main: newWorld(), isolated: newWorld(), watched: new Set(), running: new Map(), sent: 0 }
    sessions.set(session, state)
  }
  return state
}

/** The handle of a world's global object; a new document is a new world, so the binding is added with each. */
async function globalHandle(session: CdpSendable, contextId?: number): Promise<string> {
  if (session.on) command(session, 'Runtime.addBinding', { name: BINDING, executionContextId: contextId }).catch(noop)
  const { result } = await command(session, 'Runtime.evaluate', {
    expression: 'this',
    contextId,
    objectGroup: HANDLE_GROUP,
  })
  // Only a primitive comes back without an objectId, and a world's `this` never is one.
  if (!result.objectId) throw new Error(`the page's global object came back as ${result.type}`)
  return result.objectId
}

async function isolatedHandle(session: CdpSendable): Promise<string> {
  const { frameTree } = await command(session, 'Page.getFrameTree')
  const world = await command(session, 'Page.createIsolatedWorld', {
    frameId: frameTree.frame.id,
    worldName: WORLD_NAME,
    grantUniveralAccess: false,
  })
  return globalHandle(session, world.executionContextId)
}

function handleOf(session: CdpSendable, w: WorldState, world: World): Promise<string> | string {
  const cached = w.global
  if (cached) return cached
  const fresh = world === 'isolated' ? isolatedHandle(session) : globalHandle(session)
  const settle = (value: string | undefined) => {
    if (w.global === fresh) w.global = value
  }
  fresh.then(settle, () => settle(undefined))
  w.global = fresh
  return fresh
}

/**
 * Makes the run's tool function in the world (see CACHED_START), sent after the run's own call so
 * that the call waits for nothing. Later calls in this document call it with CALL_CACHED: the
 * short declaration and the arguments are all a steady-state call sends.
 */
function cacheTool(session: CdpSendable, w: WorldState, run: Run, global: string): void {
  const entry: CachedTool = { source: run.call.code.source }
  w.tools.set(run.url, entry)
  command(session, 'Runtime.callFunctionOn', {
    functionDeclaration: wrapToolSource(entry.source, run.url, true),
    objectId: global,
    objectGroup: HANDLE_GROUP,
    silent: true,
  }).then(
    ({ result, exceptionDetails }) => {
      if (result.objectId && !exceptionDetails) entry.handle = result.objectId
      else entry.failed = true
    },
    () => {
      if (w.tools.get(run.url) === entry) w.tools.delete(run.url)
    },
  )
}

const secret = () => Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2)

/**
 * Listens to one session's page, once. Dialog events need the Page domain, crash events the
 * Inspector domain (enabling them is queued ahead of the call, so it costs no round trip; a page
 * that crashed before is reported on enable). A dialog is dismissed while a run is watched (it
 * would block the page), and fails the run that opened it: the one in its synchronous part, else
 * the oldest that started (a call still queued behind it, or on another connection, is not to
 * blame). A crash fails every watched run at once. The page's start signals come as binding
 * calls, taken only from the session and the context the run was sent to.
 */
function prepare(session: CdpSendable, state: SessionState): void {
  if (!session.on || state.pageEnabled) return
  state.pageEnabled = true
  command(session, 'Page.enable').catch(noop)
  command(session, 'Inspector.enable').catch(noop)
  listen(session, 'Page.javascriptDialogOpening', ({ type, message }) => {
    if (!state.watched.size) return
    command(session, 'Page.handleJavaScriptDialog', { accept: false }).catch(noop)
    const started = [...state.watched].filter((r) => r.phase)
    const owner = started.find((r) => r.phase === 's') ?? started[0]
    owner?.fail(siteToolError('dialog-blocking', { type, text: message }, owner))
  })
  listen(session, 'Inspector.targetCrashed', () => {
    state.crashed = true
    state.main = newWorld()
    state.isolated = newWorld()
    for (const run of state.watched) {
      // A session opened to a tab that crashed before hears of it now, before its call is sent.
      run.fail(siteToolError('page-crashed', { earlier: !run.pending }, run))
      run.done()
    }
  })
  listen(session, 'Inspector.targetReloadedAfterCrash', () => {
    state.crashed = false
  })
  listen(session, 'Runtime.bindingCalled', ({ name, payload, executionContextId }) => {
    const run = name === BINDING && state.running.get(payload.slice(1))
    if (!run || run.session !== session) return
    run.context ??= executionContextId
    if (run.context === executionContextId) run.phase = payload[0]
  })
}

/** What a call is sent to: the world's global object with the whole wrapped source, or the tool's cached function. */
interface CallTarget {
  objectId: string
  functionDeclaration: string
  shift: number
}

async function send(
  run: Run,
  session: CdpSendable,
  w: WorldState,
  to: CallTarget,
  then: () => void,
): Promise<CallResponse> {
  if (run.over) throw new Error('cancelled')
  const state = stateOf(session)
  const { running } = state
  const objectGroup = `site-skills-${++state.sent}`
  const token = secret()
  const now = Date.now()
  const gesture = run.gesture || !(now - (w.gestureAt ?? Number.NEGATIVE_INFINITY) < GESTURE_FRESH_MS)
  if (gesture) w.gestureAt = now
  const release = () => void command(session, 'Runtime.releaseObjectGroup', { objectGroup }).catch(noop)
  run.pending = true
  running.set(token, run)
  run.shift = to.shift
  const sent = command(session, 'Runtime.callFunctionOn', {
    functionDeclaration: to.functionDeclaration,
    objectId: to.objectId,
    arguments: [
      run.call.args,
      run.call.domains,
      NONCE,
      BINDING,
      token,
      gesture ? 0 : 1,
      ...(run.pathname === undefined ? [] : [run.pathname]),
    ].map((value) => ({ value })),
    returnByValue: true,
    awaitPromise: true,
    silent: true,
    ...(gesture && { userGesture: true }),
    objectGroup,
  })
  // A by-value result holds no remote objects: releasing then would only cost a round trip.
  // An exception does, and so may a late answer to a call we gave up on.
  sent.then((response) => response.exceptionDetails && release(), release)
  then()
  try {
    return await sent
  } finally {
    run.pending = false
    running.delete(token)
    if (run.over) run.done()
  }
}

/** `returnByValue` result (no exception, no refusal): unserializable numbers and bigints decoded. */
function decode(response: CallResponse): unknown {
  const { value, unserializableValue } = response.result
  if (unserializableValue === undefined) return value
  return unserializableValue.endsWith('n') ? BigInt(unserializableValue.slice(0, -1)) : Number(unserializableValue)
}

function isStale(error: unknown): boolean {
  return !(error instanceof SiteToolError) && STALE_HANDLE_RE.test(String(error))
}

async function invoke(run: Run, session: CdpSendable): Promise<unknown> {
  const state = stateOf(session)
  const world: World = run.call.isolatedWorld ? 'isolated' : 'main'
  prepare(session, state)
  if (state.crashed) throw siteToolError('page-crashed', { earlier: true }, run)
  // Scoped tools only: any other call reaches `send` without awaiting (see callBrowserTool).
  if (run.call.urls?.length)
    await (await pageUrl()).checkPath(run, session).catch(async (error) => {
      throw (await failures()).cdpFailure(error, run)
    })
  const { source } = run.call.code
  for (let renewed = false; ; ) {
    const w = state[world]
    const cached = w.tools.get(run.url)
    let response: CallResponse
    try {
      if (cached?.handle && cached.source === source) {
        const to = { objectId: cached.handle, functionDeclaration: CALL_CACHED, shift: CACHED_LINE0_SHIFT }
        response = await send(run, session, w, to, noop)
      } else {
        const handle = handleOf(session, w, world)
        const global = typeof handle === 'string' ? handle : await handle
        const to = { objectId: global, functionDeclaration: wrapToolSource(source, run.url), shift: LINE0_SHIFT }
        // None yet (or one of an older source): made now. One on its way, or that failed, is left alone.
        const make = !cached || cached.source !== source
        response = await send(run, session, w, to, () => make && cacheTool(session, w, run, global))
      }
    } catch (error) {
      if (renewed || !isStale(error)) throw (await failures()).cdpFailure(error, run)
      // A new document: its worlds start anew (the cached functions went with the old one).
      if (state[world] === w) state[world] = newWorld()
      renewed = true
      continue
    }
    if (response.exceptionDetails) throw (await failures()).toolThrew(response.exceptionDetails, run)
    // The guard's refusal: the page is off the skill's domains, or has left the checked path; or
    // it has no transient activation (see GESTURE_FRESH_MS): nothing ran, so again with a gesture.
    const { value } = response.result
    if (value && typeof value === 'object' && Object.hasOwn(value, NONCE)) {
      // A result that refers back to itself, found in the page (see RESULT_CHECK): where.
      if (Array.isArray(value[NONCE])) throw (await failures()).cyclicResult(String(value[NONCE][0]), run)
      if (value[NONCE] !== 0) throw (await pageUrl()).refusal(run, String(value[NONCE]))
      run.gesture = true
      continue
    }
    return decode(response)
  }
}

/**
 * Races the call against the deadline, dialogs and a crash (see prepare); a session that is still
 * opening counts too. Calls `watched` once the watch over the page is over (see Run).
 */
async function race(
  run: Run,
  target: OpenedTarget | Promise<OpenedTarget>,
  deadline: number,
  watched: () => void,
): Promise<unknown> {
  const stopped = new Promise<never>((_, reject) => {
    run.fail = reject
  })
  const timer = setTimeout(
    () => {
      // Only while this tool's synchronous part runs (as the page signalled; without events, while
      // the call is unanswered): a call still queued, or one that awaits, leaves the page alone.
      const { session } = run
      if (session && (session.on ? run.phase === 's' : run.pending)) {
        command(session, 'Runtime.terminateExecution').catch(noop)
      }
      run.fail(siteToolError('timeout', { within: run.call.timeoutMs ?? DEFAULT_TIMEOUT_MS }, run))
      run.done()
    },
    Math.max(0, deadline - Date.now()),
  )
  run.done = () => {
    run.done = noop
    clearTimeout(timer)
    if (run.session) stateOf(run.session).watched.delete(run)
    watched()
  }
  const start = (opened: OpenedTarget) => {
    if (run.over) throw new Error('cancelled')
    run.session = opened.session
    stateOf(opened.session).watched.add(run)
    return invoke(run, opened.session)
  }
  try {
    return await Promise.race([target instanceof Promise ? target.then(start) : start(target), stopped])
  } finally {
    run.over = true
    if (!run.pending) run.done()
  }
}

/**
 * Runs a compiled browser tool in a page over CDP and returns its result by value
 * (top-level `undefined` stays `undefined`; NaN, Infinity, -0 and bigints are decoded). In one
 * `Runtime.callFunctionOn`: the page's URL is checked against `domains`, then the tool runs with
 * `args`. Connections opened here (address, URL) are closed afterwards; a given session is not.
 * Fails with a SiteToolError: `domain-mismatch`, `url-mismatch` (see `urls`), `tool-threw` (with the tool's file and
 * line),
 * `timeout`, `context-lost`, `disconnected`, `dialog-blocking`, `page-crashed`, `target-not-found`, ...
 * `args` is the registry's copy (see copyArgs), and the registry's public functions give the errors
 * their catalog messages (withMessages): both once per call, there.
 */
export async function callBrowserTool(target: BrowserTarget, call: BrowserCall): Promise<unknown> {
  const deadline = Date.now() + (call.timeoutMs ?? DEFAULT_TIMEOUT_MS)
  const { siteId, tool, file, code } = call
  const url = toolUrl(siteId, tool)
  const run: Run = { siteId, tool, file, map: code.map, url, call, pending: false, over: false, fail: noop, done: noop }
  // No await before the command is sent: work queued meanwhile would add to the latency.
  const held = isSendable(target) ? target : heldSession(target)
  if (held) return race(run, { session: held }, deadline, noop)
  let opened: OpenedTarget | undefined
  // Connecting by address is loaded when first needed (chrome-remote-interface, the target checks).
  // Without a tab named, a page of the skill's domains is the one meant.
  const ofSkill = (page: string) => urlMatchesDomains(page, call.domains)
  const opening = import('./connect').then((c) => c.openTarget(target, ofSkill)).then((o) => (opened = o))
  // A connection opened here is closed once the page is no longer watched: with the answer, or after it.
  let closing: Promise<unknown> | undefined
  const close = () => {
    if (opened) closing = opened.close?.().catch(noop)
    else opening.then((late) => late.close?.()).catch(noop)
  }
  try {
    return await race(run, opening, deadline, close)
  } finally {
    await closing
  }
}

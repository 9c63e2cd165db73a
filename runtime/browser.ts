import { cdpFailure, STALE_HANDLE_RE, toolThrew, type CallInfo, type ExceptionDetails } from './browser-errors'
import { isSendable, openTarget, type BrowserTarget, type CdpSendable, type OpenedTarget } from './cdp'
import { SiteToolError } from './errors'
import { toolUrl, wrapToolSource } from './page-code'
import type { BrowserToolCode } from './types'

export type { BrowserTarget, CdpAddress, CdpSendable } from './cdp'

/** One call of a browser tool. */
export interface BrowserCall {
  siteId: string
  tool: string
  code: BrowserToolCode
  /** Passed to the tool as a value (never pasted into its source). */
  args: Record<string, unknown>
  /** The skill's normalized patterns (`host`, `*.host`): the page's URL must match one before the tool runs. */
  domains: readonly string[]
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

export const DEFAULT_TIMEOUT_MS = 30_000

type World = 'main' | 'isolated'

/**
 * Per connection: handles (objectIds of a world's global object), refreshed once they are gone.
 * A handle is kept as a string once known, so that a call reaches `send` without awaiting.
 */
interface SessionState {
  main?: Promise<string> | string
  isolated?: Promise<string> | string
  pageEnabled?: boolean
}

/** One call in flight: `pending` while our callFunctionOn runs, `over` once the caller has its answer. */
interface Run {
  session: CdpSendable
  call: BrowserCall
  info: CallInfo
  pending: boolean
  over: boolean
}

interface CallResponse {
  result: { value?: any; unserializableValue?: string }
  exceptionDetails?: ExceptionDetails
}

const HANDLE_GROUP = 'site-skills-handle'
const WORLD_NAME = 'site-skills'
// Marks the guard's refusal; random, so that no tool result can pass for one.
const NONCE = `site-skills:${Math.random().toString(36).slice(2)}`
const sessions = new WeakMap<CdpSendable, SessionState>()
let groups = 0

const noop = () => {}

function stateOf(session: CdpSendable): SessionState {
  let state = sessions.get(session)
  if (!state) sessions.set(session, (state = {}))
  return state
}

async function globalHandle(session: CdpSendable, contextId?: number): Promise<string> {
  const { result } = await session.send('Runtime.evaluate', { expression: 'this', contextId, objectGroup: HANDLE_GROUP })
  return result.objectId
}

async function isolatedHandle(session: CdpSendable): Promise<string> {
  const { frameTree } = await session.send('Page.getFrameTree')
  const world = await session.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: WORLD_NAME, grantUniveralAccess: false })
  return globalHandle(session, world.executionContextId)
}

function handleOf(session: CdpSendable, state: SessionState, world: World): Promise<string> | string {
  const cached = state[world]
  if (cached) return cached
  const fresh = world === 'isolated' ? isolatedHandle(session) : globalHandle(session)
  const settle = (value: string | undefined) => {
    if (state[world] === fresh) state[world] = value
  }
  fresh.then(settle, () => settle(undefined))
  return (state[world] = fresh)
}

/** Dialog events need the Page domain; enabling it is queued ahead of the call, so it costs no round trip. */
function enablePage(session: CdpSendable, state: SessionState): void {
  if (!session.on || state.pageEnabled) return
  state.pageEnabled = true
  session.send('Page.enable').catch(noop)
}

async function send(run: Run, objectId: string): Promise<CallResponse> {
  if (run.over) throw new Error('cancelled')
  const { session } = run
  const objectGroup = `site-skills-${++groups}`
  const release = () => void session.send('Runtime.releaseObjectGroup', { objectGroup }).catch(noop)
  run.pending = true
  const sent: Promise<CallResponse> = session.send('Runtime.callFunctionOn', {
    functionDeclaration: wrapToolSource(run.call.code.source, run.info.url),
    objectId,
    arguments: [{ value: run.call.args }, { value: run.call.domains }, { value: NONCE }],
    returnByValue: true,
    awaitPromise: true,
    silent: true,
    userGesture: true,
    objectGroup,
  })
  // A by-value result holds no remote objects: releasing then would only cost a round trip.
  // An exception does, and so may a late answer to a call we gave up on.
  sent.then((response) => response.exceptionDetails && release(), release)
  try {
    return await sent
  } finally {
    run.pending = false
  }
}

/** `returnByValue` result: unserializable numbers and bigints decoded, the guard's refusal thrown. */
function decode(response: CallResponse, run: Run): unknown {
  if (response.exceptionDetails) throw toolThrew(response.exceptionDetails, run.info)
  const { value, unserializableValue } = response.result
  if (unserializableValue !== undefined) {
    return unserializableValue.endsWith('n') ? BigInt(unserializableValue.slice(0, -1)) : Number(unserializableValue)
  }
  if (value && typeof value === 'object' && Object.hasOwn(value, NONCE)) {
    const patterns = run.call.domains.join(', ') || 'no domains'
    throw new SiteToolError('domain-mismatch', `refused to run on ${value[NONCE]}: it does not match ${patterns}`, who(run.info))
  }
  return value
}

function isStale(error: unknown): boolean {
  return !(error instanceof SiteToolError) && STALE_HANDLE_RE.test(String(error))
}

async function invoke(run: Run): Promise<unknown> {
  const state = stateOf(run.session)
  const world: World = run.call.isolatedWorld ? 'isolated' : 'main'
  enablePage(run.session, state)
  for (let attempt = 0; ; attempt++) {
    const handle = handleOf(run.session, state, world)
    try {
      return decode(await send(run, typeof handle === 'string' ? handle : await handle), run)
    } catch (error) {
      if (attempt > 0 || !isStale(error)) throw cdpFailure(error, run.info)
      if (state[world] === handle) state[world] = undefined
    }
  }
}

function who(info: CallInfo) {
  return { siteId: info.siteId, tool: info.tool }
}

function timeoutError(run: { call: BrowserCall; info: CallInfo }): SiteToolError {
  return new SiteToolError('timeout', `did not finish within ${run.call.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`, who(run.info))
}

/** Dismisses a dialog opened during the call (it would block the page) and fails the call. */
function watchDialogs(run: Run, fail: (error: SiteToolError) => void): () => void {
  const { session } = run
  if (!session.on) return noop
  const onDialog = (dialog: { type: string; message: string }) => {
    session.send('Page.handleJavaScriptDialog', { accept: false }).catch(noop)
    const message = `opened a ${dialog.type} dialog (${JSON.stringify(dialog.message)}), which blocks the page; it was dismissed`
    fail(new SiteToolError('dialog-blocking', message, who(run.info)))
  }
  session.on('Page.javascriptDialogOpening', onDialog)
  return () => session.off?.('Page.javascriptDialogOpening', onDialog)
}

async function runOn(session: CdpSendable, call: BrowserCall, info: CallInfo, deadline: number): Promise<unknown> {
  const run: Run = { session, call, info, pending: false, over: false }
  let fail: (error: SiteToolError) => void = noop
  const stopped = new Promise<never>((_, reject) => (fail = reject))
  const timer = setTimeout(() => {
    // Only while our call runs: it stops a busy loop; an idle page is left as it is.
    if (run.pending) session.send('Runtime.terminateExecution').catch(noop)
    fail(timeoutError(run))
  }, Math.max(0, deadline - Date.now()))
  const unwatch = watchDialogs(run, fail)
  try {
    return await Promise.race([invoke(run), stopped])
  } finally {
    run.over = true
    clearTimeout(timer)
    unwatch()
  }
}

async function openBefore(target: BrowserTarget, call: BrowserCall, info: CallInfo, deadline: number): Promise<OpenedTarget> {
  const opening = openTarget(target)
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      opening.then((late) => late.close?.(), noop)
      reject(timeoutError({ call, info }))
    }, Math.max(0, deadline - Date.now()))
  })
  return Promise.race([opening, expired]).finally(() => clearTimeout(timer))
}

/**
 * Runs a compiled browser tool in a page over CDP (SPEC section 8) and returns its result by value
 * (top-level `undefined` stays `undefined`; NaN, Infinity, -0 and bigints are decoded). In one
 * `Runtime.callFunctionOn`: the page's URL is checked against `domains`, then the tool runs with
 * `args`. Connections opened here (address, URL) are closed afterwards; a given session is not.
 * Fails with a SiteToolError: `domain-mismatch`, `tool-threw` (with the tool's file and line),
 * `timeout`, `context-lost`, `disconnected`, `dialog-blocking`, `target-not-found`, ...
 */
export async function callBrowserTool(target: BrowserTarget, call: BrowserCall): Promise<unknown> {
  const deadline = Date.now() + (call.timeoutMs ?? DEFAULT_TIMEOUT_MS)
  const info: CallInfo = { siteId: call.siteId, tool: call.tool, file: call.file, map: call.code.map, url: toolUrl(call.siteId, call.tool) }
  // No await before the command is sent: other work queued meanwhile would add to the latency.
  if (isSendable(target)) return runOn(target, call, info, deadline)
  const opened = await openBefore(target, call, info, deadline)
  try {
    return await runOn(opened.session, call, info, deadline)
  } finally {
    await opened.close?.().catch(noop)
  }
}

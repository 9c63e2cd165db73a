import { type CdpClient, command, listen } from '../../runtime/internal'

/** What a guarded request gets instead of the network: a body and its response headers. */
export interface Answer {
  body: Buffer
  headers: { name: string; value: string }[]
}

/** Decides each request of a guarded tab: an answer, or undefined to fail it (no network is touched). */
export type RequestRule = (url: string) => Answer | undefined

/**
 * Every target of a browser context the guard watches, whoever opened it (the example's tab, a
 * popup from `window.open` or a `target=_blank` link, a cross-site iframe, a worker), is paused as
 * it starts, given request interception under the context's rule, and only then let run: nothing
 * it loads reaches the network unless the rule answers it.
 */
export interface TargetGuard {
  /** Guards the targets of `contextId` by `rule`; without a rule they run unguarded (a live page). */
  watch(contextId: string, rule: RequestRule | undefined): void
  /** Settles once the target has been set up (or, unguarded, let go) and let run. */
  ready(targetId: string): Promise<void>
  forget(contextId: string): void
}

interface AttachedEvent {
  sessionId: string
  targetInfo: { targetId: string; browserContextId?: string }
}

interface PausedEvent {
  requestId: string
  request: { url: string }
}

const noop = () => {}
const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }

/** A promise per key, made by whichever side comes first (the attach event or the waiter). */
function settleMap() {
  const entries = new Map<string, { promise: Promise<void>; settle: () => void }>()
  const get = (key: string) => {
    let found = entries.get(key)
    if (!found) {
      let settle = noop
      const promise = new Promise<void>((resolve) => {
        settle = resolve
      })
      found = { promise, settle }
      entries.set(key, found)
    }
    return found
  }
  return { get, delete: (key: string) => entries.delete(key) }
}

/** Sets up browser-level auto-attach on `browser` (a flat, browser-wide connection). */
export async function createTargetGuard(browser: CdpClient): Promise<TargetGuard> {
  const contexts = new Map<string, RequestRule | undefined>()
  /** Guarded sessions: session id -> its context. */
  const sessions = new Map<string, string>()
  const readiness = settleMap()
  const contextTargets = new Map<string, Set<string>>()
  const send = (method: string, params: object | undefined, sessionId: string) =>
    (browser.send as (m: string, p: object | undefined, s: string) => Promise<unknown>)(method, params, sessionId)

  async function onAttached(event: AttachedEvent, parentSession?: string): Promise<void> {
    const { sessionId, targetInfo } = event
    const parentContext = parentSession === undefined ? undefined : sessions.get(parentSession)
    const contextId = contexts.has(targetInfo.browserContextId ?? '') ? targetInfo.browserContextId! : parentContext
    if (contextId === undefined) {
      // Not a guarded target (a live tab, another tab of a browser given with --cdp): let it go.
      await send('Runtime.runIfWaitingForDebugger', undefined, sessionId).catch(noop)
      if (parentSession === undefined) await command(browser, 'Target.detachFromTarget', { sessionId }).catch(noop)
      if (parentSession === undefined) readiness.get(targetInfo.targetId).settle()
      return
    }
    sessions.set(sessionId, contextId)
    contextTargets.get(contextId)?.add(targetInfo.targetId)
    if (contexts.get(contextId))
      await send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] }, sessionId).catch(noop)
    await send('Target.setAutoAttach', AUTO_ATTACH, sessionId).catch(noop)
    await send('Runtime.runIfWaitingForDebugger', undefined, sessionId).catch(noop)
    readiness.get(targetInfo.targetId).settle()
  }

  function onPaused(event: PausedEvent, sessionId?: string): void {
    const contextId = sessionId === undefined ? undefined : sessions.get(sessionId)
    const answer = contextId === undefined ? undefined : contexts.get(contextId)?.(event.request.url)
    const sent = answer
      ? send(
          'Fetch.fulfillRequest',
          {
            requestId: event.requestId,
            responseCode: 200,
            responseHeaders: answer.headers,
            body: answer.body.toString('base64'),
          },
          sessionId!,
        )
      : send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' }, sessionId!)
    sent.catch(noop)
  }

  // A flat connection passes the session an event came from as the listener's second argument.
  browser.on('Target.attachedToTarget', (params: unknown, sessionId?: string) => {
    void onAttached(params as AttachedEvent, sessionId)
  })
  browser.on('Fetch.requestPaused', (params: unknown, sessionId?: string) => onPaused(params as PausedEvent, sessionId))
  listen(browser, 'Target.detachedFromTarget', (event) => {
    sessions.delete(event.sessionId)
  })
  await command(browser, 'Target.setAutoAttach', AUTO_ATTACH)
  return {
    watch(contextId, rule) {
      contexts.set(contextId, rule)
      contextTargets.set(contextId, new Set())
    },
    ready: (targetId) => readiness.get(targetId).promise.finally(() => readiness.delete(targetId)),
    forget(contextId) {
      contexts.delete(contextId)
      for (const targetId of contextTargets.get(contextId) ?? []) readiness.delete(targetId)
      contextTargets.delete(contextId)
      for (const [sessionId, owner] of sessions) if (owner === contextId) sessions.delete(sessionId)
    },
  }
}

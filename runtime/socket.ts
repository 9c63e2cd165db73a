/**
 * A CDP connection over one WebSocket (opened by upgrade.ts, headers and busy answers included),
 * and the flat sessions of its targets: a remote browser fleet offers only its browser endpoint,
 * so a page is reached as a session of that one connection (`Target.attachToTarget` with
 * `flatten`), never through a WebSocket of its own.
 */
import type WebSocket from 'ws'
import type { CdpClient } from './cdp'
import { type UpgradeOptions, openWebSocket } from './upgrade'

type Listener = (params: unknown, sessionId?: string) => void

/** A connection to a browser (or to one page), with the sessions of its targets. */
export interface CdpSocket extends CdpClient {
  /** Sends a command, to the connection's own target or to a flat session of it. */
  send(method: string, params?: object, sessionId?: string): Promise<unknown>
  /** A session of `targetId` on this connection; its `close` detaches it and leaves the connection open. */
  attach(targetId: string): Promise<CdpClient>
}

interface Pending {
  method: string
  resolve: (value: unknown) => void
  reject: (error: Error) => void
  sessionId?: string
}

interface AttachedEvent {
  sessionId: string
  targetInfo: { targetId: string }
  waitingForDebugger?: boolean
}

interface Message {
  id?: number
  method?: string
  params?: unknown
  sessionId?: string
  result?: unknown
  error?: { message?: string; data?: string; code?: number }
}

/** A command the browser refused, worded as chrome-remote-interface words it (callers read the message). */
class CdpCommandError extends Error {
  override name = 'CdpCommandError'
  constructor(
    readonly method: string,
    readonly code: number | undefined,
    message: string,
  ) {
    super(message)
  }
}

const closedError = () => new Error('WebSocket connection closed')
const noop = () => {}

/** Listeners by event name; `emit` calls a snapshot, so a listener may remove itself. */
function createEmitter() {
  const all = new Map<string, Set<Listener>>()
  const off = (event: string, listener: Listener) => void all.get(event)?.delete(listener)
  const on = (event: string, listener: Listener) => {
    const set = all.get(event) ?? new Set()
    all.set(event, set)
    set.add(listener)
  }
  const once = (event: string, listener: Listener) => {
    const wrapped: Listener = (params, sessionId) => {
      off(event, wrapped)
      listener(params, sessionId)
    }
    on(event, wrapped)
  }
  const emit = (event: string, params?: unknown, sessionId?: string) => {
    for (const listener of [...(all.get(event) ?? [])]) listener(params, sessionId)
  }
  return { on, once, off, emit, clear: () => all.clear() }
}

/** Waits for `socket` to close, terminating it when a close handshake does not come in time. */
function closeSocket(socket: WebSocket): Promise<void> {
  if (socket.readyState === socket.CLOSED) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => socket.terminate(), 2_000)
    socket.once('close', () => {
      clearTimeout(timer)
      resolve()
    })
    socket.close()
  })
}

/** Opens a CDP connection to `url` (see upgrade.ts for the options and the errors). */
export async function openSocket(url: string, options: UpgradeOptions = {}): Promise<CdpSocket> {
  return createSocket(await openWebSocket(url, options))
}

function createSocket(socket: WebSocket): CdpSocket {
  const events = createEmitter()
  const sessions = new Map<string, ReturnType<typeof createEmitter>>()
  const pending = new Map<number, Pending>()
  let nextId = 1
  let closing: Promise<void> | undefined

  const rejectPending = (error: Error, sessionId?: string) => {
    for (const [id, entry] of pending)
      if (sessionId === undefined || entry.sessionId === sessionId) {
        pending.delete(id)
        entry.reject(error)
      }
  }
  const endSession = (sessionId: string) => {
    const session = sessions.get(sessionId)
    if (!session) return
    sessions.delete(sessionId)
    rejectPending(new Error(`the session was detached (${sessionId})`), sessionId)
    session.emit('disconnect')
    session.clear()
  }

  /** Target ids this connection is attaching to (see `attach`), and how many times at once. */
  const attaching = new Map<string, number>()
  /**
   * Whether an attach event is of this connection's own `attach` (its session is made now, so no
   * event of it is missed): listeners never hear of it, as they would of a target auto-attached to
   * (which waits for the debugger; an `attach` never does).
   */
  function ownAttach(params: unknown): boolean {
    const { sessionId, targetInfo, waitingForDebugger } = params as AttachedEvent
    if (waitingForDebugger || !attaching.has(targetInfo.targetId)) return false
    sessions.set(sessionId, createEmitter())
    return true
  }

  function onMessage(message: Message): void {
    if (message.id !== undefined) {
      const entry = pending.get(message.id)
      if (!entry) return
      pending.delete(message.id)
      const { error } = message
      if (!error) entry.resolve(message.result ?? {})
      else {
        const text = `${error.message ?? 'CDP error'}${error.data ? ` (${error.data})` : ''}`
        entry.reject(new CdpCommandError(entry.method, error.code, text))
      }
      return
    }
    if (typeof message.method !== 'string') return
    const { method, params, sessionId } = message
    if (method === 'Target.attachedToTarget' && sessionId === undefined && ownAttach(params)) return
    events.emit(method, params, sessionId)
    if (sessionId !== undefined) sessions.get(sessionId)?.emit(method, params)
    if (method === 'Target.detachedFromTarget') endSession((params as { sessionId: string }).sessionId)
  }

  socket.on('message', (data) => {
    let message: Message
    try {
      message = JSON.parse(String(data)) as Message
    } catch {
      return
    }
    if (message && typeof message === 'object') onMessage(message)
  })
  socket.on('error', noop)
  socket.once('close', () => {
    rejectPending(closedError())
    for (const sessionId of [...sessions.keys()]) endSession(sessionId)
    if (!closing) events.emit('disconnect')
  })

  function send(method: string, params?: object, sessionId?: string): Promise<unknown> {
    if (socket.readyState !== socket.OPEN) return Promise.reject(new Error('WebSocket is not open'))
    const id = nextId++
    return new Promise((resolve, reject) => {
      pending.set(id, { method, resolve, reject, ...(sessionId === undefined ? {} : { sessionId }) })
      const frame = JSON.stringify({ id, method, params: params ?? {}, ...(sessionId ? { sessionId } : {}) })
      socket.send(frame, (error) => {
        if (!error) return
        pending.delete(id)
        reject(error)
      })
    })
  }

  async function attach(targetId: string): Promise<CdpClient> {
    attaching.set(targetId, (attaching.get(targetId) ?? 0) + 1)
    let sessionId: string
    try {
      ;({ sessionId } = (await send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string })
    } finally {
      const left = attaching.get(targetId)! - 1
      if (left) attaching.set(targetId, left)
      else attaching.delete(targetId)
    }
    const own = sessions.get(sessionId) ?? createEmitter()
    sessions.set(sessionId, own)
    let detaching: Promise<void> | undefined
    return {
      send: (method, params) =>
        sessions.has(sessionId)
          ? send(method, params, sessionId)
          : Promise.reject(new Error(`the session was detached (${sessionId})`)),
      on: (event, listener) => own.on(event, listener),
      once: (event, listener) => own.once(event, listener),
      off: (event, listener) => own.off(event, listener),
      close: () =>
        (detaching ??= send('Target.detachFromTarget', { sessionId }).then(
          () => endSession(sessionId),
          () => endSession(sessionId),
        )),
    }
  }

  return {
    send,
    attach,
    on: events.on,
    once: events.once,
    off: events.off,
    close: () => (closing ??= closeSocket(socket)),
  }
}

/**
 * Opening a DevTools WebSocket (the `ws` package): the upgrade request carries the caller's headers
 * (a remote fleet's token), and an upgrade answered 429 or 503 is tried again after the wait the
 * endpoint asks for (`Retry-After`), a bounded number of times. Every failure is a SiteToolError:
 * `disconnected` (nothing answered), `rate-limited` (still busy after the last attempt, or asking
 * for too long a wait), `endpoint-refused` (any other answer: a bad token is 401 or 403).
 */
import type { IncomingMessage } from 'node:http'
import type WebSocket from 'ws'
import { importOptional } from './optional'
import { siteToolError } from './errors'

/** What opening a socket needs besides its URL. */
export interface UpgradeOptions {
  /** Headers of the upgrade request. */
  headers?: Record<string, string>
  /** Stops the waits between attempts (a server shutting down); the attempt fails with `disconnected`. */
  signal?: AbortSignal
}

/** Attempts at one upgrade that the endpoint answers busy: the first and up to this many more. */
const BUSY_RETRIES = 4
/** The longest `Retry-After` honoured; an endpoint asking for more fails at once. */
const MAX_WAIT_MS = 60_000
/** The wait before the next attempt when a busy answer names none: doubled each time. */
const FIRST_WAIT_MS = 1_000
const HANDSHAKE_TIMEOUT_MS = 30_000
/** As chrome-remote-interface allows: a tool's result by value may be large. */
const MAX_PAYLOAD = 256 * 1024 * 1024
const BUSY = new Set([429, 503])

type WebSocketClass = typeof WebSocket

/** How one attempt ended: the open socket, or the endpoint's answer instead of the upgrade. */
type Attempt = { socket: WebSocket } | { status: number; retryAfter?: string }

/** A URL as messages show it: no user or password, every query value hidden (tokens travel there). */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url)
    parsed.username = ''
    parsed.password = ''
    for (const key of [...parsed.searchParams.keys()]) parsed.searchParams.set(key, '…')
    return decodeURIComponent(parsed.href)
  } catch {
    return url.replace(/[?#].*$/s, '?…')
  }
}

/** `Retry-After` (seconds, or an HTTP date) in milliseconds from now; undefined when absent or unreadable. */
function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

function attempt(WS: WebSocketClass, url: string, headers: Record<string, string>): Promise<Attempt> {
  return new Promise((resolve, reject) => {
    const socket = new WS(url, [], {
      headers,
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
      maxPayload: MAX_PAYLOAD,
      perMessageDeflate: false,
    })
    const onError = (error: Error) => reject(error)
    socket.on('error', onError)
    socket.once('open', () => {
      socket.off('error', onError)
      resolve({ socket })
    })
    socket.once('unexpected-response', (_request: unknown, response: IncomingMessage) => {
      const retryAfter = response.headers['retry-after']
      resolve({ status: response.statusCode ?? 0, ...(retryAfter ? { retryAfter } : {}) })
      response.resume()
      // Settled: what closing the refused handshake reports is no news.
      socket.on('error', () => {})
      socket.terminate()
    })
  })
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer)
      reject(new Error('aborted'))
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop)
      resolve()
    }, ms)
    if (signal?.aborted) stop()
    else signal?.addEventListener('abort', stop, { once: true })
  })
}

/**
 * Opens a WebSocket to `url` with `options.headers`, waiting out busy answers (429, 503) as the
 * endpoint asks, at most BUSY_RETRIES times. Rejects with a SiteToolError (see the file's comment).
 */
export async function openWebSocket(url: string, options: UpgradeOptions = {}): Promise<WebSocket> {
  const endpoint = shownUrl(url)
  const WS = (
    await importOptional<{ default: WebSocketClass }>('ws').catch((cause: unknown) => {
      throw siteToolError('unavailable', { module: 'ws' }, { cause })
    })
  ).default
  for (let retry = 0; ; retry++) {
    const outcome = await attempt(WS, url, options.headers ?? {}).catch((cause: unknown) => {
      throw siteToolError('disconnected', { connect: endpoint }, { cause })
    })
    if ('socket' in outcome) return outcome.socket
    const { status } = outcome
    if (!BUSY.has(status)) throw siteToolError('endpoint-refused', { endpoint, status })
    const asked = retryAfterMs(outcome.retryAfter)
    if (asked !== undefined && asked > MAX_WAIT_MS)
      throw siteToolError('rate-limited', { endpoint, status, attempts: retry + 1, askedMs: asked })
    if (retry === BUSY_RETRIES) throw siteToolError('rate-limited', { endpoint, status, attempts: retry + 1 })
    await sleep(asked ?? FIRST_WAIT_MS * 2 ** retry, options.signal).catch((cause: unknown) => {
      throw siteToolError('disconnected', { connect: endpoint }, { cause })
    })
  }
}

import { setTimeout as delay } from 'node:timers/promises'
import { type CdpSocket, openSocket, shownUrl, siteToolError } from '../../runtime/internal'
import type { BrowserEndpoint } from './endpoint'

/**
 * A connection to a browser that comes back: when the endpoint drops it (a remote fleet closing an
 * idle connection, a proxy restarting), it is opened again after a growing wait, a bounded number
 * of times, and set up anew before anyone uses it. For the long-lived users: the MCP server and
 * `site-skills test`. (A one-shot `run` fails with `disconnected` instead.)
 */
export interface BrowserLink {
  /**
   * The connection: the open one, else the one being made. Rejects with `disconnected` once the
   * attempts are spent; the next call starts over.
   */
  socket(): Promise<CdpSocket>
  /** How many times the connection dropped: a change during a piece of work means it ran into a drop. */
  drops(): number
  close(): Promise<void>
}

export interface LinkOptions {
  /** Sets up each new connection (discovery, auto-attach) before it is handed out. */
  setup: (socket: CdpSocket) => Promise<void>
  /** One line for the user (stderr): a drop and a reconnect. */
  log?: (line: string) => void
  /** Called when every attempt to reconnect failed (the browser is gone, for now). */
  onLost?: (error: Error) => void
  /** The waits before each reconnect attempt. @default RECONNECT_WAITS_MS, or $SITE_SKILLS_RECONNECT_WAITS_MS */
  waitsMs?: readonly number[]
}

/** Waits before each reconnect attempt: the first soon, then longer. */
const RECONNECT_WAITS_MS = [250, 500, 1_000, 2_000, 4_000, 8_000]
/** At most this many attempts, each wait at most a minute, whatever the environment asks. */
const WAITS_MAX = 20
const WAIT_MAX_MS = 60_000

/**
 * The waits `$SITE_SKILLS_RECONNECT_WAITS_MS` sets (milliseconds, comma-separated: `100,100` gives up
 * after two quick attempts), else the defaults.
 */
function reconnectWaits(text = process.env.SITE_SKILLS_RECONNECT_WAITS_MS): readonly number[] {
  const waits = (text ?? '')
    .split(',')
    .filter((w) => w.trim() !== '')
    .map(Number)
  if (waits.length === 0 || waits.length > WAITS_MAX) return RECONNECT_WAITS_MS
  return waits.every((w) => Number.isInteger(w) && w >= 0 && w <= WAIT_MAX_MS) ? waits : RECONNECT_WAITS_MS
}

const noop = () => {}

/** Connects to `endpoint` now (failing as openSocket does), and again whenever the connection drops. */
export async function connectLink(endpoint: BrowserEndpoint, options: LinkOptions): Promise<BrowserLink> {
  const shown = shownUrl(endpoint.url)
  const stop = new AbortController()
  const socketOptions = { ...(endpoint.headers ? { headers: endpoint.headers } : {}), signal: stop.signal }
  let drops = 0
  let live: CdpSocket | undefined
  let current: Promise<CdpSocket>
  let failed = false

  async function open(): Promise<CdpSocket> {
    const socket = await openSocket(endpoint.url, socketOptions)
    try {
      await options.setup(socket)
    } catch (error) {
      await socket.close()
      throw error
    }
    if (stop.signal.aborted) {
      await socket.close()
      throw siteToolError('disconnected', { connect: shown })
    }
    socket.once('disconnect', () => dropped(socket))
    live = socket
    return socket
  }

  async function reconnect(): Promise<CdpSocket> {
    let last: unknown
    const waits = options.waitsMs ?? reconnectWaits()
    for (const wait of waits) {
      await delay(wait, undefined, { signal: stop.signal }).catch(noop)
      if (stop.signal.aborted) break
      try {
        const socket = await open()
        options.log?.(`reconnected to ${shown}`)
        return socket
      } catch (error) {
        last = error
      }
    }
    failed = true
    const error = siteToolError('disconnected', { lost: shown, attempts: waits.length }, { cause: last })
    if (!stop.signal.aborted) options.onLost?.(error)
    throw error
  }

  function dropped(socket: CdpSocket): void {
    if (socket !== live || stop.signal.aborted) return
    live = undefined
    drops++
    options.log?.(`lost the connection to ${shown}; reconnecting`)
    current = reconnect()
    current.catch(noop)
  }

  current = open()
  await current
  return {
    socket() {
      if (failed) {
        failed = false
        current = reconnect()
      }
      return current
    },
    drops: () => drops,
    async close() {
      stop.abort()
      const socket = live
      live = undefined
      await current.catch(noop)
      await socket?.close()
    },
  }
}

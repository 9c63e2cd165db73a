import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import WebSocket from 'ws'

type RawData = WebSocket.Data

/**
 * A stand-in for a remote browser fleet (Browserbase, browserless, Steel): one WebSocket endpoint
 * in front of a real Chromium's browser endpoint, speaking plain CDP, that demands a token (in the
 * URL's `token` query or in a header), answers `429` with `Retry-After` while it is "busy", and
 * drops connections on command. It offers no `/json/...` and no page endpoints, as fleets do not.
 */
export interface CdpProxy {
  /** `ws://127.0.0.1:PORT/connect` (add `?token=` or send the header). */
  url: string
  /** Every upgrade asked for, with the HTTP status it got (101 when it went through). */
  upgrades: { status: number; auth: 'header' | 'query' | 'none' }[]
  /** Answers the next `count` authorized upgrades with 429 and this `Retry-After` (seconds or a date). */
  busy(count: number, retryAfter: string): void
  /** Drops every open connection now, as a fleet closing idle ones. */
  drop(): void
  /** Drops every open connection when a client sends a command for which `when(method)` is true (once). */
  dropOn(when: (method: string) => boolean): void
  /** How many client connections are open. */
  open(): number
  /** Methods the clients sent, in order. */
  sent: string[]
  close(): Promise<void>
}

export interface CdpProxyOptions {
  /** The browser's own WebSocket endpoint. */
  upstream: string
  token: string
  /** The header that may carry the token. @default 'x-api-key' */
  header?: string
}

function refuse(socket: Socket, status: string, headers: string[] = []): void {
  socket.end([`HTTP/1.1 ${status}`, 'Connection: close', 'Content-Length: 0', ...headers, '', ''].join('\r\n'))
}

/** Starts the proxy on a free port of 127.0.0.1. */
export async function startCdpProxy(options: CdpProxyOptions): Promise<CdpProxy> {
  const header = (options.header ?? 'x-api-key').toLowerCase()
  const upgrades: CdpProxy['upgrades'] = []
  const sent: string[] = []
  const pairs = new Set<{ client: WebSocket; browser: WebSocket }>()
  let busy = { count: 0, retryAfter: '1' }
  let dropWhen: ((method: string) => boolean) | undefined
  const wss = new WebSocket.Server({ noServer: true })

  const drop = () => {
    for (const pair of pairs) {
      pair.client.terminate()
      pair.browser.terminate()
    }
    pairs.clear()
  }

  /** Pipes one client connection to a new connection of the browser, frame for frame. */
  function bridge(client: WebSocket): void {
    const browser = new WebSocket(options.upstream, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 })
    const pair = { client, browser }
    pairs.add(pair)
    const early: RawData[] = []
    const toBrowser = (data: RawData) => {
      let method = ''
      try {
        method = String((JSON.parse(String(data)) as { method?: unknown }).method ?? '')
      } catch {}
      sent.push(method)
      if (dropWhen?.(method)) {
        dropWhen = undefined
        drop()
        return
      }
      if (browser.readyState === WebSocket.OPEN) browser.send(data)
      else early.push(data)
    }
    client.on('message', (data) => toBrowser(data as RawData))
    browser.on('open', () => {
      for (const data of early.splice(0)) browser.send(data)
    })
    browser.on('message', (data) => client.readyState === WebSocket.OPEN && client.send(data))
    const end = () => {
      pairs.delete(pair)
      client.terminate()
      browser.terminate()
    }
    client.on('close', end).on('error', end)
    browser.on('close', end).on('error', end)
  }

  const server = createServer((_req, res) => res.writeHead(404).end())
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const query = new URL(req.url ?? '/', 'http://proxy').searchParams.get('token')
    const given = req.headers[header]
    const auth = given === options.token ? 'header' : query === options.token ? 'query' : 'none'
    if (auth === 'none') {
      upgrades.push({ status: 401, auth })
      return refuse(socket, '401 Unauthorized')
    }
    if (busy.count > 0) {
      busy.count--
      upgrades.push({ status: 429, auth })
      return refuse(socket, '429 Too Many Requests', [`Retry-After: ${busy.retryAfter}`])
    }
    upgrades.push({ status: 101, auth })
    wss.handleUpgrade(req, socket, head, bridge)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/connect`,
    upgrades,
    sent,
    busy(count, retryAfter) {
      busy = { count, retryAfter }
    },
    drop,
    dropOn(when) {
      dropWhen = when
    },
    open: () => pairs.size,
    async close() {
      drop()
      wss.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { NodeStreamableHTTPServerTransport as StreamableHTTPServerTransport } from '@modelcontextprotocol/node'
import { isInitializeRequest, type Server } from '@modelcontextprotocol/server'
import type { ModernEndpoint } from './modern'

/** The Streamable HTTP endpoint (`http://127.0.0.1:PORT/mcp`), one MCP session per client. */
export interface HttpEndpoint {
  url: string
  close: () => Promise<void>
}

const PATH = '/mcp'
const MAX_BODY = 4 * 1024 * 1024
/**
 * A client whose response stream broke before its answer and that sends nothing more within this
 * time is gone: its session closes (and with it the tabs opened for it).
 */
const ABANDON_MS = 2000

interface Session {
  transport: StreamableHTTPServerTransport
  abandon?: ReturnType<typeof setTimeout>
}

/** The ids of the requests in a JSON-RPC message or batch. */
function requestIds(body: unknown): (string | number)[] {
  const messages = Array.isArray(body) ? body : [body]
  return messages.flatMap((m) => {
    const { id, method } = (m ?? {}) as { id?: unknown; method?: unknown }
    return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? [id] : []
  })
}

/**
 * Follows one HTTP exchange of a session: a stream that closes before its answer was written is a
 * client that went away. Its requests are cancelled (as a `notifications/cancelled` would), and
 * the session ends unless the client comes back.
 */
function follow(session: Session, res: ServerResponse, body: unknown): void {
  clearTimeout(session.abandon)
  session.abandon = undefined
  const ids = requestIds(body)
  res.once('close', () => {
    if (res.writableFinished) return
    for (const requestId of ids) {
      const params = { requestId, reason: 'the client disconnected' }
      session.transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params })
    }
    clearTimeout(session.abandon)
    session.abandon = setTimeout(() => void session.transport.close().catch(() => undefined), ABANDON_MS)
  })
}

function reply(res: ServerResponse, status: number, message: string, code = -32000): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }))
}

/** A body that is not JSON (or too large). */
const UNREADABLE = Symbol('unreadable')

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY) throw new Error('request body too large')
    chunks.push(chunk)
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'))
}

/** Local names only: a page of another site that resolves its name to 127.0.0.1 (DNS rebinding) is refused. */
function localRequest(req: IncomingMessage, port: number): boolean {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]
  const origin = req.headers.origin
  return hosts.includes(req.headers.host ?? '') && (!origin || hosts.some((h) => origin === `http://${h}`))
}

/**
 * Serves MCP over Streamable HTTP on 127.0.0.1: 2026-07-28 requests to `modern`, 2025-era ones to
 * sessions (`connect` makes the server of each new one).
 */
export async function serveHttp(port: number, connect: () => Server, modern: ModernEndpoint): Promise<HttpEndpoint> {
  const sessions = new Map<string, Session>()
  let http: HttpServer | undefined

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const actual = (http!.address() as AddressInfo).port
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== PATH) return reply(res, 404, `not found: use ${PATH}`)
    if (!localRequest(req, actual)) return reply(res, 403, 'forbidden Host or Origin header')
    const id = req.headers['mcp-session-id']
    const existing = typeof id === 'string' ? sessions.get(id) : undefined
    const body = req.method === 'POST' ? await readJson(req).catch(() => UNREADABLE) : undefined
    if (body === UNREADABLE) return reply(res, 400, 'parse error: the body is not JSON', -32700)
    if (Array.isArray(body))
      return reply(
        res,
        400,
        'JSON-RPC batches are not accepted (MCP removed them in 2025-06-18): send one message per request',
        -32600,
      )
    if (await modern.claims(req, body)) return modern.handle(req, res, body)
    if (existing) {
      follow(existing, res, body)
      return existing.transport.handleRequest(req, res, body)
    }
    if (req.method !== 'POST') return reply(res, 400, 'no valid mcp-session-id')
    if (!isInitializeRequest(body)) return reply(res, 400, 'no valid mcp-session-id (or not an initialize request)')
    const session: Session = {
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sid) => void sessions.set(sid, session),
      }),
    }
    const { transport } = session
    transport.onclose = () => {
      clearTimeout(session.abandon)
      if (transport.sessionId) sessions.delete(transport.sessionId)
    }
    await connect().connect(transport)
    follow(session, res, body)
    await transport.handleRequest(req, res, body)
  }

  http = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (!res.headersSent) reply(res, 500, error.message)
    })
  })
  await new Promise<void>((resolve, reject) => {
    http!.once('error', reject)
    http!.listen(port, '127.0.0.1', () => resolve())
  })
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}${PATH}`
  return {
    url,
    async close() {
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => undefined)))
      http!.closeAllConnections()
      await new Promise((resolve) => http!.close(resolve))
    },
  }
}

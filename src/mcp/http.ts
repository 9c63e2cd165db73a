import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { NodeStreamableHTTPServerTransport as StreamableHTTPServerTransport } from '@modelcontextprotocol/node'
import { isInitializeRequest, type Server } from '@modelcontextprotocol/server'
import { type BodyRead, discardRest, readBody, requestIds } from './http-body'
import type { ModernEndpoint } from './modern'

/** The Streamable HTTP endpoint (`http://127.0.0.1:PORT/mcp`), one MCP session per client. */
export interface HttpEndpoint {
  url: string
  close: () => Promise<void>
}

/** How many sessions the endpoint keeps, and for how long one may sit idle. */
export interface SessionLimits {
  /** `--max-sessions`: an `initialize` beyond it is refused (503) until one ends. */
  max: number
  /** `--session-idle` in ms: a session with no request open for this long is closed. */
  idleMs: number
}

const PATH = '/mcp'
/**
 * A client whose response stream broke before its answer and that sends nothing more within this
 * time is gone: its session closes (and with it the tabs opened for it).
 */
const ABANDON_MS = 2000

interface Session {
  transport: StreamableHTTPServerTransport
  /** HTTP exchanges of the session not finished yet (a call, the notification stream). */
  open: number
  /** Closes the session once it has been idle, or abandoned. */
  timer?: ReturnType<typeof setTimeout>
}

function reply(res: ServerResponse, status: number, message: string, code = -32000, id: unknown = null): void {
  res.writeHead(status, { 'content-type': 'application/json', ...(status === 503 ? { 'retry-after': '60' } : {}) })
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }))
}

/** The one request's id, for the error that answers it (null for a batch or a notification). */
function idOf(body: unknown): unknown {
  const ids = requestIds(body)
  return !Array.isArray(body) && ids.length === 1 ? ids[0] : null
}

/** Local names only: a page of another site that resolves its name to 127.0.0.1 (DNS rebinding) is refused. */
function localRequest(req: IncomingMessage, port: number): boolean {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]
  const origin = req.headers.origin
  return hosts.includes(req.headers.host ?? '') && (!origin || hosts.some((h) => origin === `http://${h}`))
}

const closeSession = (session: Session) => void session.transport.close().catch(() => undefined)

/** Starts (again) the session's countdown to its end. */
function countdown(session: Session, ms: number): void {
  clearTimeout(session.timer)
  session.timer = setTimeout(() => closeSession(session), ms)
  session.timer.unref()
}

/**
 * Follows one HTTP exchange of a session. While one is open the session is in use; once none is,
 * it closes after the idle time. A stream that closes before its answer was written is a client
 * that went away: its requests are cancelled (as a `notifications/cancelled` would), and the
 * session ends unless the client comes back within ABANDON_MS.
 */
function follow(session: Session, res: ServerResponse, body: unknown, limits: SessionLimits): void {
  clearTimeout(session.timer)
  session.timer = undefined
  session.open++
  const ids = requestIds(body)
  res.once('close', () => {
    session.open--
    if (!res.writableFinished) {
      for (const requestId of ids) {
        const params = { requestId, reason: 'the client disconnected' }
        session.transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params })
      }
      return countdown(session, Math.min(ABANDON_MS, limits.idleMs))
    }
    if (session.open === 0 && session.timer === undefined) countdown(session, limits.idleMs)
  })
}

function refuseBody(req: IncomingMessage, res: ServerResponse, read: Exclude<BodyRead, { json: unknown }>): void {
  if (read.tooLarge) {
    const mib = read.limit / (1024 * 1024)
    reply(res, 413, `the request body is too large: over ${mib} MiB (send smaller messages)`, -32600)
    discardRest(req)
  } else reply(res, 400, 'parse error: the body is not JSON', -32700)
}

/**
 * Serves MCP over Streamable HTTP on 127.0.0.1: 2026-07-28 requests to `modern` (stateless), 2025-era
 * ones to sessions (`connect` makes the server of each new one). At most `limits.max` sessions live
 * at once (counted from their `initialize`), and each ends after `limits.idleMs` without a request open.
 */
export async function serveHttp(
  port: number,
  connect: () => Server,
  limits: SessionLimits,
  modern: ModernEndpoint,
): Promise<HttpEndpoint> {
  /** Every live session, initialized or on its way. */
  const live = new Set<Session>()
  const sessions = new Map<string, Session>()
  let http: HttpServer | undefined

  function openSession(): Session {
    const session: Session = {
      open: 0,
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sid) => void sessions.set(sid, session),
      }),
    }
    live.add(session)
    session.transport.onclose = () => {
      clearTimeout(session.timer)
      live.delete(session)
      if (session.transport.sessionId) sessions.delete(session.transport.sessionId)
    }
    return session
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const actual = (http!.address() as AddressInfo).port
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== PATH) return reply(res, 404, `not found: use ${PATH}`)
    if (!localRequest(req, actual)) return reply(res, 403, 'forbidden Host or Origin header')
    const id = req.headers['mcp-session-id']
    const existing = typeof id === 'string' ? sessions.get(id) : undefined
    const read = req.method === 'POST' ? await readBody(req) : { json: undefined }
    if (!('json' in read)) return refuseBody(req, res, read)
    const body = read.json
    if (Array.isArray(body))
      return reply(
        res,
        400,
        'JSON-RPC batches are not accepted (MCP removed them in 2025-06-18): send one message per request',
        -32600,
      )
    if (modern.claims(req, body)) return modern.handle(req, res, body)
    if (existing) {
      follow(existing, res, body, limits)
      return existing.transport.handleRequest(req, res, body)
    }
    // A session that ended (closed by its client, idle, or the server restarted): the client starts a new one.
    if (typeof id === 'string')
      return reply(res, 404, 'no session has this mcp-session-id (it ended): initialize a new one', -32001, idOf(body))
    if (req.method !== 'POST') return reply(res, 400, 'no valid mcp-session-id')
    if (!isInitializeRequest(body))
      return reply(res, 400, 'no valid mcp-session-id (or not an initialize request)', -32000, idOf(body))
    if (live.size >= limits.max)
      return reply(
        res,
        503,
        `too many sessions: ${live.size} are open, the most this server keeps (--max-sessions ${limits.max}); ` +
          'close one or try again later',
        -32000,
        idOf(body),
      )
    const session = openSession()
    await connect().connect(session.transport)
    follow(session, res, body, limits)
    await session.transport.handleRequest(req, res, body)
    // An initialize the transport refused made no session: nothing of it is kept.
    if (!session.transport.sessionId) closeSession(session)
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
      await Promise.all([...live].map((s) => s.transport.close().catch(() => undefined)))
      http!.closeAllConnections()
      await new Promise((resolve) => http!.close(resolve))
    },
  }
}

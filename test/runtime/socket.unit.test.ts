import { createServer, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { type SiteToolError, isSiteToolError } from '../../runtime/errors'
// Through the host-side door, which loads the error catalog: messages are whole at once.
import { openSocket, openTarget, shownUrl } from '../../runtime/internal'

/** A WebSocket endpoint that answers each upgrade as `answer` says, and each frame as `reply` does. */
interface Endpoint {
  url: string
  statuses: number[]
  headers: Record<string, string | string[] | undefined>[]
  close(): Promise<void>
}

type Answer = { status: number; retryAfter?: string } | 'open'

let servers: Server[] = []

async function endpoint(answers: Answer[], reply: (socket: WebSocket, frame: { id: number; method: string }) => void) {
  const wss = new WebSocket.Server({ noServer: true })
  const statuses: number[] = []
  const headers: Endpoint['headers'] = []
  const server = createServer()
  server.on('upgrade', (req, socket: Socket, head) => {
    headers.push(req.headers)
    const answer = answers.shift() ?? 'open'
    if (answer !== 'open') {
      statuses.push(answer.status)
      const retry = answer.retryAfter ? [`Retry-After: ${answer.retryAfter}`] : []
      socket.end(
        [`HTTP/1.1 ${answer.status} No`, 'Connection: close', 'Content-Length: 0', ...retry, '', ''].join('\r\n'),
      )
      return
    }
    statuses.push(101)
    wss.handleUpgrade(req, socket, head, (ws) =>
      ws.on('message', (data) => reply(ws, JSON.parse(String(data)) as { id: number; method: string })),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push(server)
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/connect?token=secret-value`,
    statuses,
    headers,
    async close() {
      wss.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

async function failure(promise: Promise<unknown>): Promise<SiteToolError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!isSiteToolError(error)) throw new Error(`expected a SiteToolError, got ${String(error)}`)
  return error
}

afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))))
  servers = []
})

describe('a CDP socket to an endpoint that misbehaves', () => {
  it('ignores frames that are not answers it waits for, and still gets its answer', async () => {
    const server = await endpoint([], (ws, frame) => {
      ws.send('not json')
      ws.send('null')
      ws.send('[1,2]')
      ws.send(JSON.stringify({ id: 999_999, result: {} }))
      ws.send(JSON.stringify({ method: 'Some.event', params: { big: 'x'.repeat(100_000) } }))
      ws.send(JSON.stringify({ id: frame.id, result: { ok: frame.method } }))
    })
    const socket = await openSocket(server.url)
    expect(await socket.send('Browser.getVersion')).toEqual({ ok: 'Browser.getVersion' })
    await socket.close()
    await server.close()
  })

  it("rejects a refused command with the endpoint's message, and pending ones when the socket closes", async () => {
    const server = await endpoint([], (ws, frame) => {
      if (frame.method === 'Fail.me')
        ws.send(JSON.stringify({ id: frame.id, error: { code: -32000, message: 'No target', data: 'id 7' } }))
      else ws.terminate()
    })
    const socket = await openSocket(server.url)
    await expect(socket.send('Fail.me')).rejects.toThrow('No target (id 7)')
    await expect(socket.send('Hang.up')).rejects.toThrow('WebSocket connection closed')
    await expect(socket.send('After.close')).rejects.toThrow('WebSocket is not open')
    await server.close()
  })
})

describe('the upgrade: headers, busy answers, refusals', () => {
  it('sends the headers, and waits out a 503 and a 429 whose Retry-After is a date', async () => {
    const past = new Date(Date.now() - 60_000).toUTCString()
    const server = await endpoint(
      [
        { status: 503, retryAfter: '0' },
        { status: 429, retryAfter: past },
      ],
      (ws, f) => ws.send(JSON.stringify({ id: f.id, result: {} })),
    )
    const socket = await openSocket(server.url, { headers: { 'x-api-key': 'k1' } })
    expect(server.statuses).toEqual([503, 429, 101])
    expect(server.headers.map((h) => h['x-api-key'])).toEqual(['k1', 'k1', 'k1'])
    await socket.close()
    await server.close()
  })

  it('says rate-limited after five busy answers and endpoint-refused on any other, never with the token', async () => {
    const busy = await endpoint(
      Array.from({ length: 9 }, () => ({ status: 429, retryAfter: '0' })),
      () => {},
    )
    const limited = await failure(openSocket(busy.url))
    expect(limited.code).toBe('rate-limited')
    expect(busy.statuses).toHaveLength(5)
    expect(limited.message).not.toContain('secret-value')
    const refusing = await endpoint([{ status: 403 }], () => {})
    const refused = await failure(openSocket(refusing.url))
    expect(refused.code).toBe('endpoint-refused')
    expect(refused.message).toContain('HTTP 403 (not authorized')
    expect(refused.message).not.toContain('secret-value')
    await busy.close()
    await refusing.close()
  })

  it('refuses headers that are not header names and one-line values before connecting', async () => {
    for (const headers of [{ 'bad name': 'x' }, { ok: 'line\r\nbreak' }, { ok: 7 }, []]) {
      const error = await failure(openTarget({ url: 'ws://127.0.0.1:9/devtools/browser/x', headers } as never))
      expect(error.code).toBe('invalid-target')
      expect(error.message).toContain('headers must be an object of header names')
    }
  })

  it('shows a URL without its credentials and query values', () => {
    expect(shownUrl('wss://user:pw@connect.example.com/s?apiKey=abc&sessionId=1')).toBe(
      'wss://connect.example.com/s?apiKey=…&sessionId=…',
    )
    expect(shownUrl('wss://[oops?token=abc')).toBe('wss://[oops?…')
  })
})

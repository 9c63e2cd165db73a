import type { ChildProcess } from 'node:child_process'
import { readdir } from 'node:fs/promises'
import { request } from 'node:http'
import { join } from 'node:path'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { makeTempDir } from '../helpers/tmp'
import { connectClient, createWorld, type Watched, type World, worldArgs } from './harness'
import { type Exited, runBin } from '../helpers/spawn'
import { httpServer } from './modern'

let world: World
let child: ChildProcess
let exited: Promise<Exited>
let url = ''

/** One POST of a JSON-RPC message as a client without the SDK sends it: status, session id, and its answers. */
async function post(body: unknown, session?: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...(session ? { 'mcp-session-id': session } : {}),
    },
    body: JSON.stringify(body),
  })
  const text = await response.text()
  // An answer comes as JSON, or as server-sent events whose `data:` lines hold it.
  const lines = text.startsWith('{') ? [text] : text.split('\n').filter((l) => l.startsWith('data: '))
  const answers = lines.map((l) => JSON.parse(l.replace(/^data: /, '')) as Record<string, unknown>)
  return { status: response.status, session: response.headers.get('mcp-session-id') ?? undefined, answers }
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
}

/** A session opened by hand, initialized, which then sends nothing more (a client that went quiet). */
async function rawSession(): Promise<string> {
  const opened = await post(INITIALIZE)
  expect(opened.status, JSON.stringify(opened.answers)).toBe(200)
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, opened.session)
  return opened.session!
}

/**
 * POSTs `size` bytes of one JSON message, with a Content-Length (`declared`) or chunked, as fast as
 * the server reads them; resolves at the answer, with the bytes sent by then.
 */
function postLarge(size: number, declared: boolean): Promise<{ status: number; body: string; sent: number }> {
  const head = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"'
  const headers = { 'content-type': 'application/json', ...(declared ? { 'content-length': String(size) } : {}) }
  return new Promise((resolve, reject) => {
    let sent = head.length
    let status = 0
    let body = ''
    const done = () => resolve({ status, body, sent })
    const req = request(url, { method: 'POST', headers }, (res) => {
      status = res.statusCode!
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
      res.on('end', () => {
        done()
        req.destroy()
      })
    })
    // Without an answer, the connection's end (a server that cut it) settles it: status 0.
    req.on('close', done)
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error)
    })
    const chunk = Buffer.alloc(256 * 1024, 0x20)
    const more = () => {
      while (sent < size && !req.destroyed) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent))
        sent += part.length
        if (!req.write(part)) return void req.once('drain', more)
      }
      if (!req.destroyed) req.end()
    }
    req.write(head)
    more()
  })
}

const pageUrls = async () => {
  const list = (await (await fetch(`http://127.0.0.1:${world.browser.port}/json/list`)).json()) as { url: string }[]
  return list.map((t) => t.url)
}

beforeAll(async () => {
  world = await createWorld()
  ;({ url, child, exited } = await httpServer(['--max-sessions', '2', '--session-idle', '2', ...worldArgs(world)]))
})

afterAll(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL')
  await world?.close()
})

describe('site-skills mcp --http keeps a bounded number of sessions', () => {
  it('answers 413 to a body over 4 MiB, saying it is too large, and stops reading it', async () => {
    for (const declared of [false, true]) {
      const answer = await postLarge(20 * 1024 * 1024, declared)
      expect(answer.status, `declared: ${declared}`).toBe(413)
      expect(JSON.parse(answer.body)).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32600, message: expect.stringContaining('too large: over 4 MiB') },
      })
      // It stopped reading: far less than the body reached the server before it answered.
      expect(answer.sent, `declared: ${declared}`).toBeLessThan(20 * 1024 * 1024)
    }
    // The server goes on serving.
    expect((await post({ jsonrpc: '2.0', id: 9, method: 'ping' })).status).toBe(400)
  })

  it('refuses a session past --max-sessions with a JSON-RPC error (503), and takes one again once a session ends', async () => {
    const held: Watched[] = []
    for (let i = 0; i < 2; i++) held.push(await connectClient(new StreamableHTTPClientTransport(new URL(url))))
    // The SDK's clients keep their notification stream open: busy, never idle.
    const refused = await post(INITIALIZE)
    expect(refused.status).toBe(503)
    expect(refused.answers).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32000,
          message: expect.stringMatching(/^too many sessions: 2 are open, .*\(--max-sessions 2\)/),
        },
      },
    ])
    await expect(connectClient(new StreamableHTTPClientTransport(new URL(url)))).rejects.toThrow(/too many sessions/)
    // Both held sessions still work.
    for (const mcp of held) expect((await mcp.client.listTools()).tools.length).toBeGreaterThan(0)
    await held[0]!.client.close()
    const next = await vi.waitFor(() => connectClient(new StreamableHTTPClientTransport(new URL(url))), {
      timeout: 15_000,
      interval: 200,
    })
    await Promise.all([next.client.close(), held[1]!.client.close()])
  })

  it('closes a session idle for --session-idle seconds, and the tab opened for it', async () => {
    // The sessions of the test before end (their streams broke) and make room.
    const session = await vi.waitFor(rawSession, { timeout: 15_000, interval: 200 })
    const mine = `${world.url('alpha.test')}?client=idle`
    const navigate = { name: 'site_skills_navigate', arguments: { url: mine } }
    const opened = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: navigate }, session)
    expect(opened.answers[0], JSON.stringify(opened.answers)).toMatchObject({ id: 2, result: {} })
    expect(await pageUrls()).toContain(mine)
    // Nothing is sent meanwhile (a request would be a sign of life): the browser shows the session's end.
    await expect.poll(pageUrls, { timeout: 15_000, message: 'its tab to close' }).not.toContain(mine)
    const ended = await post({ jsonrpc: '2.0', id: 3, method: 'ping' }, session)
    expect(ended.status).toBe(404)
    expect(ended.answers[0]).toMatchObject({ error: { message: expect.stringContaining('initialize a new one') } })
  })

  it("refuses a client's call past 32 at once with a JSON-RPC error, and runs the next once one ended", async () => {
    const { dir, cleanup } = await makeTempDir('mcp-calls-')
    const mcp = await vi.waitFor(() => connectClient(new StreamableHTTPClientTransport(new URL(url))), {
      timeout: 15_000,
      interval: 200,
    })
    await mcp.client.callTool({ name: 'site_skills_navigate', arguments: { url: world.url('alpha.test') } })
    const stop = new AbortController()
    const hang = (i: number) =>
      mcp.client
        .callTool({ name: 'alpha__hang', arguments: { marker: join(dir, `call${i}`) } }, undefined, {
          signal: stop.signal,
          timeout: 120_000,
        })
        .catch((error: Error) => error)
    const running = Array.from({ length: 32 }, (_, i) => hang(i))
    await expect
      .poll(async () => (await readdir(dir)).filter((f) => f.endsWith('.started')).length, { timeout: 20_000 })
      .toBe(32)
    await expect(mcp.client.callTool({ name: 'alpha__where', arguments: {} })).rejects.toThrow(
      /too many calls at once: 32 of yours are running/,
    )
    stop.abort()
    await Promise.all(running)
    const where = await mcp.client.callTool({ name: 'alpha__where', arguments: {} })
    expect(where.structuredContent).toMatchObject({ url: world.url('alpha.test') })
    await mcp.client.close()
    await cleanup()
  })

  it('refuses a JSON-RPC batch, of any size (MCP removed batches in 2025-06-18): each would start a request', async () => {
    const session = await vi.waitFor(rawSession, { timeout: 15_000, interval: 200 })
    const pings = (n: number) => Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 10, method: 'ping' }))
    for (const n of [65, 2]) {
      const refused = await post(pings(n), session)
      expect(refused.status).toBe(400)
      expect(refused.answers[0]).toMatchObject({
        error: { code: -32600, message: expect.stringContaining('batches are not accepted') },
      })
    }
    expect((await post({ jsonrpc: '2.0', id: 9, method: 'ping' }, session)).status).toBe(200)
  })

  it('exits 2 with one line on a limit that is not a whole number from 1', async () => {
    for (const [flag, value] of [
      ['--max-sessions', '0'],
      ['--session-idle', '1.5'],
    ]) {
      const run = await runBin(['mcp', '--http', '0', flag!, value!, '--root', world.root], { cwd: world.root })
      expect(run.code, run.stderr).toBe(2)
      expect(run.stderr).toContain(`${flag} needs a whole number from 1 to 1000000, not "${value}"`)
    }
  })

  it('exits on SIGTERM', async () => {
    child.kill('SIGTERM')
    const end = await exited
    expect(end.timedOut).toBe(false)
    expect(end.code, end.stderr).toBe(0)
  })
})

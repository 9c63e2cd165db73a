import type { ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWorld, type World, worldArgs } from './harness'
import { httpServer } from './modern'

/**
 * What a 2025-era request the server cannot serve gets: a JSON-RPC error with its own id, the code
 * the specification gives, and a short message (never a dump of a schema's issues).
 */
let world: World
let child: ChildProcess
let url = ''
let session = ''

/** One POST as a client without the SDK sends it: status and the one answer. */
async function post(body: unknown, sessionId = session) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
    },
    body: JSON.stringify(body),
  })
  const text = await response.text()
  const line = text.startsWith('{') ? text : (text.split('\n').find((l) => l.startsWith('data: ')) ?? '')
  return {
    status: response.status,
    session: response.headers.get('mcp-session-id') ?? '',
    answer: JSON.parse(line.replace(/^data: /, '')) as {
      id: unknown
      result?: unknown
      error?: { code: number; message: string }
    },
  }
}

const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
})

beforeAll(async () => {
  world = await createWorld()
  ;({ url, child } = await httpServer(worldArgs(world)))
  const opened = await post(
    request(1, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    }),
    '',
  )
  session = opened.session
  await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  })
})

afterAll(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL')
  await world?.close()
})

describe('site-skills mcp --http: 2025-era requests it cannot serve', () => {
  it('answers params it cannot use with -32602 and a short message naming the field', async () => {
    const noName = await post(request(7, 'tools/call', { arguments: {} }))
    expect(noName.answer).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32602, message: 'invalid tools/call params: "name" is required' },
    })
    const level = await post(request(8, 'logging/setLevel', { level: 'loud' }))
    expect(level.answer.id).toBe(8)
    expect(level.answer.error).toEqual({
      code: -32602,
      message:
        'invalid logging/setLevel params: "level" must be one of debug, info, notice, warning, error, critical, ' +
        'alert, emergency, not "loud"',
    })
    const noUri = await post(request(9, 'resources/read', {}))
    expect(noUri.answer.error).toEqual({ code: -32602, message: 'invalid resources/read params: "uri" is required' })
  })

  it('answers an unknown prompt with -32602, not as a tool that is not found', async () => {
    const unknown = await post(request(10, 'prompts/get', { name: 'nope' }))
    expect(unknown.answer).toEqual({
      jsonrpc: '2.0',
      id: 10,
      error: { code: -32602, message: 'no prompt is named "nope"' },
    })
  })

  it('answers resources/templates/list, having declared resources', async () => {
    const templates = await post(request(11, 'resources/templates/list'))
    expect(templates.answer).toMatchObject({ id: 11, result: { resourceTemplates: [] } })
  })

  it('gives a request without a session, or with one that ended, an error that carries its id', async () => {
    const none = await post(request(12, 'tools/list'), '')
    expect(none.status).toBe(400)
    expect(none.answer).toMatchObject({ id: 12, error: { code: -32000 } })
    const ended = await post(request(13, 'tools/list'), 'no-such-session')
    expect(ended.status).toBe(404)
    expect(ended.answer).toMatchObject({ id: 13, error: { code: -32001 } })
  })
})

import type { ChildProcess } from 'node:child_process'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, cleanEnv, type Exited } from '../helpers/spawn'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { createWorld, type World, worldArgs } from './harness'
import { callTool, httpServer, modernHttp } from './modern'

/**
 * A navigation is a request's own: its deadline (SITE_SKILLS_NAVIGATION_TIMEOUT_MS, 1.5 s here)
 * answers navigation-timeout, a cancelled one stops loading the page, and the server answers
 * afterwards. Once, a load timer that outlived its navigation killed the server 30 s later.
 */
const DEADLINE = { SITE_SKILLS_NAVIGATION_TIMEOUT_MS: '1500' }

let world: World
/** A page server that answers the head of a page and never the rest: the page never loads. */
let endless: Server
let endlessUrl = ''
/** Requests of the endless page still open (the browser has not given up on them). */
const waiting = new Set<IncomingMessage>()

/** A tool result as either SDK's client gives it. */
type Result = { content: unknown[]; isError?: boolean; _meta?: Record<string, unknown> }
const codeOf = (result: Result) => (result._meta?.['site-skills/error'] as { code?: string } | undefined)?.code

beforeAll(async () => {
  world = await createWorld()
  endless = createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/') return void res.writeHead(404).end()
    waiting.add(req)
    res.on('close', () => waiting.delete(req))
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    res.write('<!doctype html><title>never done</title><p>loading')
  })
  await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve))
  endlessUrl = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/`
})

afterAll(async () => {
  endless?.closeAllConnections()
  await new Promise((resolve) => endless?.close(resolve))
  await world?.close()
})

/** The navigation to the endless page answers at its deadline, and the server goes on. */
async function timesOut(call: (name: string, args?: Record<string, unknown>) => Promise<Result>) {
  const timedOut = await call('site_skills_navigate', { url: endlessUrl })
  expect(codeOf(timedOut), JSON.stringify(timedOut.content)).toBe('navigation-timeout')
  expect((timedOut.content[0] as { text: string }).text).toContain('did not load within 1500 ms')
  // The page is not left loading.
  await expect.poll(() => waiting.size, { timeout: 10_000, message: 'the page load to stop' }).toBe(0)
  const opened = await call('site_skills_navigate', { url: world.url('alpha.test') })
  expect(opened.isError, JSON.stringify(opened.content)).toBeFalsy()
}

describe('site-skills mcp over stdio: a page that never loads', () => {
  let client: Client
  let stderr = ''
  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', ...worldArgs(world)],
      env: cleanEnv(DEADLINE) as Record<string, string>,
      stderr: 'pipe',
    })
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    client = new Client({ name: 'navigation', version: '1' })
    await client.connect(transport)
  })
  afterAll(async () => {
    await client?.close()
  })
  const call = (name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name, arguments: args }) as Promise<CallToolResult>

  it('answers navigation-timeout at the deadline, and answers afterwards', async () => {
    await timesOut(call)
    expect(stderr).not.toContain('unhandled rejection')
  })

  it('stops loading the page when the call is cancelled (notifications/cancelled), and answers afterwards', async () => {
    const stop = new AbortController()
    const pending = client
      .callTool({ name: 'site_skills_navigate', arguments: { url: `${endlessUrl}?cancel=stdio` } }, undefined, {
        signal: stop.signal,
      })
      .catch((error: Error) => error)
    await expect.poll(() => waiting.size, { timeout: 10_000, message: 'the page to be asked for' }).toBeGreaterThan(0)
    stop.abort()
    expect(await pending).toBeInstanceOf(Error)
    // The browser stops loading it long before the deadline would have.
    await expect.poll(() => waiting.size, { timeout: 10_000, message: 'the page load to stop' }).toBe(0)
    expect((await call('site_skills_tabs')).isError).toBeFalsy()
    expect(stderr).not.toContain('unhandled rejection')
  })
})

describe('site-skills mcp --http: a page that never loads', () => {
  let url = ''
  let child: ChildProcess
  let exited: Promise<Exited>
  beforeAll(async () => {
    ;({ url, child, exited } = await httpServer([...worldArgs(world)], DEADLINE))
  })
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL')
  })

  it('answers navigation-timeout at the deadline to a 2025 session, closes the tab it opened, and answers afterwards', async () => {
    const client = new Client({ name: 'navigation', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(url)))
    await timesOut((name, args = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>)
    const tabs = (await client.callTool({ name: 'site_skills_tabs', arguments: {} })).structuredContent as {
      tabs: { url: string }[]
    }
    expect(tabs.tabs.map((t) => t.url)).not.toContain(endlessUrl)
    await client.close()
  })

  it('does the same for a 2026-07-28 client, and stops a navigation it gave up', async () => {
    const client = await modernHttp(url)
    await timesOut((name, args = {}) => callTool(client, name, args))
    const stop = new AbortController()
    const pending = client
      .callTool(
        { name: 'site_skills_navigate', arguments: { url: `${endlessUrl}?cancel=http` } },
        { signal: stop.signal },
      )
      .catch((error: Error) => error)
    await expect.poll(() => waiting.size, { timeout: 10_000, message: 'the page to be asked for' }).toBeGreaterThan(0)
    stop.abort()
    expect(await pending).toBeInstanceOf(Error)
    await expect.poll(() => waiting.size, { timeout: 10_000, message: 'the page load to stop' }).toBe(0)
    expect((await callTool(client, 'site_skills_tabs')).isError).toBeFalsy()
    await client.close()
  })

  it('exits on SIGTERM, having logged no unhandled rejection', async () => {
    child.kill('SIGTERM')
    const end = await exited
    expect(end.code, end.stderr).toBe(0)
    expect(end.stderr).not.toContain('unhandled rejection')
  })
})

describe('site-skills mcp: a rejection that nothing handles', () => {
  it('is logged, and the server goes on serving (a Node tool that leaves a promise rejected)', async () => {
    const { dir, cleanup } = await makeTempDir('mcp-stray-')
    await writeTree(dir, {
      'stray/manifest.json': {
        id: 'stray',
        name: 'Stray',
        domains: ['stray.test'],
        nodeTools: {
          leak: {
            description: 'Returns, leaving a rejected promise behind.',
            path: 'tools/leak.js',
            callable: 'leak',
            args: {},
            returns: { type: 'string', description: 'Text.' },
          },
        },
      },
      'stray/tools/leak.js': 'export function leak() {\n  Promise.reject(new Error("stray"))\n  return "ok"\n}\n',
    })
    let stderr = ''
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--root', dir, '--cdp', `127.0.0.1:${world.browser.port}`],
      env: cleanEnv() as Record<string, string>,
      stderr: 'pipe',
    })
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const client = new Client({ name: 'stray', version: '1' })
    await client.connect(transport)
    const call = (name: string, args: Record<string, unknown> = {}) =>
      client.callTool({ name, arguments: args }) as Promise<CallToolResult>
    await call('site_skills_navigate', { url: world.url('stray.test') })
    expect((await call('stray__leak')).structuredContent).toEqual({ result: 'ok' })
    await expect.poll(() => stderr, { timeout: 10_000 }).toContain('unhandled rejection')
    expect(stderr).toContain('Error: stray')
    expect((await call('stray__leak')).structuredContent).toEqual({ result: 'ok' })
    await client.close()
    await cleanup()
  })
})

import { spawn } from 'node:child_process'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, assert, beforeAll, describe, expect, it, vi } from 'vitest'
import { type CdpProxy, startCdpProxy } from '../helpers/cdp-proxy'
import { connectClient, createWorld, stdioClient, type Watched, type World } from './harness'
import { BIN, cleanEnv, waitForExit, runBin } from '../helpers/spawn'

/** What a fleet hands out: a token, sent here as the proxy's `x-api-key` header. */
const TOKEN = 'fleet-token-mcp-9876543210'

let world: World
let proxy: CdpProxy
let mcp: Watched & { stderr: () => string }

const call = (name: string, args: Record<string, unknown> = {}) =>
  mcp.client.callTool({ name, arguments: args }) as Promise<CallToolResult>
const opened = () => proxy.upgrades.filter((u) => u.status === 101).length

beforeAll(async () => {
  world = await createWorld()
  proxy = await startCdpProxy({ upstream: world.browser.wsEndpoint, token: TOKEN })
  // The fleet is busy when the server starts: it waits as asked, then connects.
  proxy.busy(1, '1')
  mcp = await stdioClient([
    '--root',
    world.root,
    '--deny',
    'gamma',
    '--cdp',
    proxy.url,
    '--cdp-header',
    `x-api-key: ${TOKEN}`,
  ])
})

afterAll(async () => {
  await mcp?.client.close()
  await proxy?.close()
  await world?.close()
})

describe('site-skills mcp on a remote browser endpoint (token header, 429, drops), over stdio', () => {
  it('connects with the header after a 429, and runs tools in tabs it opens there', async () => {
    expect(proxy.upgrades.map((u) => u.status)).toEqual([429, 101])
    expect(proxy.upgrades[1]!.auth).toBe('header')
    const moved = await call('site_skills_navigate', { url: world.url('alpha.test') })
    expect(moved.isError, JSON.stringify(moved.content)).toBeFalsy()
    const read = await call('alpha__read_title', { prefix: '> ' })
    expect(read.structuredContent).toEqual({ title: '> alpha page' })
  })

  it('reconnects when the endpoint drops the connection, and its calls work again in the same tab', async () => {
    proxy.drop()
    await vi.waitFor(() => expect(opened() === 2 && proxy.open() === 1).toBe(true), { timeout: 15_000, interval: 50 })
    const read = await call('alpha__read_title', { prefix: 'again ' })
    expect(read.isError, JSON.stringify(read.content)).toBeFalsy()
    expect(read.structuredContent).toEqual({ title: 'again alpha page' })
    const tabs = await call('site_skills_tabs')
    expect(tabs.structuredContent).toMatchObject({ tabs: [{ url: world.url('alpha.test'), active: true }] })
    expect(mcp.stderr()).toContain('reconnected to ws://127.0.0.1:')
  })

  it('says a call failed with disconnected when the endpoint drops it mid-call, and serves the next', async () => {
    proxy.dropOn((method) => method === 'Runtime.callFunctionOn')
    const cut = await call('alpha__read_title', { prefix: '' })
    expect(cut.isError).toBe(true)
    expect(cut._meta?.['site-skills/error']).toMatchObject({ code: 'disconnected' })
    const after = await call('alpha__read_title', { prefix: '' })
    expect(after.structuredContent).toEqual({ title: 'alpha page' })
  })
})

describe('site-skills mcp on an endpoint that refuses it', () => {
  it('exits 1 with endpoint-refused when the token is wrong, without showing it', async () => {
    const run = await runBin(['mcp', '--root', world.root, '--tools', 'all', '--cdp', `${proxy.url}?token=nope-1234`], {
      limitMs: 30_000,
    })
    expect({ code: run.code, timedOut: run.timedOut }).toEqual({ code: 1, timedOut: false })
    expect(run.stderr).toContain('endpoint-refused')
    expect(run.stderr).not.toContain('nope-1234')
  })
})

describe('site-skills mcp --http on a remote browser endpoint', () => {
  it("opens a client's tab in its own browser context again after a reconnect", async () => {
    // A proxy of its own: a drop of the shared one would also make the stdio server above reconnect.
    const own = await startCdpProxy({ upstream: world.browser.wsEndpoint, token: TOKEN })
    const ownOpened = () => own.upgrades.filter((u) => u.status === 101).length
    const args = [BIN, 'mcp', '--http', '0', '--root', world.root, '--deny', 'gamma', '--tools', 'all']
    const child = spawn(process.execPath, [...args, '--cdp', own.url, '--cdp-header', `x-api-key: ${TOKEN}`], {
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = waitForExit(child, 120_000)
    try {
      const url = await vi.waitFor(
        () => /listening on (\S+)/.exec(stderr)?.[1] ?? assert.fail(`no "listening on" yet: ${stderr}`),
        { timeout: 20_000 },
      )
      const client = await connectClient(new StreamableHTTPClientTransport(new URL(url)))
      const callTool = (name: string, args: Record<string, unknown> = {}) =>
        client.client.callTool({ name, arguments: args }) as Promise<CallToolResult>
      expect((await callTool('site_skills_navigate', { url: world.url('alpha.test') })).isError).toBeFalsy()
      const before = ownOpened()
      own.drop()
      await vi.waitFor(() => expect(ownOpened()).toBe(before + 1), { timeout: 15_000, interval: 50 })
      // Its context went with the old connection (and its tab with it): a new one is made for it.
      const again = await callTool('site_skills_navigate', { url: world.url('beta.test') })
      expect(again.isError, JSON.stringify(again.content)).toBeFalsy()
      expect((await callTool('beta__heading')).structuredContent).toEqual({ result: 'beta heading' })
      await client.client.close()
    } finally {
      child.kill('SIGTERM')
      await exited
      await own.close()
    }
  })
})

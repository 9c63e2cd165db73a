import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, assert, beforeAll, describe, expect, it, vi } from 'vitest'
import { makeTempDir } from '../helpers/tmp'
import { connectClient, createWorld, type Watched, type World, worldArgs } from './harness'
import { BIN, cleanEnv, type Exited, waitForExit } from '../helpers/spawn'

let world: World
let child: ChildProcess
let exited: Promise<Exited>
let url = ''

const httpClient = () => connectClient(new StreamableHTTPClientTransport(new URL(url)))
const call = (mcp: Watched, name: string, args: Record<string, unknown> = {}) =>
  mcp.client.callTool({ name, arguments: args }) as Promise<CallToolResult>
const errorOf = (result: CallToolResult) => result._meta?.['site-skills/error'] as Record<string, unknown>
/** The URLs of the browser's pages, as its DevTools endpoint lists them. */
async function pageUrls(): Promise<string[]> {
  const list = (await (await fetch(`http://127.0.0.1:${world.browser.port}/json/list`)).json()) as {
    type: string
    url: string
  }[]
  return list.filter((t) => t.type === 'page').map((t) => t.url)
}

beforeAll(async () => {
  world = await createWorld()
  const args = [BIN, 'mcp', '--http', '0', ...worldArgs(world)]
  child = spawn(process.execPath, args, { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  exited = waitForExit(child, 120_000)
  // A hook, not a test: vi.waitFor (expect.poll is for tests).
  url = await vi.waitFor(
    () => /listening on (\S+)/.exec(stderr)?.[1] ?? assert.fail(`no "listening on" yet: ${stderr}`),
    {
      timeout: 20_000,
    },
  )
})

afterAll(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL')
  await world?.close()
})

describe('site-skills mcp --http: a client per MCP session, each on its own tabs', () => {
  it('serves Streamable HTTP on 127.0.0.1; a client gets its own tab on demand', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
    const mcp = await httpClient()
    expect((await mcp.client.listTools()).tools.map((t) => t.name)).toContain('alpha__read_title')
    // No tab of its own yet: a page tool has nowhere to run.
    expect(errorOf(await call(mcp, 'alpha__read_title', { prefix: '' })).code).toBe('domain-mismatch')
    const opened = await call(mcp, 'site_skills_navigate', { url: world.url('alpha.test') })
    expect(opened.structuredContent).toMatchObject({ tab: { url: world.url('alpha.test') }, skills: [{ id: 'alpha' }] })
    expect((await call(mcp, 'alpha__read_title', { prefix: '' })).structuredContent).toEqual({ title: 'alpha page' })
    await mcp.client.close()
  })

  it('serves two clients at the same time on their own tabs, which never see each other', async () => {
    const [a, b] = [await httpClient(), await httpClient()]
    await Promise.all([
      call(a, 'site_skills_navigate', { url: `${world.url('alpha.test')}?client=a` }),
      call(b, 'site_skills_navigate', { url: `${world.url('beta.test')}?client=b` }),
    ])
    const runs = Array.from({ length: 12 }, (_, i) =>
      i % 2 ? call(a, 'alpha__where', { tag: `a${i}` }) : call(b, 'beta__heading'),
    )
    const results = await Promise.all(runs)
    results.forEach((result, i) => {
      expect(result.structuredContent, `call ${i}`).toEqual(
        i % 2 ? { url: `${world.url('alpha.test')}?client=a`, tag: `a${i}` } : { result: 'beta heading' },
      )
    })
    const tabsOf = async (mcp: Watched) =>
      ((await call(mcp, 'site_skills_tabs')).structuredContent as { tabs: { id: string; url: string }[] }).tabs
    // Each sees its own tab (and the tabs no client took, such as the browser's first page), never the other's.
    const [aUrls, bUrls] = [(await tabsOf(a)).map((t) => t.url), (await tabsOf(b)).map((t) => t.url)]
    expect(aUrls).toContain(`${world.url('alpha.test')}?client=a`)
    expect(aUrls).not.toContain(`${world.url('beta.test')}?client=b`)
    expect(bUrls).toContain(`${world.url('beta.test')}?client=b`)
    expect(bUrls).not.toContain(`${world.url('alpha.test')}?client=a`)
    // A's navigation changes nothing of what B's calls run against.
    await call(a, 'site_skills_navigate', { url: `${world.url('beta.test')}?client=a` })
    expect((await call(b, 'site_skills_active_tab')).structuredContent).toMatchObject({
      tab: { url: `${world.url('beta.test')}?client=b` },
    })
    expect(((await call(a, 'beta__heading')).structuredContent as { result: string }).result).toBe('beta heading')

    // Handles are minted per client: A's tab id means nothing to B.
    const mine = (await tabsOf(a)).find((t) => t.url.includes('client=a'))
    for (const refused of [
      await call(b, 'beta__heading', { tab: mine!.id }),
      await call(b, 'site_skills_switch_tab', { tab: mine!.id }),
      await call(b, 'site_skills_navigate', { url: world.url('alpha.test'), tab: mine!.id }),
      await call(b, 'site_skills_switch_tab', { url: 'client=a' }),
    ])
      expect(errorOf(refused).code).toBe('target-not-found')
    expect((await tabsOf(b)).map((t) => t.id)).not.toContain(mine!.id)
    await Promise.all([a.client.close(), b.client.close()])
  })

  it('cancels the call of a client that disconnects mid-call, and closes the tab opened for it', async () => {
    const { dir, cleanup } = await makeTempDir('mcp-hang-')
    const marker = join(dir, 'call')
    const transport = new StreamableHTTPClientTransport(new URL(url))
    const mcp = await connectClient(transport)
    const mine = `${world.url('alpha.test')}?client=gone`
    await call(mcp, 'site_skills_navigate', { url: mine })
    expect(await pageUrls()).toContain(mine)
    const pending = call(mcp, 'alpha__hang', { marker }).catch((error: Error) => error)
    await expect
      .poll(() => existsSync(`${marker}.started`), { timeout: 10_000, message: 'the call to start' })
      .toBe(true)
    await transport.close()
    await pending
    await expect
      .poll(() => existsSync(`${marker}.aborted`), {
        timeout: 10_000,
        message: 'the call to be cancelled (ctx.signal)',
      })
      .toBe(true)
    await expect
      .poll(pageUrls, { timeout: 15_000, message: 'the tab opened for the client to close' })
      .not.toContain(mine)
    await cleanup()
  })

  it('refuses a request from a page of another site (Origin), as DNS rebinding protection', async () => {
    const fromPage = await fetch(url, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    })
    expect(fromPage.status).toBe(403)
  })

  it('closes the browser connection and exits on SIGTERM', async () => {
    child.kill('SIGTERM')
    const end = await exited
    expect(end.timedOut).toBe(false)
    expect(end.code).toBe(0)
  })
})

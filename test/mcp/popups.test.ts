import type { ChildProcess } from 'node:child_process'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import { startServer, type TestServer } from '../helpers/server'
import { makeTempDir } from '../helpers/tmp'
import { connectClient, type Watched } from './harness'
import type { Exited } from '../helpers/spawn'
import { httpServer } from './modern'

/** A page that keeps a cookie and opens a popup as it loads; one that shows its cookies in its title. */
const PAGES = {
  '/opener': '<!doctype html><title>opener</title><script>document.cookie = "who=a"; window.open("/popup")</script>',
  '/popup': '<!doctype html><title>popup</title>',
  '/many': '<!doctype html><title>many</title><script>for (let i = 0; i < 40; i++) window.open("/popup?" + i)</script>',
  '/cookie': '<!doctype html><title>cookie</title><script>document.title = "cookie:" + document.cookie</script>',
}

let pages: TestServer
let browser: LaunchedBrowser
let cleanup: () => Promise<void>
let child: ChildProcess
let exited: Promise<Exited>
let url = ''

const call = (mcp: Watched, name: string, args: Record<string, unknown> = {}) =>
  mcp.client.callTool({ name, arguments: args }) as Promise<CallToolResult>
const tabsOf = async (mcp: Watched) =>
  ((await call(mcp, 'site_skills_tabs')).structuredContent as { tabs: { url: string }[] }).tabs.map((t) => t.url)
const pageUrls = async () => {
  const list = (await (await fetch(`http://127.0.0.1:${browser.port}/json/list`)).json()) as { url: string }[]
  return list.map((t) => t.url)
}
const site = (path: string) => `http://shop.test:${new URL(pages.origin).port}${path}`

beforeAll(async () => {
  const made = await makeTempDir('mcp-popups-')
  cleanup = made.cleanup
  pages = await startServer(PAGES)
  // Popups open as the page loads, without a click: the blocker would stop them before the server sees them.
  browser = await launchBrowser({ args: ['--host-resolver-rules=MAP *.test 127.0.0.1', '--disable-popup-blocking'] })
  ;({ url, child, exited } = await httpServer([
    '--root',
    made.dir,
    '--cdp',
    `127.0.0.1:${browser.port}`,
    '--tools',
    'all',
  ]))
})

afterAll(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL')
  await browser?.close()
  await pages?.close()
  await cleanup?.()
})

describe('site-skills mcp --http: a tab belongs to the client whose page opened it', () => {
  it("shows a popup of A's page to A only, shares no cookie with B, and closes it when A goes", async () => {
    const a = await connectClient(new StreamableHTTPClientTransport(new URL(url)))
    const b = await connectClient(new StreamableHTTPClientTransport(new URL(url)))
    await call(a, 'site_skills_navigate', { url: site('/opener') })
    await expect
      .poll(() => tabsOf(a), { timeout: 10_000, message: "the popup among A's tabs" })
      .toContain(site('/popup'))
    expect(await tabsOf(b)).not.toContain(site('/popup'))
    const taken = await call(b, 'site_skills_switch_tab', { url: '/popup' })
    expect(taken.isError).toBe(true)
    expect(taken._meta?.['site-skills/error']).toMatchObject({ code: 'target-not-found' })

    // B's tabs live apart from A's: the cookie A's page set is not B's.
    const opened = await call(b, 'site_skills_navigate', { url: site('/cookie') })
    expect(opened.structuredContent).toMatchObject({ tab: { url: site('/cookie'), title: 'cookie:' } })

    await a.client.close()
    await expect.poll(pageUrls, { timeout: 15_000, message: "A's popup to close with A" }).not.toContain(site('/popup'))
    expect(await pageUrls()).toContain(site('/cookie'))
    await b.client.close()
  })

  it("closes a popup past 32 tabs in a client's context as it opens", async () => {
    const a = await connectClient(new StreamableHTTPClientTransport(new URL(url)))
    await call(a, 'site_skills_navigate', { url: site('/many') })
    const popups = async () => (await pageUrls()).filter((u) => u.includes('/popup?')).length
    // The page's own tab and 31 of its popups: the client's 32.
    await expect.poll(popups, { timeout: 15_000, message: 'the popups past 32 to close' }).toBe(31)
    expect((await tabsOf(a)).filter((u) => u.includes('/popup?'))).toHaveLength(31)
    await a.client.close()
    await expect.poll(popups, { timeout: 15_000, message: "A's popups to close with A" }).toBe(0)
  })

  it('exits on SIGTERM', async () => {
    child.kill('SIGTERM')
    const end = await exited
    expect(end.timedOut).toBe(false)
    expect(end.code, end.stderr).toBe(0)
  })
})

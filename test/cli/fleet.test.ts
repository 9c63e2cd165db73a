import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type StaticServer, serveFolder } from '../../playground/serve'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import { type CdpProxy, startCdpProxy } from '../helpers/cdp-proxy'
import { REPO_ROOT } from '../helpers/tmp'
import { type Exited, runBin } from '../helpers/spawn'

/** What a fleet hands out: a token, here sent as the proxy's `x-api-key` header or in the URL. */
const TOKEN = 'fleet-token-0123456789'

let site: StaticServer
let browser: LaunchedBrowser
let proxy: CdpProxy

beforeAll(async () => {
  site = await serveFolder(join(REPO_ROOT, 'learnings/demo-shop/site'))
  browser = await launchBrowser()
  await browser.newPage(`${site.url}?q=lamp`)
  proxy = await startCdpProxy({ upstream: browser.wsEndpoint, token: TOKEN })
})

afterAll(async () => {
  await proxy?.close()
  await browser?.close()
  await site?.close()
})

beforeEach(() => {
  proxy.upgrades.length = 0
  proxy.busy(0, '0')
})

/** `site-skills run demo-shop page_info` in the lamp tab of the browser behind the proxy. */
const pageInfo = (cdp: string, ...more: string[]) =>
  runBin(['run', 'demo-shop', 'page_info', '--json', '--args', '{"waitForReady":true}', '--cdp', cdp, ...more], {
    limitMs: 30_000,
  })

function expectExit(run: Exited, code: number): void {
  expect({ code: run.code, timedOut: run.timedOut }, `stderr: ${run.stderr}`).toEqual({ code, timedOut: false })
}

const statuses = () => proxy.upgrades.map((u) => u.status)

describe('site-skills run through a remote browser endpoint (a token, 429s, drops)', () => {
  it('sends --cdp-header with the upgrade and waits out two 429s as Retry-After asks', async () => {
    proxy.busy(2, '1')
    const run = await pageInfo(proxy.url, '--cdp-header', `x-api-key: ${TOKEN}`, '--target', 'q=lamp')
    expectExit(run, 0)
    expect(JSON.parse(run.stdout)).toMatchObject({ title: 'Demo Shop', query: 'lamp' })
    expect(statuses()).toEqual([429, 429, 101])
    expect(proxy.upgrades.at(-1)?.auth).toBe('header')
  })

  it("takes the token in the URL's query, as browserless and Steel hand it out", async () => {
    const run = await pageInfo(`${proxy.url}?token=${TOKEN}`, '--target', 'q=lamp')
    expectExit(run, 0)
    expect(proxy.upgrades).toEqual([{ status: 101, auth: 'query' }])
  })

  it('says endpoint-refused with the status on a wrong token, never showing the token', async () => {
    const run = await pageInfo(`${proxy.url}?token=wrong-secret-42`)
    expectExit(run, 1)
    expect(run.stderr).toContain('site-skills: endpoint-refused:')
    expect(run.stderr).toContain('HTTP 401 (not authorized')
    expect(run.stderr).not.toContain('wrong-secret-42')
    expect(statuses()).toEqual([401])
  })

  it('gives up with rate-limited after five busy answers, or at once when asked to wait over a minute', async () => {
    proxy.busy(10, '0')
    const spent = await pageInfo(proxy.url, '--cdp-header', `x-api-key: ${TOKEN}`)
    expectExit(spent, 1)
    expect(spent.stderr).toContain('rate-limited:')
    expect(spent.stderr).toContain('answered HTTP 429 (busy) to 5 attempts in a row')
    expect(statuses()).toEqual([429, 429, 429, 429, 429])
    proxy.upgrades.length = 0
    proxy.busy(1, '3600')
    const long = await pageInfo(proxy.url, '--cdp-header', `x-api-key: ${TOKEN}`)
    expectExit(long, 1)
    expect(long.stderr).toContain('asks to wait 3600 s')
    expect(statuses()).toEqual([429])
  })

  it('fails a one-shot run with disconnected when the endpoint drops it mid-call', async () => {
    proxy.dropOn((method) => method === 'Runtime.callFunctionOn')
    const run = await pageInfo(proxy.url, '--cdp-header', `x-api-key: ${TOKEN}`, '--target', 'q=lamp')
    expectExit(run, 1)
    expect(run.stderr).toContain('site-skills: disconnected:')
  })

  it('refuses a malformed --cdp-header, and one without --cdp, as usage errors', async () => {
    const bad = await runBin(['run', 'demo-shop', 'page_info', '--cdp', proxy.url, '--cdp-header', 'no colon'])
    expectExit(bad, 2)
    expect(bad.stderr).toContain('--cdp-header takes NAME:VALUE')
    const alone = await runBin(['run', 'demo-shop', 'price_summary', '--cdp-header', 'a: b'])
    expectExit(alone, 2)
    expect(alone.stderr).toContain('--cdp-header needs --cdp')
  })
})

describe('site-skills test through a remote browser endpoint', () => {
  const test = (...more: string[]) =>
    runBin(
      [
        'test',
        'demo-shop',
        '--root',
        'learnings',
        '--json',
        '--cdp',
        proxy.url,
        '--cdp-header',
        `x-api-key: ${TOKEN}`,
        ...more,
      ],
      { limitMs: 60_000 },
    )

  it('reconnects when the endpoint drops mid-run and runs the dropped example again: the same results', {
    timeout: 150_000,
  }, async () => {
    const steady = await test()
    expectExit(steady, 0)
    expect(statuses()).toEqual([101])
    // Dropped while a tool runs, then while a tab is being opened.
    for (const at of ['Runtime.callFunctionOn', 'Target.createTarget']) {
      proxy.upgrades.length = 0
      proxy.dropOn((method) => method === at)
      const dropped = await test()
      expectExit(dropped, 0)
      expect(JSON.parse(dropped.stdout), at).toEqual(JSON.parse(steady.stdout))
      expect(statuses(), at).toEqual([101, 101])
    }
  })
})

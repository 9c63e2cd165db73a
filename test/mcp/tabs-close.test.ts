import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadCri } from '../../runtime/internal'
import { closeOnce, connectTabs } from '../../src/mcp/tabs'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'

let browser: LaunchedBrowser

beforeAll(async () => {
  browser = await launchBrowser()
}, 60_000)
afterAll(() => browser?.close())

/** What a promise has done once every callback already due has run: settled or still pending. */
async function settledSoon(promise: Promise<unknown>): Promise<'settled' | 'pending'> {
  const done = promise.then(
    () => 'settled' as const,
    () => 'settled' as const,
  )
  // A connection's close is answered by the browser over its socket: give that exchange its turn.
  const waited = new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), 5_000))
  return Promise.race([done, waited])
}

/** A new DevTools connection to a new tab of the test's browser. */
async function connection() {
  const page = await browser.newPage('about:blank')
  const cri = await loadCri()
  return cri({ target: `ws://${browser.host}:${browser.port}/devtools/page/${page.targetId}`, local: true })
}

describe('the tabs of the MCP server shut down', () => {
  it('needs closeOnce: a second close() of one connection leaves the first pending', async () => {
    const raw = await connection()
    const first = raw.close()
    const second = raw.close()
    expect(await settledSoon(second)).toBe('settled')
    expect(await settledSoon(first)).toBe('pending')
    const once = await connection()
    const [a, b] = [closeOnce(once), closeOnce(once)]
    expect(await settledSoon(a)).toBe('settled')
    expect(await settledSoon(b)).toBe('settled')
  })

  it('settles close() when a tab closes during it (a session is closed once, not twice)', async () => {
    const tabs = await connectTabs({ url: browser.wsEndpoint })
    const page = await browser.newPage('about:blank')
    await tabs.session(page.targetId)
    // A tab that goes away while the server shuts down closes its session too: chrome-remote-interface's
    // second close() of one connection drops the first one's listener, so the first never settled.
    const closing = tabs.close()
    const gone = tabs.closeTab(page.targetId)
    expect(await settledSoon(closing)).toBe('settled')
    expect(await settledSoon(gone)).toBe('settled')
  })
})

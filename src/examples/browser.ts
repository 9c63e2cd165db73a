import { SiteToolError } from '../../runtime/index'
import { type CdpClient, command, launchBrowser, loadCri } from '../../runtime/internal'
import { type RequestRule, createTargetGuard } from './guard'

/** A tab of its own for one example, in a browser context of its own (no cookies, storage or cache shared). */
interface Tab {
  client: CdpClient
  /** Closes the tab and every other target of its context (popups it opened). */
  close(): Promise<void>
}

/** Where examples run: a launched headless browser, or one given with `--cdp`. */
export interface TestBrowser {
  /**
   * A new tab. With `rule`, every request of the tab and of every target opened from it (popups,
   * frames, workers) is answered by the rule or fails; without, it goes to the network (`--live`).
   */
  openTab(rule?: RequestRule): Promise<Tab>
  close(): Promise<void>
}

const HOST_PORT_RE = /^(\[[^\]]+\]|[^:/\s]+):(\d+)$/
/** A new tab is attached and set up within moments; past this the browser does not answer. */
const READY_TIMEOUT_MS = 15_000
const noop = () => {}

/** Settles once the guard has set up `targetId`, or fails after READY_TIMEOUT_MS. */
async function whenReady(ready: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new SiteToolError('cdp-error', 'the browser did not attach the new tab in time')),
      READY_TIMEOUT_MS,
    )
  })
  try {
    await Promise.race([ready, late])
  } finally {
    clearTimeout(timer)
  }
}

/** The browser-level WebSocket URL of `--cdp HOST:PORT` (from /json/version) or `--cdp ws://.../browser/...`. */
async function browserEndpoint(cdp: string): Promise<string> {
  if (/^wss?:\/\/[^/]+\/devtools\/browser\//.test(cdp)) return cdp
  const hostPort = HOST_PORT_RE.exec(cdp)
  if (!hostPort) throw new SiteToolError('invalid-target', `--cdp must be HOST:PORT or a browser ws:// URL: ${cdp}`)
  const where = `http://${hostPort[1]}:${hostPort[2]}/json/version`
  const response = await fetch(where).catch((cause: unknown) => {
    throw new SiteToolError('disconnected', `cannot reach ${hostPort[1]}:${hostPort[2]}`, { cause })
  })
  const info = (await response.json().catch(() => undefined)) as { webSocketDebuggerUrl?: unknown } | undefined
  if (typeof info?.webSocketDebuggerUrl !== 'string')
    throw new SiteToolError('disconnected', `${where} names no browser endpoint (not a DevTools address?)`)
  return info.webSocketDebuggerUrl
}

/** How tabs are opened besides the default. */
export interface TestBrowserOptions {
  /**
   * Live tabs get a browser context of their own too (no cookies of the browser's session): the
   * MCP server, whose clients must never see the tabs of its test runs.
   */
  isolated?: boolean
  /** Called with each browser context made for a tab, before the tab is created in it. */
  onContext?: (browserContextId: string) => void
}

/** Opens tabs through a browser-level connection; each tab gets its own page connection. */
async function connectBrowser(
  endpoint: string,
  onClose: () => Promise<void>,
  options: TestBrowserOptions = {},
): Promise<TestBrowser> {
  const cri = await loadCri()
  const browser = await cri({ target: endpoint, local: true })
  const guard = await createTargetGuard(browser)
  const base = endpoint.replace(/\/devtools\/browser\/.*$/, '')
  return {
    async openTab(rule) {
      // A guarded tab gets a context of its own; a live one opens where the browser's session is
      // (with --cdp: the user's cookies, so a page behind a login is tested as the user sees it).
      const context =
        rule || options.isolated
          ? (await command(browser, 'Target.createBrowserContext', { disposeOnDetach: true })).browserContextId
          : undefined
      if (context) options.onContext?.(context)
      if (context) guard.watch(context, rule)
      let targetId: string | undefined
      const close = async (client?: CdpClient) => {
        await client?.close().catch(noop)
        if (context) await command(browser, 'Target.disposeBrowserContext', { browserContextId: context }).catch(noop)
        else if (targetId) await command(browser, 'Target.closeTarget', { targetId }).catch(noop)
        if (context) guard.forget(context)
      }
      try {
        const params = { url: 'about:blank', ...(context ? { browserContextId: context } : {}) }
        targetId = (await command(browser, 'Target.createTarget', params)).targetId
        await whenReady(guard.ready(targetId))
        const client = await cri({ target: `${base}/devtools/page/${targetId}`, local: true })
        return { client, close: () => close(client) }
      } catch (error) {
        await close()
        throw error
      }
    },
    async close() {
      await browser.close().catch(noop)
      await onClose()
    },
  }
}

/** The browser of `--cdp`, or a headless one launched for the run (closed by `close`). */
export async function openTestBrowser(cdp?: string, options?: TestBrowserOptions): Promise<TestBrowser> {
  if (cdp) return connectBrowser(await browserEndpoint(cdp), async () => {}, options)
  const launched = await launchBrowser()
  try {
    return await connectBrowser(launched.wsEndpoint, () => launched.close(), options)
  } catch (error) {
    await launched.close()
    throw error
  }
}

import { SiteToolError } from '../../runtime/index'
import { type CdpClient, command, launchBrowser } from '../../runtime/internal'
import type { BrowserEndpoint } from '../cdp/endpoint'
import { connectLink } from '../cdp/link'
import { type RequestRule, type TargetGuard, createTargetGuard } from './target-guard'

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
  /** How many times the connection to the browser dropped (see BrowserLink). */
  drops(): number
  /**
   * Whether the connection dropped since `drops()` said `before`. A call's failure can come in
   * before the link hears of the drop behind it (a write's EPIPE before the socket's close), so
   * while the count has not moved the browser is asked; when it does not answer, the link is given
   * DROP_NOTICE_MS to count the drop.
   */
  droppedSince(before: number): Promise<boolean>
  close(): Promise<void>
}

/** A new tab is attached and set up within moments; past this the browser does not answer. */
const READY_TIMEOUT_MS = 15_000
const noop = () => {}
/** How long the browser has to answer the probe of `droppedSince`, and the link to count a drop. */
const PROBE_MS = 2_000
const DROP_NOTICE_MS = 5_000
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Whether `work` settles well within `ms` (its timer never outlives it). */
async function answersWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms)
  })
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => false,
      ),
      late,
    ])
  } finally {
    clearTimeout(timer)
  }
}

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

/** How tabs are opened besides the default. */
export interface TestBrowserOptions {
  /**
   * Live tabs get a browser context of their own too (no cookies of the browser's session): the
   * MCP server, whose clients must never see the tabs of its test runs.
   */
  isolated?: boolean
  /** Called with each browser context made for a tab, before the tab is created in it. */
  onContext?: (browserContextId: string) => void
  /** Called with each such context once it was disposed (the tab closed). */
  onContextClosed?: (browserContextId: string) => void
}

/**
 * Opens tabs through one browser connection (each tab a flat session of it), made again when it
 * drops: the guard is set up anew on each connection, and tabs opened before the drop are gone.
 */
async function connectBrowser(
  endpoint: BrowserEndpoint,
  onClose: () => Promise<void>,
  options: TestBrowserOptions = {},
): Promise<TestBrowser> {
  let guard: TargetGuard | undefined
  const link = await connectLink(endpoint, {
    setup: async (socket) => {
      guard = await createTargetGuard(socket)
    },
  })
  return {
    async openTab(rule) {
      const browser = await link.socket()
      const watcher = guard!
      // A guarded tab gets a context of its own; a live one opens where the browser's session is
      // (with --cdp: the user's cookies, so a page behind a login is tested as the user sees it).
      const context =
        rule || options.isolated
          ? (await command(browser, 'Target.createBrowserContext', { disposeOnDetach: true })).browserContextId
          : undefined
      if (context) options.onContext?.(context)
      if (context) watcher.watch(context, rule)
      let targetId: string | undefined
      const close = async (client?: CdpClient) => {
        await client?.close().catch(noop)
        if (context) await command(browser, 'Target.disposeBrowserContext', { browserContextId: context }).catch(noop)
        else if (targetId) await command(browser, 'Target.closeTarget', { targetId }).catch(noop)
        if (context) watcher.forget(context)
        if (context) options.onContextClosed?.(context)
      }
      try {
        const params = { url: 'about:blank', ...(context ? { browserContextId: context } : {}) }
        targetId = (await command(browser, 'Target.createTarget', params)).targetId
        await whenReady(watcher.ready(targetId))
        const client = await browser.attach(targetId)
        return { client, close: () => close(client) }
      } catch (error) {
        await close()
        throw error
      }
    },
    drops: () => link.drops(),
    async droppedSince(before) {
      if (link.drops() !== before) return true
      const probe = link.socket().then((socket) => command(socket, 'Browser.getVersion'))
      if (await answersWithin(probe, PROBE_MS)) return link.drops() !== before
      for (const until = Date.now() + DROP_NOTICE_MS; link.drops() === before && Date.now() < until; ) await sleep(50)
      return link.drops() !== before
    },
    async close() {
      await link.close()
      await onClose()
    },
  }
}

/** The browser of `--cdp`, or a headless one launched for the run (closed by `close`). */
export async function openTestBrowser(endpoint?: BrowserEndpoint, options?: TestBrowserOptions): Promise<TestBrowser> {
  if (endpoint) return connectBrowser(endpoint, async () => {}, options)
  const launched = await launchBrowser()
  try {
    return await connectBrowser({ url: launched.wsEndpoint }, () => launched.close(), options)
  } catch (error) {
    await launched.close()
    throw error
  }
}

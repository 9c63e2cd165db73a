import { SiteToolError } from '../../runtime/index'
import { type CdpClient, type CdpSocket, listen, siteToolError } from '../../runtime/internal'
import type { BrowserEndpoint } from '../cdp/endpoint'
import { type BrowserLink, connectLink } from '../cdp/link'
import { createContextTable } from './browser-contexts'
import { createHiddenContexts } from './hidden'

/** A page of the browser, as the server shows it. */
export interface TabInfo {
  id: string
  url: string
  title: string
  /** The browser context it lives in (absent: the browser's default one). */
  context?: string
  /** The tab whose page opened it (a popup). */
  opener?: string
}

/** What happened to a tab. */
type TabEvent = 'created' | 'changed' | 'closed'

/**
 * The browser's page targets, shared by every client of the server (which client sees and uses
 * which tab is `clients.ts`'s business). Ids here are the browser's target ids: never shown to a
 * client, which gets handles instead.
 */
export interface Tabs {
  get: (targetId: string) => TabInfo | undefined
  /** Open pages, in the order the browser reported them. */
  list: () => TabInfo[]
  /** The page named by a `ws://.../devtools/page/<id>` address. */
  initial?: string
  /**
   * Throws `browser-disconnected` once the browser is gone: the connection dropped and every attempt
   * to make it again failed (its tabs are dropped then). The next check tries again in the background.
   */
  check: () => void
  /** A tab as the browser reports it now (its URL may have changed since the last event). */
  refresh: (targetId: string) => Promise<TabInfo | undefined>
  /** A CDP session to one page (opened once, kept until the page or the server goes). */
  session: (targetId: string) => Promise<CdpClient>
  /**
   * Navigates a tab to an http(s) URL and resolves once the page has loaded; rejects with
   * `navigation-timeout` past the deadline, and stops the navigation when `signal` aborts.
   */
  navigate: (targetId: string, url: string, signal?: AbortSignal) => Promise<TabInfo>
  /** Opens a new tab on an http(s) URL (in the given browser context) as `navigate` does; closes it if that fails. */
  open: (url: string, context?: string, signal?: AbortSignal) => Promise<TabInfo>
  /** A new browser context: no cookies, storage or cache shared with another. */
  createContext: () => Promise<string>
  /** Closes a browser context and every tab in it. */
  disposeContext: (context: string) => Promise<void>
  /** Closes a tab (nothing when it is gone already). */
  closeTab: (targetId: string) => Promise<void>
  /** The tabs of a browser context are never shown (the server's own test runs open them). */
  hideContext: (browserContextId: string) => void
  /**
   * A hidden context was disposed by its maker: it leaves the table once its last tab has gone (see HiddenContexts).
   */
  releaseContext: (browserContextId: string) => void
  /** The size of each table (DEBUG=site-skills prints them). */
  stats: () => { tabs: number; sessions: number; hidden: number; leaving: number }
  /** Calls `listener` when a tab opens, changes its URL or title, or closes; returns what stops it. */
  onChange: (listener: (targetId: string, event: TabEvent) => void) => () => void
  close: () => Promise<void>
}

interface TargetInfo {
  targetId: string
  browserContextId?: string
  openerId?: string
  type: string
  url: string
  title: string
}

/** Tabs remembered as closing (see `leaving` in connectTabs). */
const LEAVING_MAX = 1024

/** How long a navigation may take to fire its load event, unless SITE_SKILLS_NAVIGATION_TIMEOUT_MS says otherwise. */
/**
 * Chromium refuses Page.stopLoading ("Not attached to an active page") while a navigation swaps the
 * tab's renderer; the stop is tried again, through a fresh session when the call's own is gone.
 */
const STOP_TRIES = 20
const STOP_RETRY_MS = 100
const NAVIGATE_TIMEOUT_MS = 30_000
const NAVIGATE_TIMEOUT_VAR = 'SITE_SKILLS_NAVIGATION_TIMEOUT_MS'
const NAVIGATE_TIMEOUT_MAX = 10 * 60_000

/** The navigation deadline: `SITE_SKILLS_NAVIGATION_TIMEOUT_MS` (a whole number of ms up to ten minutes), else 30 s. */
function navigationDeadline(env: NodeJS.ProcessEnv = process.env): number {
  const text = env[NAVIGATE_TIMEOUT_VAR]
  if (text === undefined || text === '') return NAVIGATE_TIMEOUT_MS
  const ms = Number(text)
  if (!/^\d+$/.test(text) || ms < 1 || ms > NAVIGATE_TIMEOUT_MAX)
    throw new SiteToolError(
      'invalid-args',
      `${NAVIGATE_TIMEOUT_VAR} must be a whole number of milliseconds from 1 to ${NAVIGATE_TIMEOUT_MAX}, not ` +
        `${JSON.stringify(text)}`,
    )
  return ms
}

/**
 * Only web pages are opened: file:, chrome:, data:, javascript: and other schemes would hand the
 * client the machine's files or the browser's own pages.
 */
function checkWebUrl(url: string): void {
  let protocol: string
  try {
    protocol = new URL(url).protocol
  } catch {
    throw new SiteToolError(
      'invalid-args',
      `argument "url" must be an absolute http(s) URL, not ${JSON.stringify(url)}`,
    )
  }
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new SiteToolError(
      'invalid-args',
      `only http and https URLs are opened, not ${protocol} (${JSON.stringify(url)})`,
    )
}

/** A target as a tab; `contextOf` names its browser context as the server handed it out. */
function toTab(info: TargetInfo, contextOf: (browserContextId: string) => string): TabInfo {
  const { openerId: opener } = info
  const context = info.browserContextId && contextOf(info.browserContextId)
  return {
    id: info.targetId,
    url: info.url,
    title: info.title,
    ...(context ? { context } : {}),
    ...(opener ? { opener } : {}),
  }
}

/**
 * Resolves once `client`'s page fired its load event after `start()`; fails after the navigation
 * timeout, also while `start()` is still waiting. A page that asks before it is left (a
 * `beforeunload` handler) is left: the client asked for the navigation, and the question would
 * hold it until the timeout.
 */
async function loadedAfter(
  client: CdpClient,
  url: string,
  start: () => Promise<void>,
  wait: { ms: number; signal?: AbortSignal; stop: () => Promise<unknown> },
): Promise<void> {
  const cancelled = () => new SiteToolError('disconnected', `the call was cancelled while ${url} loaded`)
  if (wait.signal?.aborted) throw cancelled()
  await client.send('Page.enable')
  // Every timer and listener of the wait is the navigation's own, and gone when it ends (whatever ends it).
  let fail: (error: Error) => void = () => {}
  let onLoad: () => void = () => {}
  const loaded = new Promise<void>((resolve, reject) => {
    onLoad = resolve
    fail = reject
  })
  const offLoad = listen(client, 'Page.loadEventFired', () => onLoad())
  // A navigation that ends unloaded (past its deadline, or cancelled) stops loading the page too.
  const give = (error: Error) => {
    wait.stop().catch(() => undefined)
    fail(error)
  }
  const timer = setTimeout(
    () => give(new SiteToolError('navigation-timeout', `${url} did not load within ${wait.ms} ms`)),
    wait.ms,
  )
  const stop = () => give(cancelled())
  wait.signal?.addEventListener('abort', stop, { once: true })
  const leave = listen(client, 'Page.javascriptDialogOpening', ({ type }) => {
    if (type === 'beforeunload') client.send('Page.handleJavaScriptDialog', { accept: true }).catch(() => undefined)
  })
  try {
    await Promise.all([start(), loaded])
  } finally {
    clearTimeout(timer)
    offLoad()
    leave()
    wait.signal?.removeEventListener('abort', stop)
    loaded.catch(() => undefined)
  }
}

const closing = new WeakMap<CdpClient, Promise<void>>()

/**
 * Closes a connection once, however many callers ask. chrome-remote-interface's `close()` drops the
 * listener of an earlier `close()` of the same connection, so a second call (a tab closing while the
 * server shuts down) left the first one pending forever, and the process "unfinished".
 */
export function closeOnce(client: CdpClient): Promise<void> {
  let done = closing.get(client)
  if (!done) {
    done = client.close().catch(() => undefined)
    closing.set(client, done)
  }
  return done
}

/**
 * Connects to a browser over CDP and follows its pages (Target domain discovery). When the
 * connection drops it is made again (see BrowserLink): the pages are listed anew, those gone are
 * closed for the clients, and sessions are opened again on demand.
 */
export async function connectTabs(endpoint: BrowserEndpoint, log?: (line: string) => void): Promise<Tabs> {
  const deadline = navigationDeadline()
  const tabs = new Map<string, TabInfo>()
  const sessions = new Map<string, Promise<CdpClient>>()
  const listeners = new Set<(targetId: string, event: TabEvent) => void>()
  const emit = (targetId: string, event: TabEvent) => {
    for (const listener of listeners) listener(targetId, event)
  }

  let link: BrowserLink | undefined
  const browser = () => link!.socket()
  const contexts = createContextTable(browser)
  const tabOf = (info: TargetInfo) => toTab(info, contexts.idOf)
  const hidden = createHiddenContexts()
  /**
   * Tabs closed here whose last events may still be on their way: one of them (a title change as it
   * closes) never brings the tab back. Kept until its targetDestroyed, at most LEAVING_MAX.
   */
  const leaving = new Set<string>()
  const update = (info: TargetInfo, created: boolean) => {
    if (info.type !== 'page' || leaving.has(info.targetId)) return
    if (hidden.claims(info.targetId, info.browserContextId)) return
    const before = tabs.get(info.targetId)
    const now = tabOf(info)
    tabs.set(info.targetId, now)
    if (!before) emit(info.targetId, created ? 'created' : 'changed')
    else if (before.url !== now.url || before.title !== now.title) emit(info.targetId, 'changed')
  }
  const forget = (targetId: string) => {
    if (!tabs.delete(targetId)) return
    sessions.get(targetId)?.then(closeOnce, () => undefined)
    sessions.delete(targetId)
    emit(targetId, 'closed')
  }

  // The browser died or its endpoint stays away: its tabs are gone, and every call says so.
  let lost: Error | undefined
  const where = new URL(endpoint.url).host
  const gone = () => {
    lost = siteToolError('browser-disconnected', { where })
    for (const targetId of [...tabs.keys()]) forget(targetId)
  }
  const check = () => {
    if (!lost) return
    // Each call after the loss starts the link over; until it reconnects, calls say the browser is gone.
    link?.socket().catch(() => undefined)
    throw lost
  }

  let first = true
  /** A new connection: what the browser has now replaces what the old one saw. */
  async function setup(browser: CdpSocket): Promise<void> {
    lost = undefined
    sessions.clear()
    if (!first) contexts.reset()
    const { targetInfos } = (await browser.send('Target.getTargets')) as { targetInfos: TargetInfo[] }
    const pages = targetInfos.filter((info) => info.type === 'page')
    if (first) for (const info of pages) tabs.set(info.targetId, tabOf(info))
    else {
      const now = new Set(pages.map((info) => info.targetId))
      for (const targetId of [...tabs.keys()]) if (!now.has(targetId)) forget(targetId)
      hidden.retain(now)
      for (const info of pages) update(info, true)
    }
    first = false
    listen(browser, 'Target.targetCreated', (p) => update(p.targetInfo as TargetInfo, true))
    listen(browser, 'Target.targetInfoChanged', (p) => update(p.targetInfo as TargetInfo, false))
    listen(browser, 'Target.targetDestroyed', (p) => {
      forget(p.targetId)
      leaving.delete(p.targetId)
      hidden.destroyed(p.targetId)
    })
    await browser.send('Target.setDiscoverTargets', { discover: true })
  }
  link = await connectLink(endpoint, { setup, onLost: gone, ...(log ? { log } : {}) })

  function session(targetId: string): Promise<CdpClient> {
    let client = sessions.get(targetId)
    if (!client) {
      client = browser().then((socket) => socket.attach(targetId))
      client.then(
        (c) => c.on('disconnect', () => sessions.get(targetId) === client && sessions.delete(targetId)),
        () => sessions.delete(targetId),
      )
      sessions.set(targetId, client)
    }
    return client
  }

  async function refresh(targetId: string): Promise<TabInfo | undefined> {
    const reply = await browser()
      .then((b) => b.send('Target.getTargetInfo', { targetId }))
      .catch(() => undefined)
    if (reply) update((reply as { targetInfo: TargetInfo }).targetInfo, false)
    return tabs.get(targetId)
  }

  async function navigate(targetId: string, url: string, signal?: AbortSignal): Promise<TabInfo> {
    check()
    checkWebUrl(url)
    const client = await session(targetId)
    const start = async () => {
      const { errorText } = (await client.send('Page.navigate', { url })) as { errorText?: string }
      if (errorText) throw new SiteToolError('cdp-error', `cannot open ${url}: ${errorText}`)
    }
    const stop = () => stopLoading(targetId, client)
    await loadedAfter(client, url, start, signal ? { ms: deadline, signal, stop } : { ms: deadline, stop })
    const tab = await refresh(targetId)
    if (!tab) throw new SiteToolError('target-not-found', `the tab closed while it opened ${url}`)
    return tab
  }

  /** Stops loading a tab's page, trying again while Chromium refuses (see STOP_TRIES). */
  async function stopLoading(targetId: string, first: CdpClient): Promise<void> {
    let client = first
    for (let tries = 1; ; tries++) {
      try {
        await client.send('Page.stopLoading')
        return
      } catch (error) {
        if (tries >= STOP_TRIES || !tabs.has(targetId)) throw error
      }
      await new Promise((resolve) => setTimeout(resolve, STOP_RETRY_MS))
      // The call's own session may have been let go meanwhile (a cancelled 2026-07-28 request's is).
      client = await session(targetId)
    }
  }

  async function closeTab(targetId: string): Promise<void> {
    leaving.add(targetId)
    if (leaving.size > LEAVING_MAX) leaving.delete(leaving.values().next().value!)
    await browser()
      .then((b) => b.send('Target.closeTarget', { targetId }))
      .catch(() => undefined)
    forget(targetId)
  }

  async function open(url: string, context?: string, signal?: AbortSignal): Promise<TabInfo> {
    check()
    checkWebUrl(url)
    const params = { url: 'about:blank', ...(context ? { browserContextId: await contexts.current(context) } : {}) }
    const created = await (await browser()).send('Target.createTarget', params)
    const { targetId } = created as { targetId: string }
    await refresh(targetId)
    // A tab whose page did not load is nobody's: nobody got its id.
    return navigate(targetId, url, signal).catch(async (error: unknown) => {
      await closeTab(targetId)
      throw error
    })
  }

  return {
    get: (targetId) => tabs.get(targetId),
    list: () => [...tabs.values()],
    ...(endpoint.page ? { initial: endpoint.page } : {}),
    refresh,
    session,
    navigate,
    open,
    check,
    closeTab,
    createContext: () => contexts.create(),
    async disposeContext(context) {
      await contexts.dispose(context)
      for (const tab of [...tabs.values()]) if (tab.context === context) forget(tab.id)
    },
    hideContext: hidden.hide,
    releaseContext: hidden.release,
    stats: () => ({ tabs: tabs.size, sessions: sessions.size, hidden: hidden.size, leaving: leaving.size }),
    onChange(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    async close() {
      const clients = await Promise.all([...sessions.values()].map((c) => c.catch(() => undefined)))
      await Promise.all(clients.map((c) => c && closeOnce(c)))
      await link?.close()
    },
  }
}

import { SiteToolError } from '../../runtime/index'
import { type CdpClient, listen, loadCri } from '../../runtime/internal'

/** A page of the browser, as the server shows it. */
export interface TabInfo {
  id: string
  url: string
  title: string
}

/** Where the browser's DevTools endpoint is: `host:port`, and the page a ws:// page URL named. */
export interface BrowserAddress {
  host: string
  port: number
  page?: string
}

/**
 * The browser's page targets and which one is active. The active tab is the one chosen with
 * `select`; else the newest tab opened since the server started; else the first page.
 */
export interface Tabs {
  active: () => TabInfo | undefined
  list: () => TabInfo[]
  /** Makes the first tab whose URL contains `part` (or whose id is `part`) the active one. */
  select: (part: string) => TabInfo | undefined
  /** The active tab as the browser reports it now (its URL may have changed since the last event). */
  refresh: () => Promise<TabInfo | undefined>
  /** A CDP session to one page (opened once, kept until the page or the server goes). */
  session: (tabId: string) => Promise<CdpClient>
  /** Navigates the active tab and resolves once the page has loaded. */
  navigate: (url: string) => Promise<TabInfo>
  /** Called whenever the active tab or its URL changes. */
  onChange: (listener: () => void) => void
  close: () => Promise<void>
}

interface TargetInfo {
  targetId: string
  type: string
  url: string
  title: string
}

const NAVIGATE_TIMEOUT_MS = 30_000

async function browserEndpoint(address: BrowserAddress): Promise<string> {
  const where = `http://${address.host}:${address.port}/json/version`
  try {
    const info = (await (await fetch(where)).json()) as { webSocketDebuggerUrl?: string }
    if (!info.webSocketDebuggerUrl) throw new Error('no webSocketDebuggerUrl')
    const url = new URL(info.webSocketDebuggerUrl)
    return `ws://${address.host}:${address.port}${url.pathname}`
  } catch (cause) {
    throw new SiteToolError('disconnected', `cannot reach the browser at ${address.host}:${address.port}`, { cause })
  }
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

function toTab(info: TargetInfo): TabInfo {
  return { id: info.targetId, url: info.url, title: info.title }
}

/** Connects to a browser over CDP and follows its pages (Target domain discovery). */
export async function connectTabs(address: BrowserAddress): Promise<Tabs> {
  const cri = await loadCri()
  const browser = await cri({ target: await browserEndpoint(address), local: true })
  const tabs = new Map<string, TabInfo>()
  const sessions = new Map<string, Promise<CdpClient>>()
  const listeners: (() => void)[] = []
  let chosen: string | undefined = address.page
  let last = ''

  const active = () => (chosen && tabs.get(chosen)) || [...tabs.values()][0]
  const notify = () => {
    const now = active()
    const key = now ? `${now.id}\0${now.url}` : ''
    if (key === last) return
    last = key
    for (const listener of listeners) listener()
  }
  const update = (info: TargetInfo, created: boolean) => {
    if (info.type !== 'page') return
    tabs.set(info.targetId, toTab(info))
    if (created) chosen = info.targetId
    notify()
  }
  const forget = (targetId: string) => {
    tabs.delete(targetId)
    sessions.get(targetId)?.then((c) => c.close().catch(() => undefined))
    sessions.delete(targetId)
    if (chosen === targetId) chosen = undefined
    notify()
  }

  const { targetInfos } = (await browser.send('Target.getTargets')) as { targetInfos: TargetInfo[] }
  for (const info of targetInfos) if (info.type === 'page') tabs.set(info.targetId, toTab(info))
  listen(browser, 'Target.targetCreated', (p) => update(p.targetInfo as TargetInfo, true))
  listen(browser, 'Target.targetInfoChanged', (p) => update(p.targetInfo as TargetInfo, false))
  listen(browser, 'Target.targetDestroyed', (p) => forget(p.targetId))
  await browser.send('Target.setDiscoverTargets', { discover: true })
  notify()

  function session(tabId: string): Promise<CdpClient> {
    let client = sessions.get(tabId)
    if (!client) {
      client = cri({ target: `ws://${address.host}:${address.port}/devtools/page/${tabId}`, local: true })
      client.then(
        (c) => c.on('disconnect', () => sessions.delete(tabId)),
        () => sessions.delete(tabId),
      )
      sessions.set(tabId, client)
    }
    return client
  }

  async function refresh(): Promise<TabInfo | undefined> {
    const tab = active()
    if (!tab) return undefined
    const reply = await browser.send('Target.getTargetInfo', { targetId: tab.id }).catch(() => undefined)
    if (reply) update((reply as { targetInfo: TargetInfo }).targetInfo, false)
    return active()
  }

  async function navigate(url: string): Promise<TabInfo> {
    checkWebUrl(url)
    const tab = active()
    if (!tab) throw new SiteToolError('target-not-found', 'the browser has no open tab')
    const client = await session(tab.id)
    await client.send('Page.enable')
    let timer: ReturnType<typeof setTimeout> | undefined
    const loaded = new Promise<void>((resolve, reject) => {
      client.once('Page.loadEventFired', () => resolve())
      timer = setTimeout(() => reject(new SiteToolError('timeout', `${url} did not load`)), NAVIGATE_TIMEOUT_MS)
    })
    try {
      const { errorText } = (await client.send('Page.navigate', { url })) as { errorText?: string }
      if (errorText) throw new SiteToolError('cdp-error', `cannot open ${url}: ${errorText}`)
      await loaded
    } finally {
      clearTimeout(timer)
      loaded.catch(() => undefined)
    }
    return (await refresh()) ?? tab
  }

  return {
    active,
    list: () => [...tabs.values()],
    select(part) {
      const found = tabs.get(part) ?? [...tabs.values()].find((t) => t.url.includes(part))
      if (found) {
        chosen = found.id
        notify()
      }
      return found
    },
    refresh,
    session,
    navigate,
    onChange: (listener) => void listeners.push(listener),
    async close() {
      const clients = await Promise.all([...sessions.values()].map((c) => c.catch(() => undefined)))
      await Promise.all([...clients, browser].map((c) => c?.close().catch(() => undefined)))
    },
  }
}

import { randomBytes } from 'node:crypto'
import { SiteToolError } from '../../runtime/index'
import { pickPage } from '../../runtime/internal'
import { createTabPool } from './tab-pool'
import type { TabInfo, Tabs } from './tabs'

/** A tab as a client sees it: `id` is a handle minted for that client, never the browser's target id. */
export interface TabView {
  id: string
  url: string
  title: string
}

/**
 * One client's view of the browser: its own active tab, and handles for the tabs it may use (the
 * tabs opened for it, the ones it took with `select`, and the ones no client has taken). Another
 * client's tabs are invisible to it, and their handles unknown.
 */
export interface ClientTabs {
  /** The tab the client's calls run against when they name none. */
  active: () => TabInfo | undefined
  /** The tab of a handle (default: the active tab, which may be none); an unknown handle is refused. */
  tab: (handle?: string) => TabInfo | undefined
  /** The client's handle of a tab it may use. */
  view: (tab: TabInfo) => TabView
  /** The tabs the client may use, in the browser's order. */
  visible: () => TabInfo[]
  /** Makes a tab (by handle, else by URL: see pickPage) the active one, and takes it. */
  select: (choice: { tab?: string; url?: string }) => TabInfo
  /** Opens `url` in the given or the active tab; a client without one gets a new tab. `signal` stops it. */
  navigate: (url: string, handle?: string, signal?: AbortSignal) => Promise<TabInfo>
  /** Whether the server opened this tab for the client (it is closed when the client goes). */
  opened: (targetId: string) => boolean
  /** Called when the client's active tab, or its URL, changes. */
  onChange: (listener: () => void) => void
  /** The client is gone: closes the tabs opened for it (its browser context) and lets go of those it took. */
  dispose: () => Promise<void>
}

export interface ClientOptions {
  /**
   * Follow the browser when no tab was chosen: the newest tab opened since the server started,
   * else the first page (the one client of stdio). Over HTTP a client's tab is only one it opened
   * or took, so that no two clients act on one page.
   */
  follows: boolean
  /**
   * Open the client's tabs in a browser context of its own (HTTP): no cookies, storage or cache
   * shared with another client or the user's tabs, and every tab its pages open is its own.
   */
  isolated?: boolean
  /**
   * The 2026-07-28 revision: no request changes what another runs against. A navigation without
   * `tab` opens a new tab (its handle comes back) and nothing sets an active tab.
   */
  stateless?: boolean
  /**
   * Many clients behind this one (HTTP under 2026-07-28, whose requests carry no identity): a tab
   * opened for one of them is reached only by its handle, never listed.
   */
  shared?: boolean
  /** A shared client's tab that no call named for this long is closed (when another opens). Default: half an hour. */
  idleMs?: number
}

export interface Clients {
  connect: (options: ClientOptions) => ClientTabs
  /** The size of each table (DEBUG=site-skills prints them): tabs held by a client, browser contexts made for one. */
  stats: () => { held: number; contexts: number }
}

const mintHandle = () => `tab-${randomBytes(9).toString('base64url')}`

/**
 * The most tabs one client holds in its own browser context (HTTP): a page there that opens popups
 * without end has each one past this closed as it opens.
 */
const MAX_CLIENT_TABS = 32
const SHARED_IDLE_MS = 30 * 60_000

/** The clients of one browser: who holds which tab. */
export function createClients(tabs: Tabs): Clients {
  /** Target id -> the client that holds it. */
  const holders = new Map<string, object>()
  /** Browser context -> the client it was made for. */
  const contexts = new Map<string, object>()
  const heldBy = (owner: object) => [...holders.values()].filter((h) => h === owner).length

  /**
   * A new tab belongs to the client of its browser context, else to the holder of the tab whose
   * page opened it: a popup is its opener's client's, never shown to another client.
   */
  function attribute(targetId: string): void {
    const tab = tabs.get(targetId)
    if (!tab || holders.has(targetId)) return
    const contextOwner = tab.context ? contexts.get(tab.context) : undefined
    const owner = contextOwner ?? (tab.opener ? holders.get(tab.opener) : undefined)
    if (!owner) return
    // In the client's own browser context its pages' popups count; the user's browser is the user's.
    if (contextOwner && heldBy(owner) >= MAX_CLIENT_TABS) {
      tabs.closeTab(targetId).catch(() => undefined)
      return
    }
    holders.set(targetId, owner)
  }
  tabs.onChange((targetId, event) => {
    if (event === 'closed') holders.delete(targetId)
    else attribute(targetId)
  })

  function connect(options: ClientOptions): ClientTabs {
    const me = {}
    const handles = new Map<string, string>()
    const targets = new Map<string, string>()
    const openedHere = new Set<string>()
    const listeners: (() => void)[] = []
    const pool = options.shared ? createTabPool(MAX_CLIENT_TABS, options.idleMs ?? SHARED_IDLE_MS) : undefined
    /** The client's browser context (isolated clients), made with its first tab. */
    let context: Promise<string> | undefined
    const ownContext = () => {
      context ??= tabs.createContext().then((id) => {
        contexts.set(id, me)
        return id
      })
      context.catch(() => (context = undefined))
      return context
    }
    let chosen: string | undefined = options.follows ? tabs.initial : undefined
    let newest: string | undefined
    let last = ''
    let gone = false

    const usable = (targetId: string) => {
      const holder = holders.get(targetId)
      return holder === undefined || holder === me
    }
    const take = (targetId: string) => {
      if (usable(targetId)) holders.set(targetId, me)
    }
    const visible = () => tabs.list().filter((t) => (options.shared ? !holders.has(t.id) : usable(t.id)))

    function active(): TabInfo | undefined {
      const pick = (id: string | undefined) => (id && usable(id) ? tabs.get(id) : undefined)
      if (!options.follows) return pick(chosen)
      return pick(chosen) ?? pick(newest) ?? visible()[0]
    }

    function notify(): void {
      const now = active()
      const key = now ? `${now.id}\0${now.url}` : ''
      if (key === last || gone) return
      last = key
      for (const listener of listeners) listener()
    }
    const unfollow = tabs.onChange((targetId, event) => {
      if (event === 'closed') {
        const handle = targets.get(targetId)
        if (handle) handles.delete(handle)
        targets.delete(targetId)
        openedHere.delete(targetId)
        pool?.forget(targetId)
        if (chosen === targetId) chosen = undefined
      }
      // A tab opened after the server started becomes the active one of a client that follows.
      if (event === 'created' && options.follows && usable(targetId)) chosen = newest = targetId
      notify()
    })
    notify()

    function view(tab: TabInfo): TabView {
      let handle = targets.get(tab.id)
      if (!handle) {
        handle = mintHandle()
        targets.set(tab.id, handle)
        handles.set(handle, tab.id)
      }
      return { id: handle, url: tab.url, title: tab.title }
    }

    function tab(handle?: string): TabInfo | undefined {
      if (handle === undefined && options.shared)
        throw new SiteToolError(
          'target-not-found',
          'no tab is active under MCP 2026-07-28: pass `tab`, an id from site_skills_tabs or site_skills_navigate',
        )
      if (handle === undefined) return active()
      const targetId = handles.get(handle)
      const found = targetId && usable(targetId) ? tabs.get(targetId) : undefined
      if (!found)
        throw new SiteToolError(
          'target-not-found',
          `no tab of yours has the id ${JSON.stringify(handle)}: list them with site_skills_tabs`,
        )
      if (openedHere.has(found.id)) pool?.touch(found.id)
      return found
    }

    function select(choice: { tab?: string; url?: string }): TabInfo {
      if (options.stateless)
        throw new SiteToolError(
          'invalid-args',
          'under MCP 2026-07-28 no tab is active: pass `tab` (an id from site_skills_tabs) to each call',
        )
      const part = choice.url
      const found = choice.tab !== undefined ? tab(choice.tab) : part ? pickPage(visible(), part) : undefined
      if (!found) throw new SiteToolError('target-not-found', `no open tab of yours matches ${JSON.stringify(part)}`)
      take(found.id)
      chosen = found.id
      notify()
      return found
    }

    /** Opens `url` in a new tab of this client's (its own browser context when isolated). */
    async function openTab(url: string, signal?: AbortSignal): Promise<TabInfo> {
      for (const old of pool?.makeRoom(Date.now()) ?? []) await tabs.closeTab(old)
      const opened = await tabs.open(url, options.isolated ? await ownContext() : undefined, signal)
      pool?.touch(opened.id)
      openedHere.add(opened.id)
      take(opened.id)
      return opened
    }

    async function navigate(url: string, handle?: string, signal?: AbortSignal): Promise<TabInfo> {
      const target = handle === undefined && options.stateless ? undefined : tab(handle)
      let done: TabInfo
      if (target) {
        take(target.id)
        done = await tabs.navigate(target.id, url, signal).catch((error: unknown) => {
          // The active tab went with a dropped connection while the call waited for the new one:
          // a call that named no tab gets a new one, as a session without a tab does.
          if (handle !== undefined || tabs.get(target.id)) throw error
          return openTab(url, signal)
        })
      } else done = await openTab(url, signal)
      if (handle === undefined && !options.stateless) chosen = done.id
      notify()
      return done
    }

    return {
      active,
      tab,
      view,
      visible,
      select,
      navigate,
      opened: (targetId) => openedHere.has(targetId),
      onChange: (listener) => void listeners.push(listener),
      async dispose() {
        gone = true
        unfollow()
        listeners.length = 0
        await Promise.all([...openedHere].map((id) => tabs.closeTab(id)))
        const made = await context?.catch(() => undefined)
        if (made) {
          await tabs.disposeContext(made)
          contexts.delete(made)
        }
        for (const [targetId, holder] of holders) if (holder === me) holders.delete(targetId)
      },
    }
  }

  return { connect, stats: () => ({ held: holders.size, contexts: contexts.size }) }
}

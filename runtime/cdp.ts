import { SiteToolError } from './errors'

/**
 * Anything that sends CDP commands to one page: a chrome-remote-interface client, a Puppeteer or
 * Playwright `CDPSession`. With `on`, JavaScript dialogs opened during a call are detected.
 */
export interface CdpSendable {
  send(method: string, params?: object): Promise<any>
  on?(event: string, listener: (params: any) => void): unknown
  off?(event: string, listener: (params: any) => void): unknown
}

/** An address of a DevTools endpoint; `target` is a target id or a substring of a page's URL. */
export interface CdpAddress {
  /** @default '127.0.0.1' */
  host?: string
  port: number
  /** @default the first page */
  target?: string
}

/**
 * Where a browser tool runs: an open session, an address, a `ws://` URL (of a page, or of the
 * browser: then its first page), or `"HOST:PORT"`.
 */
export type BrowserTarget = CdpSendable | CdpAddress | string

/** A chrome-remote-interface client (the subset used here). */
export interface CdpClient extends CdpSendable {
  on(event: string, listener: (params: any) => void): unknown
  once(event: string, listener: (params: any) => void): unknown
  off(event: string, listener: (params: any) => void): unknown
  close(): Promise<void>
}

interface TargetInfo {
  id: string
  type: string
  url: string
  webSocketDebuggerUrl?: string
}

/** The chrome-remote-interface module (the subset used here). */
export interface Cri {
  (options: { target: string; local: boolean }): Promise<CdpClient>
  List(options: { host: string; port: number }): Promise<TargetInfo[]>
}

/** A session ready for a call, and how to close it when this module opened it. */
export interface OpenedTarget {
  session: CdpSendable
  close?: () => Promise<unknown>
}

const HOST_PORT_RE = /^(\[[^\]]+\]|[^:/\s]+):(\d+)$/

/** Imports a package that bundlers must not follow (optional, or Node-only). */
export async function importOptional<T>(name: string): Promise<T> {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ name) as Promise<T>
}

/** Loads chrome-remote-interface on first use: importing it changes the DNS order of the process. */
export async function loadCri(): Promise<Cri> {
  const name = 'chrome-remote-interface'
  try {
    return (await importOptional<{ default: Cri }>(name)).default
  } catch (cause) {
    throw new SiteToolError('unavailable', `cannot load ${name}, needed to connect by address`, { cause })
  }
}

/** Whether the target is an open session rather than an address. */
export function isSendable(target: BrowserTarget): target is CdpSendable {
  return typeof target === 'object' && typeof (target as CdpSendable).send === 'function'
}

/** A page `ws://` URL as is; a browser `ws://` URL or `"HOST:PORT"` as an address. */
function parseTarget(target: string): CdpAddress | string {
  if (/^wss?:\/\//i.test(target)) {
    const url = new URL(target)
    return url.pathname.startsWith('/devtools/browser/') ? { host: url.hostname, port: Number(url.port) } : target
  }
  const match = HOST_PORT_RE.exec(target)
  if (!match) throw new SiteToolError('target-not-found', `invalid CDP target ${JSON.stringify(target)}: expected ws://..., HOST:PORT or { host, port, target }`)
  return { host: match[1], port: Number(match[2]) }
}

function pickTarget(list: TargetInfo[], wanted?: string): TargetInfo | undefined {
  const pages = list.filter((t) => t.type === 'page')
  if (wanted === undefined) return pages[0]
  return list.find((t) => t.id === wanted) ?? pages.find((t) => t.url.includes(wanted))
}

/** Checks the target against the browser's list first: chrome-remote-interface crashes on unknown ids. */
async function resolveAddress(cri: Cri, address: CdpAddress): Promise<string> {
  const host = address.host ?? '127.0.0.1'
  const where = `${host}:${address.port}`
  const list = await cri.List({ host, port: address.port }).catch((cause: unknown) => {
    throw new SiteToolError('disconnected', `cannot reach DevTools at ${where}`, { cause })
  })
  const found = pickTarget(list, address.target)
  if (found?.webSocketDebuggerUrl) return found.webSocketDebuggerUrl
  const what = address.target === undefined ? 'no page' : `no target with id or URL containing ${JSON.stringify(address.target)}`
  throw new SiteToolError('target-not-found', `${what} at ${where}`)
}

/** Gives a session for `target`, opening (and later closing) a connection unless it is one already. */
export async function openTarget(target: BrowserTarget): Promise<OpenedTarget> {
  if (isSendable(target)) return { session: target }
  const parsed = typeof target === 'string' ? parseTarget(target) : target
  const cri = await loadCri()
  const url = typeof parsed === 'string' ? parsed : await resolveAddress(cri, parsed)
  const client = await cri({ target: url, local: true }).catch((cause: unknown) => {
    throw new SiteToolError('disconnected', `cannot connect to ${url}`, { cause })
  })
  return { session: client, close: () => client.close() }
}

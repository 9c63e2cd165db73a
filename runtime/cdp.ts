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

/** An entry of the DevTools target list. */
export interface TargetInfo {
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

/** Whether the target is an open session rather than an address. */
export function isSendable(target: BrowserTarget): target is CdpSendable {
  return typeof (target as CdpSendable | undefined)?.send === 'function'
}

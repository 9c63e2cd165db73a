import type { ProtocolMapping } from 'devtools-protocol/types/protocol-mapping'

/** A listener as a session sees it: the session decides what it passes. */
type Listener = (params: unknown) => void

/**
 * Anything that sends CDP commands to one page: a chrome-remote-interface client, a Puppeteer or
 * Playwright `CDPSession`. With `on`, JavaScript dialogs opened during a call are detected.
 * Loosely typed on purpose: each library types its sessions with its own copy of the protocol.
 */
export interface CdpSendable {
  send(method: string, params?: object): Promise<unknown>
  on?(event: string, listener: Listener): unknown
  off?(event: string, listener: Listener): unknown
}

/** An address of a DevTools endpoint; `target` is a target id or a substring of a page's URL. */
export interface CdpAddress {
  /** @default '127.0.0.1' */
  host?: string
  port: number
  /** @default the first page */
  target?: string
  /** Headers of the requests to the endpoint (its `/json/version` and the WebSocket upgrade). */
  headers?: Record<string, string>
}

/**
 * A DevTools WebSocket endpoint and what connecting to it takes: a remote browser fleet's connect
 * URL (`wss://...`, a token in its query or in `headers`), or a local browser's.
 */
export interface CdpEndpoint {
  /** A `ws://` or `wss://` URL: of one page (`.../devtools/page/<id>`), else of a browser. */
  url: string
  /** Headers of the WebSocket upgrade, such as `Authorization` or a fleet's API key header. */
  headers?: Record<string, string>
  /** Of a browser endpoint, the tab: a target id or a substring of a page's URL. @default the first page */
  target?: string
}

/** An object that holds a session of one page: a page of `launchBrowser()` (`{ targetId, client, close }`). */
export interface CdpSessionHolder {
  client: CdpSendable
}

/**
 * Where a browser tool runs: an open session, an object holding one (a page `launchBrowser().newPage()`
 * returns), an address, an endpoint (a URL with headers), a `ws://` or `wss://` URL (of a page, or
 * of a browser: then its first page), or `"HOST:PORT"`.
 */
export type BrowserTarget = CdpSendable | CdpSessionHolder | CdpAddress | CdpEndpoint | string

/** A chrome-remote-interface client (the subset used here). */
export interface CdpClient extends CdpSendable {
  on(event: string, listener: Listener): unknown
  once(event: string, listener: Listener): unknown
  off(event: string, listener: Listener): unknown
  close(): Promise<void>
}

/** An entry of the DevTools target list (`/json/list`). */
export interface TargetInfo {
  id: string
  type: string
  url: string
  webSocketDebuggerUrl?: string
}

/** The chrome-remote-interface module (the subset used here). */
export type Cri = (options: { target: string; local: boolean }) => Promise<CdpClient>

/** A session ready for a call, and how to close it when this module opened it. */
export interface OpenedTarget {
  session: CdpSendable
  close?: () => Promise<unknown>
}

/** Whether the target is an open session rather than an address. */
export function isSendable(target: unknown): target is CdpSendable {
  return typeof (target as CdpSendable | undefined)?.send === 'function'
}

/** The session an object holds (see CdpSessionHolder), when it is one that holds a session. */
export function heldSession(target: unknown): CdpSendable | undefined {
  const client = (target as Partial<CdpSessionHolder> | null | undefined)?.client
  return target && typeof target === 'object' && isSendable(client) ? client : undefined
}

type Commands = ProtocolMapping.Commands
type Events = ProtocolMapping.Events
/** What a CDP command answers. */
export type CommandResult<M extends keyof Commands> = Commands[M]['returnType']

/**
 * Sends a command, typed by the protocol: the session itself is untyped (see `CdpSendable`), and
 * the answer of a command is what the protocol defines for it.
 */
export function command<M extends keyof Commands>(
  session: CdpSendable,
  method: M,
  ...params: Commands[M]['paramsType']
): Promise<CommandResult<M>> {
  return session.send(method, params[0]) as Promise<CommandResult<M>>
}

/** A listener of one CDP event, typed by the protocol. */
export type EventListener<E extends keyof Events> = (...params: Events[E]) => void

/** Adds `listener` for `event`; returns what removes it (a no-op for a session without `off`). */
export function listen<E extends keyof Events>(
  session: CdpSendable,
  event: E,
  listener: EventListener<E>,
  once = false,
): () => void {
  // The session passes the event's parameters, which the protocol defines for this event.
  const untyped = listener as Listener
  const client = session as Partial<CdpClient>
  if (once && client.once) client.once(event, untyped)
  else session.on?.(event, untyped)
  return () => void session.off?.(event, untyped)
}

/**
 * Connecting by address (`{ host, port, target }`, a `ws://` URL, `"HOST:PORT"`) with
 * chrome-remote-interface. Loaded only for those targets, so the runtime entry stays small.
 */
import type { BrowserTarget, CdpAddress, Cri, OpenedTarget, TargetInfo } from './cdp'
import { pickPage } from './pick-page'
import { heldSession, isSendable, type SiteToolError, siteToolError } from './shared'

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
    throw siteToolError('unavailable', { module: name }, { cause })
  }
}

/** A target as a message shows it: a string as JSON, an object by its keys (never its whole content). */
function describeTarget(target: unknown): string {
  if (typeof target === 'string') return JSON.stringify(target)
  if (!target || typeof target !== 'object') return String(target)
  const { host, port } = target as Partial<CdpAddress>
  if (port !== undefined)
    return `{ host: ${JSON.stringify(host) ?? 'undefined'}, port: ${JSON.stringify(port) ?? typeof port} }`
  return `an object with keys ${Object.keys(target).join(', ') || '(none)'}`
}

function invalid(target: unknown, why: 'expected' | 'port' | 'url' | 'host'): SiteToolError {
  return siteToolError('invalid-target', { shown: describeTarget(target), why })
}

/** Whether a target is a `ws://` (or `wss://`) URL. */
export const isWsUrl = (target: string): boolean => /^wss?:\/\//i.test(target)

/** `"HOST:PORT"` (an IPv6 host in brackets) as an address, or undefined when the text is not of that form. */
export function parseHostPort(text: string): CdpAddress | undefined {
  const match = HOST_PORT_RE.exec(text)
  return match ? { host: match[1], port: Number(match[2]) } : undefined
}

/** A page `ws://` URL as is; a browser `ws://` URL or `"HOST:PORT"` as an address. */
function parseTarget(target: string): CdpAddress | string {
  if (isWsUrl(target)) {
    let url: URL
    try {
      url = new URL(target)
    } catch {
      throw invalid(target, 'url')
    }
    if (url.port === '0') throw invalid(target, 'port')
    const port = Number(url.port || (url.protocol === 'wss:' ? 443 : 80))
    return url.pathname.startsWith('/devtools/browser/') ? { host: url.hostname, port } : target
  }
  const address = parseHostPort(target)
  if (!address) throw invalid(target, 'expected')
  return address
}

/**
 * Checks a CDP address or URL before anything connects: a malformed URL, a port outside 1-65535,
 * a bare number are a SiteToolError `invalid-target`. Returns the address or page URL to open.
 */
function checkTarget(target: CdpAddress | string): CdpAddress | string {
  const parsed = typeof target === 'string' ? parseTarget(target) : target
  if (typeof parsed === 'string') return parsed
  // An object without a port is not an address: say what a target is, not that its port is wrong.
  if (!parsed || typeof parsed !== 'object' || !('port' in parsed)) throw invalid(target, 'expected')
  const { host, port } = parsed
  if (!(Number.isInteger(port) && port > 0 && port < 65536)) throw invalid(target, 'port')
  if (host !== undefined && typeof host !== 'string') throw invalid(target, 'host')
  return parsed
}

/** What is wrong with a target (see checkTarget), or undefined: for callers that report it their own way. */
export function targetProblem(target: BrowserTarget): string | undefined {
  try {
    if (!isSendable(target) && !heldSession(target)) checkTarget(target as CdpAddress | string)
  } catch (error) {
    return (error as Error).message
  }
  return undefined
}

function pickTarget(list: TargetInfo[], wanted?: string): TargetInfo | undefined {
  const pages = list.filter((t) => t.type === 'page')
  if (wanted === undefined) return pages[0]
  return list.find((t) => t.id === wanted) ?? pickPage(pages, wanted)
}

/** Checks the target against the browser's list first: chrome-remote-interface crashes on unknown ids. */
async function resolveAddress(cri: Cri, address: CdpAddress): Promise<string> {
  const host = address.host ?? '127.0.0.1'
  const where = `${host}:${address.port}`
  const list = await cri.List({ host, port: address.port }).catch((cause: unknown) => {
    throw siteToolError('disconnected', { reach: where }, { cause })
  })
  const found = pickTarget(list, address.target)
  if (found?.webSocketDebuggerUrl) return found.webSocketDebuggerUrl
  throw siteToolError('target-not-found', { target: address.target ?? '', where })
}

/**
 * Opens a connection to an address or URL (checked first, see checkTarget); the caller closes it.
 * An object holding a session (a page of launchBrowser()) gives that session, which its owner closes.
 */
export async function openTarget(target: Exclude<BrowserTarget, string> | string): Promise<OpenedTarget> {
  const held = heldSession(target)
  if (held) return { session: held }
  const parsed = checkTarget(target as CdpAddress | string)
  const cri = await loadCri()
  const url = typeof parsed === 'string' ? parsed : await resolveAddress(cri, parsed)
  const client = await cri({ target: url, local: true }).catch((cause: unknown) => {
    throw siteToolError('disconnected', { connect: url }, { cause })
  })
  return { session: client, close: () => client.close() }
}

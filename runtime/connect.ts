/**
 * Connecting by address (`{ host, port, target }`, `{ url, headers, target }`, a `ws://` or `wss://`
 * URL, `"HOST:PORT"`) over one WebSocket (socket.ts): a page's own URL is its session; any other is
 * a browser's, whose page is attached as a flat session. Loaded only for those targets, so the
 * runtime entry stays small. chrome-remote-interface is loaded only by the launcher (launch.ts).
 */
import type { BrowserTarget, CdpAddress, CdpEndpoint, Cri, OpenedTarget } from './cdp'
import { importOptional } from './optional'
import { pickPage } from './pick-page'
import { heldSession, isSendable, SiteToolError, siteToolError } from './shared'
import { type CdpSocket, openSocket } from './socket'
import { shownUrl } from './upgrade'

const HOST_PORT_RE = /^(\[[^\]]+\]|[^:/\s]+):(\d+)$/
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
const HEADER_VALUE_BAD_RE = /[\r\n\0]/
const PAGE_PATH_RE = /^\/devtools\/page\//

/** Loads chrome-remote-interface on first use: importing it changes the DNS order of the process. */
export async function loadCri(): Promise<Cri> {
  const name = 'chrome-remote-interface'
  try {
    return (await importOptional<{ default: Cri }>(name)).default
  } catch (cause) {
    throw siteToolError('unavailable', { module: name }, { cause })
  }
}

/** A target as a message shows it: a string as JSON (a URL without its tokens), an object by its keys. */
function describeTarget(target: unknown): string {
  if (typeof target === 'string') return JSON.stringify(isWsUrl(target) ? shownUrl(target) : target)
  if (!target || typeof target !== 'object') return String(target)
  const { host, port } = target as Partial<CdpAddress>
  if (port !== undefined)
    return `{ host: ${JSON.stringify(host) ?? 'undefined'}, port: ${JSON.stringify(port) ?? typeof port} }`
  return `an object with keys ${Object.keys(target).join(', ') || '(none)'}`
}

function invalid(target: unknown, why: 'expected' | 'port' | 'url' | 'host' | 'headers'): SiteToolError {
  return siteToolError('invalid-target', { shown: describeTarget(target), why })
}

/** Whether a target is a `ws://` (or `wss://`) URL. */
export const isWsUrl = (target: string): boolean => /^wss?:\/\//i.test(target)

/** `"HOST:PORT"` (an IPv6 host in brackets) as an address, or undefined when the text is not of that form. */
export function parseHostPort(text: string): CdpAddress | undefined {
  const match = HOST_PORT_RE.exec(text)
  return match ? { host: match[1], port: Number(match[2]) } : undefined
}

/** What to connect to, once checked: a page's own socket, or a browser (a URL or an address) and its tab. */
type Plan =
  | { page: string; headers?: Record<string, string> }
  | { browser: string | CdpAddress; target?: string; headers?: Record<string, string> }

/** The headers of a target, checked: names are HTTP tokens, values text without line breaks. */
function checkHeaders(target: unknown, headers: unknown): Record<string, string> | undefined {
  if (headers === undefined) return undefined
  if (!headers || typeof headers !== 'object' || Array.isArray(headers)) throw invalid(target, 'headers')
  for (const [name, value] of Object.entries(headers))
    if (!HEADER_NAME_RE.test(name) || typeof value !== 'string' || HEADER_VALUE_BAD_RE.test(value))
      throw invalid(target, 'headers')
  return headers as Record<string, string>
}

/** A `ws://` or `wss://` URL: a page's (`/devtools/page/...`), else a browser's. */
function planUrl(target: unknown, text: string, extra: Omit<CdpEndpoint, 'url'> = {}): Plan {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw invalid(target, 'url')
  }
  if (url.port === '0') throw invalid(target, 'port')
  const headers = checkHeaders(target, extra.headers)
  const sent = headers ? { headers } : {}
  if (PAGE_PATH_RE.test(url.pathname)) return { page: text, ...sent }
  return { browser: text, ...sent, ...(extra.target === undefined ? {} : { target: extra.target }) }
}

/**
 * Checks a target before anything connects: a malformed URL, a port outside 1-65535, a bare
 * number, bad headers are a SiteToolError `invalid-target`. Returns what to connect to.
 */
function checkTarget(target: CdpAddress | CdpEndpoint | string): Plan {
  if (typeof target === 'string') {
    if (isWsUrl(target)) return planUrl(target, target)
    const address = parseHostPort(target)
    if (!address) throw invalid(target, 'expected')
    return checkTarget(address)
  }
  if (target && typeof target === 'object' && typeof (target as CdpEndpoint).url === 'string') {
    const endpoint = target as CdpEndpoint
    if (!isWsUrl(endpoint.url)) throw invalid(target, 'url')
    return planUrl(target, endpoint.url, endpoint)
  }
  // An object without a port is not an address: say what a target is, not that its port is wrong.
  if (!target || typeof target !== 'object' || !('port' in target)) throw invalid(target, 'expected')
  const { host, port } = target as CdpAddress
  if (!(Number.isInteger(port) && port > 0 && port < 65536)) throw invalid(target, 'port')
  if (host !== undefined && typeof host !== 'string') throw invalid(target, 'host')
  const headers = checkHeaders(target, (target as CdpAddress).headers)
  const { target: tab } = target as CdpAddress
  return { browser: { host, port }, ...(headers ? { headers } : {}), ...(tab === undefined ? {} : { target: tab }) }
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

/** `host:port` as a URL authority (an IPv6 host in brackets). */
function authority({ host = '127.0.0.1', port }: CdpAddress): string {
  return `${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`
}

/**
 * The browser's WebSocket URL at an address, from its `/json/version`, under the address's own
 * host and port (the browser names the address it bound, which a proxy or a port mapping hides).
 */
export async function browserUrl(address: CdpAddress, headers?: Record<string, string>): Promise<string> {
  const where = authority(address)
  const response = await fetch(`http://${where}/json/version`, headers ? { headers } : {}).catch((cause: unknown) => {
    throw siteToolError('disconnected', { reach: where }, { cause })
  })
  const info = (await response.json().catch(() => undefined)) as { webSocketDebuggerUrl?: unknown } | undefined
  const found = info?.webSocketDebuggerUrl
  if (typeof found !== 'string' || !isWsUrl(found)) throw siteToolError('disconnected', { notDevtools: where })
  return `ws://${where}${new URL(found).pathname}`
}

interface TargetEntry {
  targetId: string
  type: string
  url: string
}

/**
 * The tab of a browser connection: a target id, else the page at or containing `wanted` (pickPage);
 * with neither, the first page `prefer` accepts (a page of the tool's skill), else the first page.
 * The browser lists its pages in no fixed order: a new tab beside the blank one it started with
 * comes first or second, so a tool call picks its page by what it is, not by its place.
 */
async function findPage(
  socket: CdpSocket,
  wanted: string | undefined,
  where: string,
  prefer?: (url: string) => boolean,
): Promise<string> {
  const { targetInfos } = (await socket.send('Target.getTargets')) as { targetInfos: TargetEntry[] }
  const pages = targetInfos.filter((t) => t.type === 'page')
  const found =
    wanted === undefined
      ? ((prefer && pages.find((p) => prefer(p.url))) ?? pages[0])
      : (targetInfos.find((t) => t.targetId === wanted) ?? pickPage(pages, wanted))
  if (found) return found.targetId
  throw siteToolError('target-not-found', { target: wanted ?? '', where })
}

/**
 * Opens a connection to an address, endpoint or URL (checked first, see checkTarget); the caller
 * closes it. An object holding a session (a page of launchBrowser()) gives that session, which its
 * owner closes.
 */
export async function openTarget(
  target: Exclude<BrowserTarget, string> | string,
  prefer?: (url: string) => boolean,
): Promise<OpenedTarget> {
  const held = heldSession(target)
  if (held) return { session: held }
  const plan = checkTarget(target as CdpAddress | CdpEndpoint | string)
  const options = plan.headers ? { headers: plan.headers } : {}
  if ('page' in plan) {
    const socket = await openSocket(plan.page, options)
    return { session: socket, close: () => socket.close() }
  }
  const { browser } = plan
  const url = typeof browser === 'string' ? browser : await browserUrl(browser, plan.headers)
  const socket = await openSocket(url, options)
  const where = typeof browser === 'string' ? shownUrl(browser) : authority(browser)
  try {
    const session = await socket.attach(await findPage(socket, plan.target, where, prefer))
    return { session, close: () => socket.close() }
  } catch (error) {
    await socket.close()
    throw error instanceof SiteToolError ? error : siteToolError('disconnected', { connect: where }, { cause: error })
  }
}

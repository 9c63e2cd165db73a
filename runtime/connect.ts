/**
 * Connecting by address (`{ host, port, target }`, a `ws://` URL, `"HOST:PORT"`) with
 * chrome-remote-interface. Loaded only for those targets, so the runtime entry stays small.
 */
import type { CdpAddress, Cri, OpenedTarget, TargetInfo } from './cdp'
import { SiteToolError } from './errors'

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
    throw new SiteToolError('unavailable', `cannot load ${name}`, { cause })
  }
}

function badTarget(target: unknown): SiteToolError {
  return new SiteToolError('target-not-found', `bad CDP target ${JSON.stringify(target)} (ws://..., HOST:PORT, { host, port, target })`)
}

/** A page `ws://` URL as is; a browser `ws://` URL or `"HOST:PORT"` as an address. */
function parseTarget(target: string): CdpAddress | string {
  if (/^wss?:\/\//i.test(target)) {
    const url = new URL(target)
    return url.pathname.startsWith('/devtools/browser/') ? { host: url.hostname, port: Number(url.port) } : target
  }
  const match = HOST_PORT_RE.exec(target)
  if (!match) throw badTarget(target)
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
    throw new SiteToolError('disconnected', `cannot reach ${where}`, { cause })
  })
  const found = pickTarget(list, address.target)
  if (found?.webSocketDebuggerUrl) return found.webSocketDebuggerUrl
  throw new SiteToolError('target-not-found', `no page ${JSON.stringify(address.target ?? '')} at ${where}`)
}

/** Opens a connection to an address or URL; the caller closes it. */
export async function openTarget(target: CdpAddress | string): Promise<OpenedTarget> {
  const parsed = typeof target === 'string' ? parseTarget(target) : target
  if (typeof parsed === 'object' && !Number.isInteger(parsed?.port)) throw badTarget(target)
  const cri = await loadCri()
  const url = typeof parsed === 'string' ? parsed : await resolveAddress(cri, parsed)
  const client = await cri({ target: url, local: true }).catch((cause: unknown) => {
    throw new SiteToolError('disconnected', `cannot connect to ${url}`, { cause })
  })
  return { session: client, close: () => client.close() }
}

import { type CdpClient, command, listen } from '../../runtime/internal'
import type { Answer, RequestRule } from './target-guard'

/** How long a page may take to load before the example fails with `timeout`. */
const LOAD_TIMEOUT_MS = 15_000

/** How a navigation ended. */
export interface Loaded {
  /** Chrome's reason when the page could not be loaded at all (`net::ERR_CONNECTION_REFUSED`). */
  errorText?: string
  /** The load event did not come in time. */
  timedOut?: boolean
  /** HTTP status of the main document, when known. */
  status?: number
  /** The page's address after redirects. */
  url?: string
}

const noop = () => {}
const withoutHash = (url: string) => {
  const parsed = new URL(url)
  parsed.hash = ''
  return parsed.href
}

/** Navigates and waits for the load event (or the deadline); reports the main document's status. */
export async function navigate(client: CdpClient, url: string, timeoutMs = LOAD_TIMEOUT_MS): Promise<Loaded> {
  await command(client, 'Page.enable')
  await command(client, 'Network.enable')
  let status: number | undefined
  let frameId: string | undefined
  const onResponse = (event: { type: string; frameId?: string; response: { status: number } }): void => {
    if (event.type === 'Document' && (frameId === undefined || event.frameId === frameId))
      status = event.response.status
  }
  let onLoad = noop
  let timer: NodeJS.Timeout | undefined
  const loaded = new Promise<boolean>((resolve) => {
    onLoad = () => resolve(true)
    timer = setTimeout(() => resolve(false), timeoutMs)
  })
  const stopLoad = listen(client, 'Page.loadEventFired', () => onLoad())
  const stopResponse = listen(client, 'Network.responseReceived', onResponse)
  try {
    const answer = await command(client, 'Page.navigate', { url })
    frameId = answer.frameId
    if (answer.errorText) return { errorText: answer.errorText, status }
    if (!(await loaded)) return { timedOut: true, status }
    const { result } = await command(client, 'Runtime.evaluate', { expression: 'location.href', returnByValue: true })
    return { status, url: String(result.value) }
  } finally {
    clearTimeout(timer)
    stopLoad()
    stopResponse()
  }
}

/**
 * What a fixture is served with: its type, and a policy under which no script of the page runs
 * (inline, `srcdoc` and `data:` frames, `javascript:` URLs, event handler attributes, workers:
 * frames of the page inherit it). A browser tool still runs: CDP evaluation is not subject to it.
 */
function fixtureHeaders(contentType: string): Answer['headers'] {
  return [
    { name: 'Content-Type', value: contentType },
    { name: 'Content-Security-Policy', value: "script-src 'none'; object-src 'none'" },
    { name: 'Cache-Control', value: 'no-store' },
  ]
}

/**
 * The addresses a page at `url` may be requested under: itself, and for an `http:` URL its
 * `https:` twin, which Chromium asks for instead when it upgrades the navigation (HTTPS-Upgrades).
 */
function servedAddresses(url: string): string[] {
  const plain = withoutHash(url)
  const parsed = new URL(plain)
  if (parsed.protocol !== 'http:') return [plain]
  parsed.protocol = 'https:'
  return [plain, parsed.href]
}

/** Answers a request for the page at `url` with `body`; every other request fails (no network is touched). */
export function fixtureRule(url: string, body: Buffer, contentType = 'text/html; charset=utf-8'): RequestRule {
  const addresses = new Set(servedAddresses(url))
  const answer = { body, headers: fixtureHeaders(contentType) }
  return (requested) => (addresses.has(withoutHash(requested)) ? answer : undefined)
}

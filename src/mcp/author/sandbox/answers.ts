import type { CdpClient } from '../../../../runtime/internal'
import type { Message } from './channel'

/** The largest response body a child gets through `fetch`. */
const MAX_FETCHED = 8 * 1024 * 1024
/** Requests of one child answered at once; more are refused. */
const MAX_IN_FLIGHT = 16
/** CDP events one child listens to at once. */
const MAX_EVENTS = 64

/**
 * What `ctx.cdp` of a sandboxed run may do: the tab's page (its DOM, scripts, styles, input,
 * network, emulation), never the browser (Target, Browser, Storage, IO: other tabs, downloads,
 * files) nor a navigation away from the web.
 */
const CDP_DOMAINS = new Set([
  'Accessibility',
  'CSS',
  'DOM',
  'DOMSnapshot',
  'Emulation',
  'Input',
  'Log',
  'Network',
  'Page',
  'Runtime',
])
const CDP_REFUSED = new Set(['Page.setDownloadBehavior', 'Network.loadNetworkResource'])

function cdpRefusal(method: string, params: unknown): string | undefined {
  const domain = method.split('.')[0] ?? ''
  if (!CDP_DOMAINS.has(domain) || CDP_REFUSED.has(method))
    return `${method} is not open to a sandboxed example (only the page's ${[...CDP_DOMAINS].join(', ')})`
  const url = (params as { url?: unknown } | undefined)?.url
  if (method === 'Page.navigate' && !(typeof url === 'string' && /^https?:/i.test(url)))
    return `Page.navigate opens only http(s) URLs in a sandboxed example, not ${JSON.stringify(url)}`
  return undefined
}

/** A response body of at most MAX_FETCHED bytes, as base64. */
async function boundedBody(response: Response): Promise<string> {
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = response.body?.getReader()
  for (let part = await reader?.read(); part && !part.done; part = await reader!.read()) {
    size += part.value.length
    if (size > MAX_FETCHED) {
      await reader!.cancel()
      throw new Error(`the response of ${response.url} is larger than ${MAX_FETCHED / 1024 / 1024} MiB`)
    }
    chunks.push(part.value)
  }
  return Buffer.concat(chunks).toString('base64')
}

type Fetch = (input: string, init?: RequestInit) => Promise<Response>

async function answerFetch(fetcher: Fetch | undefined, message: Message, signal: AbortSignal): Promise<Message> {
  if (!fetcher) return { t: 'fetched', error: 'fetch failed: this run has no network' }
  const body = typeof message.body === 'string' ? Buffer.from(message.body, 'base64') : undefined
  const response = await fetcher(message.url as string, {
    method: message.method as string,
    headers: message.headers as [string, string][],
    ...(body ? { body } : {}),
    signal,
  })
  return {
    t: 'fetched',
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
    body: await boundedBody(response),
  }
}

/**
 * The server's side of a run: answers the child's `fetch` with the tool's `ctx.fetch`, and its
 * `ctx.cdp` calls and event listeners with the tab's session, within the limits above.
 */
export function createAnswers(ctx: unknown, tell: (message: Message) => void, signal: AbortSignal) {
  const { fetch: fetcher, cdp } = (ctx ?? {}) as { fetch?: Fetch; cdp?: CdpClient }
  const listeners = new Map<string, (params: unknown) => void>()
  let inFlight = 0

  async function answer(message: Message): Promise<Message> {
    if (message.t === 'fetch') return answerFetch(fetcher, message, signal)
    const refused = cdp ? cdpRefusal(message.method as string, message.params) : 'this run has no tab'
    if (refused) return { t: 'cdp-result', error: refused }
    return { t: 'cdp-result', result: await cdp!.send(message.method as string, message.params as object) }
  }

  function listen(message: Message): void {
    const event = message.event as string
    if (message.t === 'cdp-off') {
      const listener = listeners.get(event)
      if (listener) cdp?.off(event, listener)
      listeners.delete(event)
      return
    }
    if (!cdp || listeners.has(event) || listeners.size >= MAX_EVENTS) return
    const listener = (params: unknown) => tell({ t: 'cdp-event', event, params })
    listeners.set(event, listener)
    cdp.on(event, listener)
  }

  return {
    async handle(message: Message): Promise<void> {
      if (message.t === 'cdp-on' || message.t === 'cdp-off') return listen(message)
      if (message.t !== 'fetch' && message.t !== 'cdp') return
      const reply = (m: Message) => tell({ ...m, id: message.id })
      if (inFlight >= MAX_IN_FLIGHT)
        return reply({ t: 'refused', error: `more than ${MAX_IN_FLIGHT} requests at once` })
      inFlight++
      try {
        reply(await answer(message))
      } catch (error) {
        reply({ t: 'failed', error: error instanceof Error ? error.message : String(error) })
      } finally {
        inFlight--
      }
    },
    close(): void {
      for (const [event, listener] of listeners) cdp?.off(event, listener)
      listeners.clear()
    },
  }
}

import { browserUrl } from '../../runtime/internal'

/**
 * A browser as `--cdp` names it: a DevTools address (`HOST:PORT`), or a `ws://`/`wss://` URL (a
 * remote fleet's connect URL, a browser's, or one page's, `page` being its target id), with the
 * headers of the WebSocket upgrade (`--cdp-header`).
 */
export type BrowserSpec = (
  | { address: { host: string; port: number } }
  | {
      url: string
      /** The target id of a `.../devtools/page/<id>` URL. */
      page?: string
    }
) & { headers?: Record<string, string> }

/** A browser's own WebSocket endpoint, what connecting to it takes, and the page `--cdp` named. */
export interface BrowserEndpoint {
  url: string
  headers?: Record<string, string>
  /** The target id of the page a `.../devtools/page/<id>` URL named. */
  page?: string
}

/**
 * The browser endpoint of a spec: an address's from its `/json/version`; a page URL's from the
 * `/json/version` of its host (a local browser: fleets give browser URLs only); any other URL as it is.
 */
export async function resolveBrowser(spec: BrowserSpec): Promise<BrowserEndpoint> {
  const sent = spec.headers ? { headers: spec.headers } : {}
  if ('address' in spec) return { url: await browserUrl(spec.address, spec.headers), ...sent }
  if (!spec.page) return { url: spec.url, ...sent }
  const at = new URL(spec.url)
  const port = Number(at.port || (at.protocol === 'wss:' ? 443 : 80))
  return { url: await browserUrl({ host: at.hostname, port }, spec.headers), page: spec.page, ...sent }
}

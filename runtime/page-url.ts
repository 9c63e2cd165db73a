/**
 * What a browser call checks of the page's URL on Node's side: the path of a scoped tool (`urls`)
 * before the call, and the guard's refusal after it. Loaded with the first call of a scoped tool,
 * or the first refusal (browser.ts imports it then): the calls of other tools never need it.
 */
import type { CallInfo } from './browser-errors'
import type { CdpSendable } from './cdp'
import { command } from './cdp'
import { type SiteToolError, siteToolError } from './errors'
import { urlMatchesDomains } from './match'
import { urlMatchesPaths } from './urls'

/** What is read of a call here; `pathname` is set to the path checked (see checkPath). */
interface PageCall extends CallInfo {
  /** The skill's domains, and the path patterns of the skill and the tool (see BrowserCall). */
  call: { domains: readonly string[]; urls?: readonly (readonly string[])[] }
  pathname?: string
}

function urlMismatch(run: PageCall, url: string): SiteToolError {
  const patterns = (run.call.urls ?? []).map((list) => list.join(' | ')).join(' and ')
  return siteToolError('url-mismatch', { url, patterns }, run)
}

/** The error of the guard's refusal of the page at `url` (see DOMAIN_GUARD). */
export function refusal(run: PageCall, url: string): SiteToolError {
  if (run.call.urls?.length && urlMatchesDomains(url, run.call.domains)) return urlMismatch(run, url)
  const patterns = run.call.domains.join(', ') || 'no domains'
  return siteToolError('domain-mismatch', { url, patterns }, run)
}

/**
 * With `urls`: reads the page's URL (one more round trip, only for scoped tools) and refuses a
 * path that does not match, on any host (`url-mismatch` on the skill's domains, else
 * `domain-mismatch`). The guard then checks the host and that the path is still the one checked,
 * in the call itself (see DOMAIN_GUARD): a tab that moves in between is refused, whatever host
 * it was on.
 */
export async function checkPath(run: PageCall, session: CdpSendable): Promise<void> {
  const { result } = await command(session, 'Runtime.evaluate', { expression: 'location.href', returnByValue: true })
  const href = String(result.value)
  if (!urlMatchesPaths(href, run.call.urls ?? [])) throw refusal(run, href)
  run.pathname = new URL(href).pathname
}

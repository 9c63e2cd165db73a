/**
 * What a browser call checks of the page's URL on Node's side: the path of a scoped tool (`urls`)
 * before the call, and the guard's refusal after it. Loaded with the first call of a scoped tool,
 * or the first refusal (browser.ts imports it then): the calls of other tools never need it.
 */
import type { BrowserCall } from './browser'
import type { CallInfo } from './browser-errors'
import type { CdpSendable } from './cdp'
import { command, type SiteToolError, siteToolError, urlMatchesDomains, urlMatchesPaths } from './shared'

/** What is read of a call here; `pathname` is set to the path checked (see checkPath). */
interface PageCall extends CallInfo {
  call: Pick<BrowserCall, 'domains' | 'urls'>
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
 * path that does not match; the guard then pins the path it checked (see DOMAIN_GUARD). A host
 * off the skill's domains is left to the guard, which says `domain-mismatch`.
 */
export async function checkPath(run: PageCall, session: CdpSendable): Promise<void> {
  const urls = run.call.urls ?? []
  const { result } = await command(session, 'Runtime.evaluate', { expression: 'location.href', returnByValue: true })
  const href = String(result.value)
  if (!urlMatchesDomains(href, run.call.domains)) return
  if (!urlMatchesPaths(href, urls)) throw urlMismatch(run, href)
  run.pathname = new URL(href).pathname
}

import type { CdpAddress, CdpEndpoint } from '../../runtime/index'
import { isWsUrl, parseHostPort, shownUrl } from '../../runtime/internal'
import type { BrowserSpec } from '../cdp/endpoint'
import { UsageError } from './io'

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
const HEADER_VALUE_BAD_RE = /[\r\n\0]/
const PAGE_PATH_RE = /^\/devtools\/page\/([^/]+)$/

/** `--cdp` and `--cdp-header`, checked (see BrowserSpec). */
type CdpChoice = BrowserSpec

/** What a command's `--cdp` help and usage errors call what it takes. */
const TAKES = 'HOST:PORT or a ws:// or wss:// URL'

/** `--cdp-header NAME:VALUE` (repeatable; a name given twice keeps its last value). */
function headersOf(values: readonly string[] | undefined): Record<string, string> | undefined {
  if (!values?.length) return undefined
  const headers: Record<string, string> = {}
  for (const value of values) {
    const colon = value.indexOf(':')
    const name = colon < 0 ? '' : value.slice(0, colon).trim()
    const text = colon < 0 ? '' : value.slice(colon + 1).trim()
    if (!HEADER_NAME_RE.test(name) || HEADER_VALUE_BAD_RE.test(text))
      throw new UsageError(
        `--cdp-header takes NAME:VALUE (a header name of letters, digits and -, then its value on one line), not ` +
          `${JSON.stringify(`${value.slice(0, 40)}${value.length > 40 ? '…' : ''}`)}`,
      )
    headers[name] = text
  }
  return headers
}

function portOk(port: number): boolean {
  return Number.isInteger(port) && port > 0 && port < 65536
}

function urlChoice(text: string): CdpChoice {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new UsageError(`--cdp is not a valid URL: ${JSON.stringify(shownUrl(text))}`)
  }
  if (url.port === '0') throw new UsageError(`--cdp needs a port from 1 to 65535: ${JSON.stringify(shownUrl(text))}`)
  const page = PAGE_PATH_RE.exec(url.pathname)?.[1]
  return page ? { url: text, page } : { url: text }
}

/**
 * The `--cdp` of a command with its `--cdp-header`s, or undefined without `--cdp`. Bad usage (a
 * malformed value, headers without `--cdp`) is a UsageError. A token in the URL never shows in a
 * message.
 */
export function cdpChoice(args: { cdp?: string; 'cdp-header'?: string[] }): CdpChoice | undefined {
  const headers = headersOf(args['cdp-header'])
  if (args.cdp === undefined) {
    if (headers) throw new UsageError(`--cdp-header needs --cdp (${TAKES})`)
    return undefined
  }
  const sent = headers ? { headers } : {}
  if (isWsUrl(args.cdp)) return { ...urlChoice(args.cdp), ...sent }
  const address = parseHostPort(args.cdp)
  if (!address) throw new UsageError(`--cdp must be ${TAKES}, not ${JSON.stringify(args.cdp)}`)
  if (!portOk(address.port)) throw new UsageError(`--cdp needs a port from 1 to 65535, not ${address.port}`)
  return { address: { host: address.host!.replace(/^\[|\]$/g, ''), port: address.port }, ...sent }
}

/** A choice as the runtime takes a target (`--target` picks the tab of a browser endpoint). */
export function runtimeTarget(choice: CdpChoice, target: string | undefined): CdpAddress | CdpEndpoint {
  const tab = target === undefined ? {} : { target }
  const sent = choice.headers ? { headers: choice.headers } : {}
  if ('address' in choice) return { ...choice.address, ...tab, ...sent }
  if (choice.page && target !== undefined)
    throw new UsageError('--target picks a tab of a browser: --cdp names one page already (.../devtools/page/...)')
  return { url: choice.url, ...tab, ...sent }
}

/** A choice that must name a browser, not one page (`test`, `snapshot`). */
export function browserChoice(choice: CdpChoice, usage: string): CdpChoice {
  if ('url' in choice && choice.page)
    throw new UsageError(`--cdp names one page; pass the browser's address or URL instead (${usage})`)
  return choice
}

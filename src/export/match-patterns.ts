/**
 * A skill's scope as the `matches` of an extension's content script: Chrome match patterns, which
 * can say less than domain patterns and URLPattern paths. Each is widened, never narrowed (the
 * page code checks the exact scope again before it registers or runs a tool, with the runtime's
 * guard): `*.host` also matches `host` itself, and a path pattern keeps only its plain start.
 */

/** Characters a path keeps as they are in a URL (no percent-encoding) and that URLPattern reads as themselves. */
const PLAIN_PATH_RE = /^[A-Za-z0-9\-._~/]*/

/**
 * The match pattern path for a URLPattern pathname: a plain pattern as it is, then `*` (a query);
 * else its plain start before the last `/` of it, then `*`: a group may be optional with the `/`
 * before it (`/items/:id?` matches `/items`).
 */
export function pathPattern(pathname: string): string {
  const plain = PLAIN_PATH_RE.exec(pathname)![0]
  if (!plain.startsWith('/')) return '/*'
  if (plain === pathname) return `${plain}*`
  const cut = plain.lastIndexOf('/')
  return cut === 0 ? '/*' : `${plain.slice(0, cut)}*`
}

/** The host part of a match pattern for a domain pattern (`host` or `*.host`). */
const hostPattern = (domain: string) => domain

/**
 * The match patterns of a skill (http and https, any port): one per domain and path, sorted, no
 * duplicates. Without `urls`, every path.
 */
export function matchPatterns(domains: readonly string[], urls?: readonly string[]): string[] {
  const paths = urls?.length ? urls.map(pathPattern) : ['/*']
  const patterns = new Set(domains.flatMap((d) => paths.map((p) => `*://${hostPattern(d)}${p}`)))
  return [...patterns].sort()
}

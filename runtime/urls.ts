/**
 * URL scoping (`urls` on a skill or a tool): URLPattern pathname patterns such as `/:owner/:repo`.
 * Matching is URLPattern's own: the global one (Node 23.8+, browsers), else the maintained
 * `urlpattern-polyfill`, which `loadUrlPattern()` imports only when the global is missing, so a
 * bundle that never needs it carries a dynamic import, not the polyfill.
 */
import { siteToolError } from './errors'

/** What is used of a URLPattern object. */
interface PathPattern {
  test(input: { pathname: string }): boolean
}
type PathPatternClass = new (init: { pathname: string }) => PathPattern

let polyfill: PathPatternClass | undefined

/** The URLPattern class in use: the global one, else the polyfill once loaded. */
function patternClass(): PathPatternClass | undefined {
  return (globalThis as { URLPattern?: PathPatternClass }).URLPattern ?? polyfill
}

/**
 * Makes URLPattern available to the matching below: a no-op where the global exists, else imports
 * the polyfill (Node 20 and 22). Generated modules await it when a skill or tool has `urls`.
 */
export async function loadUrlPattern(): Promise<void> {
  if (patternClass()) return
  const module = await import('urlpattern-polyfill/urlpattern')
  polyfill ??= module.URLPattern as unknown as PathPatternClass
}

/**
 * Compiles one pathname pattern; throws URLPattern's TypeError for an invalid one. Without a
 * URLPattern (Node < 23.8 and `loadUrlPattern()` not awaited) it throws `url-pattern-unavailable`.
 */
export function compilePathPattern(pattern: string): PathPattern {
  const Pattern = patternClass()
  if (!Pattern) throw siteToolError('url-pattern-unavailable', { pattern })
  return new Pattern({ pathname: pattern })
}

/**
 * An `http(s)://host[:port]` URL whose path holds only characters WHATWG parsing leaves as they
 * are (no percent sign, backslash, tab or newline, no `.` or `..` segment), then a query or fragment
 * or nothing: its pathname is that text, read without building a URL object.
 */
const PLAIN_PATH_RE = /^https?:\/\/[A-Za-z0-9.:[\]-]+(\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*)(?:[?#]|$)/
const DOT_SEGMENT_RE = /\/\.\.?(?:\/|$)/

/** The pathname `urls` are matched against: a `blob:` URL's is its inner URL's; undefined when it does not parse. */
export function urlPathname(input: string | URL): string | undefined {
  const plain = typeof input === 'string' ? PLAIN_PATH_RE.exec(input)?.[1] : undefined
  if (plain !== undefined && !DOT_SEGMENT_RE.test(plain)) return plain
  try {
    const url = new URL(String(input))
    return url.protocol === 'blob:' ? new URL(url.pathname).pathname : url.pathname
  } catch {
    return undefined
  }
}

/** Paths whose answer a test keeps: an agent asks about the same few pages again and again. */
const REMEMBERED = 256

/**
 * The longest pathname `urls` are matched against (characters); a longer one matches no list. A
 * page chooses its own path, and URLPattern matches with a backtracking RegExp: `validate` refuses
 * the patterns that backtrack more than linearly, and this bounds what even those get (a skill from
 * an older build, a platform URLPattern that compiles differently). Real paths stay far below it.
 */
const MAX_PATH_LENGTH = 8192

/**
 * A test of a pathname against a list of patterns, compiled at its first use; a path over
 * MAX_PATH_LENGTH matches none. It remembers the
 * answers for the last paths it saw (up to REMEMBERED, then it starts over): URLPattern's own
 * test costs about 13 µs with the polyfill (Node 20 and 22), ten times a URL parse.
 */
function createPathTest(patterns: readonly string[]): (pathname: string) => boolean {
  let compiled: PathPattern[] | undefined
  const seen = new Map<string, boolean>()
  return (pathname) => {
    if (pathname.length > MAX_PATH_LENGTH) return false
    const known = seen.get(pathname)
    if (known !== undefined) return known
    compiled ??= patterns.map(compilePathPattern)
    const found = compiled.some((p) => p.test({ pathname }))
    if (seen.size >= REMEMBERED) seen.clear()
    seen.set(pathname, found)
    return found
  }
}

/** The tests of lists seen before (a skill's or a tool's `urls` array is the same object each call). */
const tests = new WeakMap<readonly string[], (pathname: string) => boolean>()

/** The test of one list, made once per list. */
export function pathTestOf(list: readonly string[]): (pathname: string) => boolean {
  let test = tests.get(list)
  if (!test) {
    test = createPathTest(list)
    tests.set(list, test)
  }
  return test
}

/** Whether `url`'s pathname matches every given list (an absent list matches every path). */
export function urlMatchesPaths(url: string | URL, lists: readonly (readonly string[] | undefined)[]): boolean {
  const scoped = lists.filter((l): l is readonly string[] => l !== undefined)
  if (scoped.length === 0) return true
  const pathname = urlPathname(url)
  return pathname !== undefined && scoped.every((list) => pathTestOf(list)(pathname))
}

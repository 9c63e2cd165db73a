/**
 * Which open page a URL names: the one place that answers it for `--target`, the runtime's
 * `{ host, port, target }` and the MCP server's `site_skills_switch_tab { url }`.
 */
import { siteToolError } from './errors'

/** The most candidates an ambiguous choice lists (a browser may hold hundreds of tabs). */
const CANDIDATES_MAX = 10

/** `text` as a URL in the browser's spelling (`http://a.test` is `http://a.test/`), when it is one. */
function asHref(text: string): string | undefined {
  try {
    return new URL(text).href
  } catch {
    return undefined
  }
}

/**
 * The page whose URL is `wanted` (as written, or as the browser spells it), else the one page whose
 * URL contains it; undefined when none does. Several pages containing it, none of them exactly, is a
 * SiteToolError `target-ambiguous` that lists them: running on a guess is worse than asking.
 */
export function pickPage<T extends { url: string }>(pages: readonly T[], wanted: string): T | undefined {
  const href = asHref(wanted)
  const exact = pages.find((p) => p.url === wanted || p.url === href)
  if (exact) return exact
  const containing = pages.filter((p) => p.url.includes(wanted))
  if (containing.length <= 1) return containing[0]
  const candidates = containing.slice(0, CANDIDATES_MAX).map((p) => p.url)
  throw siteToolError('target-ambiguous', { target: wanted, candidates, count: containing.length })
}

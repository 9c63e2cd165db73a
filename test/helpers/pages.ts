/**
 * Reads a paged result to its end (SPEC 12) and puts it back together: the items of each page at
 * their offsets, and every string cut at a page's end joined with its rest from the next page.
 * What a model does with `pageInfo.cursor`, written from the docs (docs/skills.md, "Result budgets").
 */

type Page = Record<string, unknown> & { pageInfo: { field?: string; offset?: number; cursor?: string } }

const CUT_RE = /…\[cut at (\d+) of (\d+) characters; the rest: cursor [\w-]+\]$/
const FROM_RE = /^\[…from character (\d+)\] /

/**
 * A value with the rest of its cut strings from `next`, a later page of the same item. A string on a
 * page starts at 0 or where an earlier page cut it (`[…from character N] `), and may be cut again:
 * the later view wins from where it starts.
 */
function joined(before: unknown, next: unknown): unknown {
  if (typeof before === 'string' && typeof next === 'string') {
    const cut = CUT_RE.exec(before)
    if (!cut) return before
    const from = FROM_RE.exec(next)
    const start = from ? Number(from[1]) : 0
    if (start > Number(cut[1])) throw new Error(`a page skipped characters ${cut[1]} to ${start}`)
    return before.slice(0, start) + (from ? next.slice(from[0].length) : next)
  }
  if (Array.isArray(before) && Array.isArray(next)) return before.map((v, i) => joined(v, next[i]))
  if (before && next && typeof before === 'object' && typeof next === 'object')
    return Object.fromEntries(
      Object.entries(before).map(([k, v]) => [k, joined(v, (next as Record<string, unknown>)[k])]),
    )
  return before
}

/** Whether any string in a value still ends in a cut marker. */
export function hasCuts(value: unknown): boolean {
  if (typeof value === 'string') return CUT_RE.test(value)
  if (value && typeof value === 'object') return Object.values(value).some(hasCuts)
  return false
}

/**
 * Calls `page` without a cursor, then with each page's `pageInfo.cursor` until the last, and
 * returns the result they make together, and how many pages it took.
 */
export async function readAllPages(
  page: (cursor?: string) => Promise<unknown>,
  limit = 10_000,
): Promise<{ value: unknown; pages: Page[] }> {
  const pages: Page[] = []
  let cursor: string | undefined
  do {
    const next = (await page(cursor)) as Page
    pages.push(next)
    cursor = next.pageInfo?.cursor
    if (pages.length > limit) throw new Error('the pages never end')
  } while (cursor)
  const { field, offset } = pages[0]!.pageInfo
  const key = field ?? 'result'
  /** A page's members besides its items and pageInfo, joined over the pages. */
  const fixed = pages
    .map(({ pageInfo: _, ...members }) => (offset === undefined ? members : without(members, key)))
    .reduce((before, next) => joined(before, next) as Record<string, unknown>)
  if (offset === undefined) {
    const onlyResult = Object.keys(fixed).length === 1 && 'result' in fixed
    return { value: onlyResult ? fixed.result : fixed, pages }
  }
  const items: unknown[] = []
  // A page that goes on with a string after the list holds none of its items (count 0).
  for (const p of pages)
    ((p[key] as unknown[] | undefined) ?? []).forEach((item, i) => {
      const at = p.pageInfo.offset! + i
      items[at] = at in items ? joined(items[at], item) : item
    })
  return { value: field === undefined ? items : { ...fixed, [field]: items }, pages }
}

function without(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _, ...rest } = record
  return rest
}

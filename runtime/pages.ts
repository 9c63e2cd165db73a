/**
 * Result budgets (SPEC 12): a result whose compact text is over its tool's `resultBudget` is sent a
 * page at a time, never cut silently. The page holds as many items of the result's array as fit
 * (the result itself when it is an array, else its largest array member), with `pageInfo` saying
 * how many there are and a `cursor` for the next page; the result's other members are on the first
 * page only. A page that cannot hold one item whole has its long strings cut, each ending in a
 * marker that names the cursor of its rest.
 *
 * The cut is made here, in Node, on the whole result (a browser tool's value comes back whole from
 * the page): every call with a cursor runs the tool again and cuts the same place, so a page is as
 * stable as the page's content. Tokens are estimated (see estimateTokens), never counted.
 */
import { compactText } from './compact'
import { type CallRef, type CursorState, type ValuePath, callDigest, encodeCursor, readCursor } from './cursor'
import { resultJson } from './result-json'
import { siteToolError } from './errors'
import { isRecord } from './text'

/** What a page of a result says of itself (SPEC 12; docs/skills.md, "Result budgets"). */
export interface ResultPageInfo {
  /** The member of the result that is paged (absent when the result itself is the list). */
  field?: string
  /** How many items the list has; the first item of this page, and how many it holds. */
  total?: number
  offset?: number
  count?: number
  /** The next page: pass it as `cursor`. Absent on the last page. */
  cursor?: string
}

/** Where neither the tool nor its skill sets `resultBudget`. */
export const DEFAULT_RESULT_BUDGET = 4000

/** A cut string keeps at least this many characters: a page always moves on. */
const MIN_CUT = 200
/** Strings nested deeper than this are left whole. */
const MAX_DEPTH = 64

/**
 * An estimate of a text's tokens: its UTF-8 bytes / 3. On the shipped examples' results above 400
 * tokens, o200k_base counted 0.69 to 1.03 times this (median 0.78): a budget is rarely exceeded,
 * and the estimate costs one pass over the text instead of a tokenizer.
 */
export function estimateTokens(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    bytes += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c < 0xe000) ? 2 : 3
  }
  return Math.ceil(bytes / 3)
}

/** The estimated tokens of a result as compact text. */
export const resultTokens = (value: unknown): number => estimateTokens(compactText(value))

/** A call to budget: the tool's own arguments, its budget, and the cursor it was given. */
export interface PageRequest extends CallRef {
  /** The tool's `resultBudget` (default DEFAULT_RESULT_BUDGET). */
  budget?: number
  cursor?: string
}

type Record_ = Record<string, unknown>

/** The array a page holds items of: where it is and its items. */
interface Paged {
  path: [] | [string]
  list: unknown[]
}

/** The result's array: itself, or its largest array member (by JSON length); none for other values. */
function pagedArray(value: unknown): Paged | undefined {
  if (Array.isArray(value)) return value.length ? { path: [], list: value } : undefined
  if (!isRecord(value)) return undefined
  let best: string | undefined
  let size = 0
  for (const [key, member] of Object.entries(value)) {
    if (!Array.isArray(member) || member.length === 0) continue
    const length = JSON.stringify(member).length
    if (length > size) [best, size] = [key, length]
  }
  return best === undefined ? undefined : { path: [best], list: value[best] as unknown[] }
}

/** The array a cursor pages, in the result of this call. */
function cursorArray(value: unknown, path: CursorState['p'], stale: (what: string) => never): Paged | undefined {
  if (path === undefined) return undefined
  const [key] = path
  const list = key === undefined ? value : isRecord(value) ? value[key] : undefined
  if (!Array.isArray(list)) stale(key === undefined ? 'it is no longer a list' : `it has no list "${key}" now`)
  return { path, list }
}

/**
 * The members a page after the first carries (a model has the others from an earlier page): the paged
 * list; going on with a cut string, that string's member, and the members after it that hold a string
 * the page that began cutting cut too (longer than it kept), whose rests come next.
 */
function laterMembers(source: Record_, state: CursorState): Record_ {
  const list = state.p?.[0]
  if (!state.s) return list === undefined ? source : { [list]: source[list] }
  const [[key], , kept] = state.s
  const keys = Object.keys(source)
  const from = keys.indexOf(String(key))
  // The list's strings on this page are those of its item at the cursor's offset.
  const shown = (k: string) => (k === list ? (source[k] as unknown[])[state.o] : source[k])
  const wanted = (k: string, i: number) => i === from || (i > from && longest(shown(k)) > kept)
  return Object.fromEntries(keys.flatMap((k, i) => (wanted(k, i) ? [[k, source[k]]] : [])))
}

/** `value` with the string at `path` replaced by `text` (copies along the path only). */
function replaced(value: unknown, path: ValuePath, text: string): unknown {
  if (path.length === 0) return text
  const [key, ...rest] = path
  const copy: Record_ | unknown[] = Array.isArray(value) ? [...value] : { ...(value as Record_) }
  ;(copy as Record_)[key as string] = replaced((value as Record_)[key as string], rest, text)
  return copy
}

function stringAt(value: unknown, path: ValuePath): unknown {
  let at = value
  for (const key of path) at = at !== null && typeof at === 'object' ? (at as Record_)[key as string] : undefined
  return at
}

/** One page being made: the call's result (with a continued string's rest), its array, and where the page starts. */
interface Maker {
  source: unknown
  paged?: Paged
  start: number
  digest: string
  budget: number
  /** The string a cursor continues (CursorState `s`). */
  continued?: [ValuePath, number, number]
}

/** The page of `count` items (or the whole result), before cuts and `pageInfo`. */
function pageBody(m: Maker, count: number): unknown {
  if (!m.paged) return m.source
  const items = m.paged.list.slice(m.start, m.start + count)
  const [key] = m.paged.path
  if (key === undefined) return items
  // A later page that goes on with a string after the list, its item done, leaves the list out.
  return Object.hasOwn(m.source as Record_, key) ? { ...(m.source as Record_), [key]: items } : m.source
}

/** A page as sent: `pageInfo` first, then the result's members (or `result` for a result that is not an object). */
function withInfo(m: Maker, body: unknown, count: number, next?: CursorState): Record_ {
  const info: ResultPageInfo = {}
  const [field] = m.paged?.path ?? []
  if (field !== undefined) info.field = field
  // A page that goes on with a string after the list holds none of its items.
  const shown = field === undefined || (isRecord(body) && Object.hasOwn(body, field)) ? count : 0
  if (m.paged) Object.assign(info, { total: m.paged.list.length, offset: m.start, count: shown })
  if (next) info.cursor = encodeCursor(next)
  const out: Record_ = { pageInfo: info }
  if (!isRecord(body)) return { ...out, result: body }
  for (const [key, member] of Object.entries(body)) if (key !== 'pageInfo') out[key] = member
  return out
}

const fits = (m: Pick<Maker, 'budget'>, page: unknown) => resultTokens(page) <= m.budget

/** The cursor of the items after the first `count` of the page, when there are more. */
function nextItems(m: Maker, count: number): CursorState | undefined {
  if (!m.paged || m.start + count >= m.paged.list.length) return undefined
  return { d: m.digest, p: m.paged.path, o: m.start + count }
}

/** The most items from `start` whose page fits (0 when not even one does): doubling, then halving. */
function mostThatFit(m: Maker): number {
  const left = m.paged!.list.length - m.start
  const ok = (n: number) => fits(m, withInfo(m, pageBody(m, n), n, nextItems(m, n)))
  let good = 0
  let bad = left + 1
  for (let n = 1; n <= left; n *= 2) {
    if (!ok(n)) {
      bad = n
      break
    }
    good = n
  }
  if (bad === left + 1 && good < left) {
    if (ok(left)) return left
    bad = left
  }
  while (bad - good > 1) {
    const mid = (good + bad) >> 1
    if (ok(mid)) good = mid
    else bad = mid
  }
  return good
}

/** A page path's place in the call's result: item `i` of the page is item `start + i` of the array. */
function originOf(m: Maker, path: ValuePath): ValuePath {
  const at = m.paged?.path.length
  if (at === undefined || path.length <= at) return path
  return [...path.slice(0, at), m.start + (path[at] as number), ...path.slice(at + 1)]
}

interface Cut {
  page: unknown
  /** The cursors of the strings it cut, in document order, and which of them comes at or after the continued one. */
  rests: CursorState[]
  from: number
}

const samePath = (a: ValuePath, b: ValuePath) => a.length === b.length && a.every((k, i) => k === b[i])

/** The page with every string longer than `keep` characters cut there, each with its marker. */
function cutPage(m: Maker, body: unknown, keep: number): Cut {
  const cut: Cut = { page: undefined, rests: [], from: m.continued ? Number.POSITIVE_INFINITY : 0 }
  const visit = (v: unknown, path: ValuePath, depth: number): unknown => {
    if (typeof v === 'string') return cutString(m, cut, v, originOf(m, path), keep)
    if (v === null || typeof v !== 'object' || depth > MAX_DEPTH) return v
    if (Array.isArray(v)) return v.map((item, i) => visit(item, [...path, i], depth + 1))
    return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, visit(item, [...path, k], depth + 1)]))
  }
  cut.page = visit(body, [], 0)
  return cut
}

/**
 * One string of a page: as it is, or cut at `keep` with the marker of its rest; a continued one says where it starts.
 */
function cutString(m: Maker, cut: Cut, text: string, origin: ValuePath, keep: number): string {
  const continued = !!m.continued && samePath(origin, m.continued[0])
  // The next page goes on with the first string cut at or after the one this page continues.
  if (continued && cut.from === Number.POSITIVE_INFINITY) cut.from = cut.rests.length
  const base = continued ? m.continued![1] : 0
  const head = base ? `[…from character ${base}] ` : ''
  if (text.length <= keep) return head + text
  // Never between the two halves of a surrogate pair.
  const end = /[\ud800-\udbff]/.test(text[keep - 1]!) ? keep - 1 : keep
  const rest: CursorState = {
    d: m.digest,
    ...(m.paged ? { p: m.paged.path } : {}),
    o: m.start,
    s: [origin, base + end, m.continued?.[2] ?? keep],
  }
  cut.rests.push(rest)
  const marker = `…[cut at ${base + end} of ${base + text.length} characters; the rest: cursor ${encodeCursor(rest)}]`
  return `${head}${text.slice(0, end)}${marker}`
}

/** The longest string in a value (to MAX_DEPTH). */
function longest(v: unknown, depth = 0): number {
  if (typeof v === 'string') return v.length
  if (v === null || typeof v !== 'object' || depth > MAX_DEPTH) return 0
  let most = 0
  for (const item of Array.isArray(v) ? v : Object.values(v)) most = Math.max(most, longest(item, depth + 1))
  return most
}

/**
 * A page of one item (or the whole result) that does not fit whole: its strings cut to the longest length that fits.
 */
function cutToFit(m: Maker): Record_ {
  const body = pageBody(m, 1)
  const cutAt = (keep: number) => {
    const cut = cutPage(m, body, keep)
    return { cut, page: withInfo(m, cut.page, 1, cut.rests[cut.from] ?? nextItems(m, 1)) }
  }
  // `keep` past the longest string cuts nothing; past the budget's bytes, no string could fit.
  let good = MIN_CUT
  let bad = Math.min(longest(body) + 1, m.budget * 3 + 1)
  while (bad - good > 1) {
    const mid = (good + bad) >> 1
    if (fits(m, cutAt(mid).page)) good = mid
    else bad = mid
  }
  return cutAt(good).page
}

/**
 * A result within its budget as it is (`paged: false`), else its page: the first one, or the one
 * `cursor` points at (a cursor always gets a page, even one that fits whole).
 */
export function pageResult(value: unknown, request: PageRequest): { value: unknown; paged: boolean } {
  const call = { siteId: request.siteId, tool: request.tool, args: request.args }
  const from = request.file === undefined ? call : { ...call, file: request.file }
  const budget = request.budget ?? DEFAULT_RESULT_BUDGET
  const state = request.cursor === undefined ? undefined : readCursor(request.cursor, call)
  // Compact text is never longer than JSON: a result whose JSON fits needs no encoding to know it fits.
  const json = resultJson(value, from)
  if (!state && (estimateTokens(json) <= budget || fits({ budget }, value))) return { value, paged: false }
  const stale = (what: string): never => {
    throw siteToolError('invalid-cursor', { reason: 'stale', what }, { siteId: call.siteId, tool: call.tool })
  }
  let source = value
  if (state?.s) {
    const [path, from] = state.s
    const text = stringAt(value, path)
    if (typeof text !== 'string' || from >= text.length) stale('the text the cursor continues is shorter now')
    source = replaced(value, path, (text as string).slice(from))
  }
  const paged = state ? cursorArray(source, state.p, stale) : pagedArray(source)
  const start = state?.o ?? 0
  if ((paged && start >= paged.list.length) || (!paged && start > 0))
    stale(`it has ${paged?.list.length ?? 1} items, and the cursor is for item ${start + 1}`)
  if (state && isRecord(source)) source = laterMembers(source, state)
  const m: Maker = { source, paged, start, digest: state?.d ?? callDigest(call), budget }
  if (state?.s) m.continued = state.s
  const count = paged && !state?.s ? mostThatFit(m) : 0
  if (count > 0) return { value: withInfo(m, pageBody(m, count), count, nextItems(m, count)), paged: true }
  return { value: cutToFit(m), paged: true }
}

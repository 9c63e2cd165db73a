import { describe, expect, it } from 'vitest'
import { compactText } from '../../runtime/compact'
import { isSiteToolError } from '../../runtime/index'
// The catalog's messages, as host-side code has them.
import '../../runtime/internal'
import { estimateTokens, pageResult, resultTokens } from '../../runtime/pages'
import { hasCuts, readAllPages } from '../helpers/pages'

const call = { siteId: 'hn', tool: 'read_comments', args: { id: 1 } }
const comments = Array.from({ length: 566 }, (_, i) => ({
  id: 39_000_000 + i,
  by: `user${i % 37}`,
  depth: i % 5,
  text: `Comment ${i}: ${'words, and more words '.repeat(1 + (i % 9))}`.trim(),
}))

/** Pages of `value` as a model reads them, each checked against the budget. */
async function pagesOf(value: unknown, budget: number, args: Record<string, unknown> = call.args) {
  return readAllPages(async (cursor) => {
    const { value: page, paged } = pageResult(value, { ...call, args, budget, ...(cursor ? { cursor } : {}) })
    expect(paged).toBe(true)
    expect(resultTokens(page)).toBeLessThanOrEqual(budget)
    return page
  })
}

function errorOf(work: () => unknown) {
  try {
    work()
  } catch (error) {
    if (isSiteToolError(error)) return { code: error.code, message: error.message }
    throw error
  }
  throw new Error('no error')
}

describe('a result over its budget', () => {
  it('is as it was within the budget, and the estimate is UTF-8 bytes / 3', () => {
    const small = { item: 'x', comments: comments.slice(0, 3) }
    expect(pageResult(small, { ...call, budget: 4000 })).toEqual({ value: small, paged: false })
    expect(estimateTokens('abc')).toBe(1)
    expect(estimateTokens('é€😀')).toBe(Math.ceil((2 + 3 + 4) / 3))
  })

  it('pages the largest array of an object: pageInfo first, the other members on the first page only', async () => {
    const value = { item: { id: 1, title: 'Pkl' }, count: 566, comments, moreUrl: 'https://x.test/?p=2' }
    const { value: whole, pages } = await pagesOf(value, 2000)
    expect(whole).toEqual(value)
    expect(pages.length).toBeGreaterThan(5)
    const first = pages[0]!
    expect(Object.keys(first)).toEqual(['pageInfo', 'item', 'count', 'comments', 'moreUrl'])
    for (const later of pages.slice(1)) expect(Object.keys(later)).toEqual(['pageInfo', 'comments'])
    expect(first.pageInfo).toMatchObject({ field: 'comments', total: 566, offset: 0 })
    expect(compactText(first)).toMatch(
      /^pageInfo:\n field:comments\n total:566\n offset:0\n count:\d+\n cursor:[\w-]+\n/,
    )
    expect(pages.at(-1)!.pageInfo.cursor).toBeUndefined()
  })

  it('costs about the whole result to read to its end, however large its other members', async () => {
    // An outline beside the largest list (MDN's read_page: its sections beside its sidebar links).
    const sections = Array.from({ length: 40 }, (_, i) => ({ id: `section-${i}`, text: `Section ${i} of the page` }))
    const value = { title: 'Basic concepts', sections, links: comments.slice(0, 200) }
    const { value: whole, pages } = await pagesOf(value, 1500)
    expect(whole).toEqual(value)
    expect(pages.length).toBeGreaterThan(4)
    const read = pages.reduce((n, page) => n + resultTokens(page), 0)
    // Each page's pageInfo and table header aside, nothing is sent twice (the outline on every page: 1.5x).
    expect(read / resultTokens(value)).toBeLessThan(1.1)
  })

  it('goes on with a cut string and the later members the first page cut, not with the others', async () => {
    const value = { title: 'Article', body: 'word '.repeat(3000), note: 'n'.repeat(100), footer: 'f '.repeat(400) }
    const { value: whole, pages } = await pagesOf(value, 400)
    expect(whole).toEqual(value)
    expect(Object.keys(pages[0]!)).toEqual(['pageInfo', 'title', 'body', 'note', 'footer'])
    // The note was whole on the first page; the footer was cut there, and its rest comes after the body's.
    expect(Object.keys(pages[1]!)).toEqual(['pageInfo', 'body', 'footer'])
    expect(Object.keys(pages.at(-1)!)).toEqual(['pageInfo', 'footer'])
  })

  it('pages an array result as { pageInfo, result }', async () => {
    const { value, pages } = await pagesOf(comments, 1500)
    expect(value).toEqual(comments)
    expect(pages[1]).toMatchObject({ pageInfo: { total: 566 }, result: expect.any(Array) })
    expect(pages[1]!.pageInfo.field).toBeUndefined()
  })

  it('cuts a string that cannot fit, with a marker naming the cursor of its rest, and reads it back whole', async () => {
    const text = Array.from({ length: 3000 }, (_, i) => `line ${i} — ünïcode 😀`).join('\n')
    const value = { title: 'Article', body: text, links: [{ href: '/a', text: 'A' }] }
    const { value: whole, pages } = await pagesOf(value, 500)
    expect(whole).toEqual(value)
    expect(hasCuts(pages[0])).toBe(true)
    expect(pages[0]!.body).toMatch(
      new RegExp(`…\\[cut at \\d+ of ${text.length} characters; the rest: cursor [\\w-]+\\]$`),
    )
    expect(pages[1]!.body).toMatch(/^\[…from character \d+\] /)
    // The list's one short item was whole on the first page: a page of the body's rest holds none.
    expect(pages[1]).toMatchObject({ pageInfo: { field: 'links', offset: 0, count: 0 } })
    expect(pages[1]!.links).toBeUndefined()
    const alone = await pagesOf(text, 300)
    expect(alone.value).toEqual(text)
    expect(alone.pages[0]).toEqual({ pageInfo: { cursor: expect.any(String) }, result: expect.any(String) })
  })

  it('cuts the strings of an item too long for one page, then goes on with the next items', async () => {
    const items = [{ t: 'a'.repeat(20_000) }, { t: 'short' }, { t: 'b'.repeat(9000), u: 'c'.repeat(9000) }]
    const { value, pages } = await pagesOf(items, 600)
    expect(value).toEqual(items)
    expect(pages.map((p) => p.pageInfo.offset)).toContain(1)
  })

  it('gets the page of a cursor even when it fits whole, and always the same page for the same cursor', () => {
    const first = pageResult(comments, { ...call, budget: 1000 }).value as { pageInfo: { cursor: string } }
    const request = { ...call, budget: 1000, cursor: first.pageInfo.cursor }
    expect(pageResult(comments, request)).toEqual(pageResult(comments, request))
    expect(pageResult(comments, { ...request, budget: 1_000_000 }).value).toMatchObject({
      pageInfo: { offset: first.pageInfo.cursor ? expect.any(Number) : 0, total: 566 },
    })
    // Argument order does not matter: the digest is of the arguments, not of their text.
    const reordered = { ...call, args: { b: 2, a: 1 }, budget: 1000 }
    const cursor = (pageResult(comments, reordered).value as { pageInfo: { cursor: string } }).pageInfo.cursor
    expect(pageResult(comments, { ...reordered, args: { a: 1, b: 2 }, cursor }).paged).toBe(true)
  })

  it('refuses a cursor of another call, an edited one, and one the result outgrew, with invalid-cursor', () => {
    const first = pageResult(comments, { ...call, budget: 1000 }).value as { pageInfo: { cursor: string } }
    const { cursor } = first.pageInfo
    const other =
      (args: Record<string, unknown>, tool = call.tool) =>
      () =>
        pageResult(comments, { ...call, tool, args, budget: 1000, cursor })
    expect(errorOf(other({ id: 2 }))).toMatchObject({
      code: 'invalid-cursor',
      message: expect.stringContaining('another call'),
    })
    expect(errorOf(other(call.args, 'read_stories')).code).toBe('invalid-cursor')
    for (const bad of ['', 'not a cursor!', `${cursor}x`, cursor.slice(2), 'e30', 'W10', 'x'.repeat(5000)])
      expect(errorOf(() => pageResult(comments, { ...call, budget: 1000, cursor: bad })).code, bad).toBe(
        'invalid-cursor',
      )
    expect(errorOf(() => pageResult(comments.slice(0, 3), { ...call, budget: 1000, cursor })).message).toContain(
      'the result changed since the cursor was given: it has 3 items',
    )
    expect(errorOf(() => pageResult({ other: 1 }, { ...call, budget: 1000, cursor })).message).toContain(
      'no longer a list',
    )
  })

  it('refuses a result JSON cannot hold as invalid-result, as the MCP server does', () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(errorOf(() => pageResult(cyclic, { ...call, budget: 1000 }))).toMatchObject({ code: 'invalid-result' })
  })

  it('stays bounded on hostile results: 100,000 items, a 2 MB string, deep nesting', () => {
    const many = Array.from({ length: 100_000 }, (_, i) => ({ i }))
    const page = pageResult(many, { ...call, budget: 4000 }).value as { pageInfo: { count: number } }
    expect(page.pageInfo.count).toBeGreaterThan(500)
    expect(resultTokens(page)).toBeLessThanOrEqual(4000)
    const huge = pageResult('z'.repeat(2_000_000), { ...call, budget: 4000 }).value
    expect(resultTokens(huge)).toBeLessThanOrEqual(4000)
    let deep: unknown = 'y'.repeat(50_000)
    for (let i = 0; i < 200; i++) deep = { d: deep }
    expect(pageResult(deep, { ...call, budget: 4000 }).paged).toBe(true)
  })
})

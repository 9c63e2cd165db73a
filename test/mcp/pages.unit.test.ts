import { ProtocolError } from '@modelcontextprotocol/server'
import { describe, expect, it } from 'vitest'
import { PAGE_SIZE, pageOf } from '../../src/mcp/page'

describe('paged lists (tools/list, resources/list)', () => {
  const items = Array.from({ length: PAGE_SIZE * 2 + 5 }, (_, i) => ({ name: `tool_${i}` }))

  it('gives the whole list in pages, each cursor leading to the next, the last without one', () => {
    const seen: { name: string }[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const { page, nextCursor } = pageOf(items, cursor)
      seen.push(...page)
      cursor = nextCursor
      pages++
    } while (cursor)
    expect(pages).toBe(3)
    expect(seen).toEqual(items)
    expect(pageOf(items.slice(0, 3), undefined)).toEqual({ page: items.slice(0, 3) })
  })

  it('refuses a cursor of a list that changed since, and one it never gave', () => {
    const { nextCursor } = pageOf(items, undefined)
    const changed = [...items.slice(0, 10), { name: 'new' }, ...items.slice(10)]
    expect(() => pageOf(changed, nextCursor)).toThrow(ProtocolError)
    expect(() => pageOf(changed, nextCursor)).toThrow(/the list changed since this cursor was given/)
    expect(() => pageOf(items, 'bm9wZQ')).toThrow(ProtocolError)
  })
})

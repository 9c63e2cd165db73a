import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { compactText } from '../../runtime/compact'
import { decodeCompact } from '../helpers/compact-decode'
import { REPO_ROOT } from '../helpers/tmp'

/** The text, and proof that it says the value: it reads back as the value's JSON does. */
function roundTrip(value: unknown): string {
  const text = compactText(value)
  expect(decodeCompact(text)).toEqual(JSON.parse(JSON.stringify(value ?? null)))
  return text
}

describe('compact text of a result', () => {
  it('writes fields as key:value lines, nested objects one space in, no indentation of rows', () => {
    const value = {
      page: 'news',
      count: 2,
      stories: [
        { rank: 1, title: 'Show HN: a, b', points: 90, by: 'pg', age: '2 hours ago' },
        { rank: 2, title: 'Write "useless" software', points: 5, by: 'x', age: '3 hours ago' },
      ],
      license: { key: 'mit', spdx: null },
      topics: ['a', 'b c'],
      moreUrl: 'https://news.ycombinator.com/news?p=2',
    }
    expect(roundTrip(value)).toBe(
      [
        'page:news',
        'count:2',
        'stories[2]{rank,title,points,by,age}:',
        '1,"Show HN: a, b",90,pg,2 hours ago',
        '2,Write "useless" software,5,x,3 hours ago',
        'license:',
        ' key:mit',
        ' spdx:null',
        'topics[2]:a,b c',
        'moreUrl:https://news.ycombinator.com/news?p=2',
      ].join('\n'),
    )
  })

  it('quotes every string that would read as something else', () => {
    const tricky = [
      '',
      ' lead',
      'trail ',
      '12',
      '-1.5e3',
      'true',
      'null',
      '"q"',
      '[x]',
      '{y}',
      'a\nb',
      'tab\t',
      '\u2028',
    ]
    const record = Object.fromEntries(tricky.map((s, i) => [`k${i}`, s]))
    const text = roundTrip(record)
    for (const s of tricky) expect(text).toContain(JSON.stringify(s))
    // In cells a comma quotes; alone or as a list item a colon does.
    expect(
      roundTrip({
        rows: [
          { a: 'x,y', b: 'k: v' },
          { a: 'z', b: '01' },
        ],
      }),
    ).toBe('rows[2]{a,b}:\n"x,y",k: v\nz,01')
    expect(roundTrip(['a: b', 'c,d'])).toBe('[2]:a: b,"c,d"')
    const mixed = [{ title: 'the first thing', summary: 'nothing much to say here', tags: ['a', 'b'] }, 'key: value']
    expect(roundTrip({ items: [...mixed, 'plain words here', ['n', 1]] })).toBe(
      [
        'items[4]:',
        ' - title:the first thing',
        '   summary:nothing much to say here',
        '   tags[2]:a,b',
        ' - "key: value"',
        ' - plain words here',
        ' - [2]:n,1',
      ].join('\n'),
    )
    expect(roundTrip('just: text')).toBe('"just: text"')
    expect(roundTrip('plain text')).toBe('plain text')
  })

  it('keeps missing fields, nulls and empty strings apart in a table', () => {
    const rows = [{ a: 1, b: null, c: '' }, { a: 2 }, { c: 'x', d: [1, { e: 'f,g' }] }]
    expect(roundTrip({ rows })).toBe('rows[3]{a,b,c,d}:\n1,null,"",\n2,,,\n,,x,[1,{"e":"f,g"}]')
  })

  it('writes odd keys as JSON strings', () => {
    roundTrip({ 'a b': 1, 'x:y': { '': 2, '[0]': [{ 'c,d': 1, '}': 2 }, { 'c,d': 3 }] }, '- z': ['- z'] })
  })

  it('reads back every nesting: lists of lists, objects in lists, tables in lists', () => {
    roundTrip([[1, 2], [[3, [4]]], { a: [{ b: 1 }, { b: 2 }], c: { d: { e: [] } } }, [], {}, null])
    roundTrip({
      list: [
        {
          x: {
            y: [
              { z: 1, w: 'a' },
              { z: 2, w: 'b' },
            ],
          },
          v: 1,
        },
        { x: {} },
      ],
    })
    for (const value of [null, true, 0, -0, 1.5, 'x', [], {}, [null], { a: [] }, { a: {} }]) roundTrip(value)
  })

  it('leaves out what JSON leaves out, and follows toJSON', () => {
    const value = { a: undefined, b: () => 1, c: new Date(0), d: [undefined] }
    expect(decodeCompact(compactText(value))).toEqual({ c: '1970-01-01T00:00:00.000Z', d: [null] })
  })

  it('is never longer than the compact JSON of the value', () => {
    const wide = Array.from({ length: 50 }, (_, i) => ({ [`field${i}`]: i }))
    for (const value of [wide, { a: [{ x: 1 }, { y: 2 }, { z: 3 }] }, [1, 'a']])
      expect(roundTrip(value).length).toBeLessThanOrEqual(JSON.stringify(value).length)
  })

  it('stays bounded on hostile shapes: deep nesting, huge arrays, many columns, long strings', () => {
    let deep: unknown = 'bottom'
    for (let i = 0; i < 2000; i++) deep = i % 2 ? [deep] : { d: deep }
    roundTrip(deep)
    const huge = Array.from({ length: 20_000 }, (_, i) => ({ id: i, t: `item ${i}` }))
    const text = roundTrip(huge)
    expect(text.split('\n')).toHaveLength(20_001)
    roundTrip(Array.from({ length: 3 }, () => Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`c${i}`, i]))))
    roundTrip({ text: `${'x,'.repeat(100_000)}\n"` })
  })

  it('is JSON past its input limit (4 MiB of JSON)', () => {
    const big = { blob: 'y'.repeat(5 * 1024 * 1024) }
    expect(compactText(big)).toBe(JSON.stringify(big))
  })

  it("reads back the expected result of every shipped example (the skills' own data)", () => {
    const root = join(REPO_ROOT, 'learnings')
    let seen = 0
    for (const id of readdirSync(root)) {
      let manifest: Record<string, Record<string, { examples?: { expect?: unknown }[] }>>
      try {
        manifest = JSON.parse(readFileSync(join(root, id, 'manifest.json'), 'utf8'))
      } catch {
        continue
      }
      for (const map of [manifest.nodeTools, manifest.browserTools])
        for (const tool of Object.values(map ?? {}))
          for (const example of tool.examples ?? [])
            if ('expect' in example) {
              roundTrip(example.expect)
              seen++
            }
    }
    expect(seen).toBeGreaterThan(40)
  })
})

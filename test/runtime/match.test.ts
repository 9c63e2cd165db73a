import { describe, expect, it } from 'vitest'
import { checkDomainPattern } from '../../src/compiler/validate/domains'
import { createDomainTable, createDomainTableData, lookupHost, urlHost, urlMatchesDomains } from '../../runtime/match'

// Skills in directory order, with patterns as a manifest would write them.
const SKILLS: Record<string, string[]> = {
  'a-apex': ['example.com'],
  'b-wild': ['*.example.com'],
  'c-www': ['www.example.com'],
  'd-deep': ['*.b.example.com'],
  'e-local': ['localhost', '127.0.0.1', '[::1]'],
  'f-idn': ['xn--bcher-kva.de', '*.xn--bcher-kva.de'],
  'g-other': ['other.org'],
}
const ids = Object.keys(SKILLS)
const table = createDomainTable(
  createDomainTableData(Object.values(SKILLS).map((list) => list.map((p) => checkDomainPattern(p).pattern!))),
)
const match = (url: string) => {
  const host = urlHost(url)
  return host ? lookupHost(table, host).map((i) => ids[i]) : []
}

const CASES: [string, string[]][] = [
  ['https://example.com/', ['a-apex']],
  ['http://example.com', ['a-apex']],
  ['https://EXAMPLE.COM/path?q=1#frag', ['a-apex']],
  ['https://example.com./', ['a-apex']],
  ['https://example.com../', []],
  ['https://user:pw@example.com:8443/x', ['a-apex']],
  ['https://www.example.com/', ['b-wild', 'c-www']],
  ['https://shop.example.com/', ['b-wild']],
  ['https://a.b.example.com/', ['b-wild', 'd-deep']],
  ['https://b.example.com/', ['b-wild']],
  ['https://x.y.z.example.com/', ['b-wild']],
  ['https://notexample.com/', []],
  ['https://example.com.evil.net/', []],
  ['https://evilexample.com/', []],
  ['https://a..example.com/', []],
  ['https://example.org/', []],
  ['https://other.org/', ['g-other']],
  ['https://www.other.org/', []],
  ['http://localhost:5173/', ['e-local']],
  ['http://localhost/', ['e-local']],
  ['http://LOCALHOST:3000/x', ['e-local']],
  ['http://127.0.0.1:8080/', ['e-local']],
  ['http://0x7f.0.0.1/', ['e-local']],
  ['http://[::1]:3000/', ['e-local']],
  ['http://sub.localhost/', []],
  ['https://bücher.de/', ['f-idn']],
  ['https://www.bücher.de/', ['f-idn']],
  ['https://xn--bcher-kva.de/', ['f-idn']],
  ['https://ｅｘａｍｐｌｅ.com/', ['a-apex']],
  ['blob:https://example.com/7f3a', ['a-apex']],
  ['blob:https://shop.example.com/uuid', ['b-wild']],
  ['blob:null/uuid', []],
  ['file:///home/example.com/index.html', []],
  ['ftp://example.com/', []],
  ['ws://example.com/', []],
  ['chrome://newtab', []],
  ['about:blank', []],
  ['data:text/html,example.com', []],
  ['javascript:alert(1)', []],
  ['mailto:x@example.com', []],
  ['example.com', []],
  ['example.com/?next=https://x', []],
  ['', []],
  ['::::', []],
  ['https://', []],
  ['https://exa mple.com/', []],
]

describe('URL matching: exact hosts and *.host wildcards', () => {
  it.each(CASES)('%s -> %j', (url, expected) => {
    expect(match(url)).toEqual(expected)
  })

  it('has at least 40 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40)
  })

  it('agrees with the per-skill check used before running a browser tool', () => {
    for (const [url, expected] of CASES) {
      for (const [i, id] of ids.entries()) {
        const patterns = SKILLS[id]!.map((p) => checkDomainPattern(p).pattern!)
        expect(urlMatchesDomains(url, patterns), `${url} ${id}`).toBe(expected.includes(ids[i]!))
      }
    }
  })

  it('returns skills in directory order however the table was filled', () => {
    const data = createDomainTableData([['*.example.com'], ['www.example.com'], ['*.www.example.com'], ['example.com']])
    expect(lookupHost(createDomainTable(data), 'a.www.example.com')).toEqual([0, 2])
    expect(lookupHost(createDomainTable(data), 'www.example.com')).toEqual([0, 1])
  })

  it('is not fooled by hosts named like object members', () => {
    const data = createDomainTableData([['constructor.example.com']])
    expect(lookupHost(createDomainTable(data), '__proto__')).toEqual([])
    expect(lookupHost(createDomainTable(data), 'constructor')).toEqual([])
    expect(urlHost('http://__proto__/')).toBe('__proto__')
  })
})

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

/** The host as WHATWG parsing alone gives it, with the same rules on schemes, trailing dot and empty labels. */
function parsedHost(input: string): string | undefined {
  let url: URL
  try {
    url = new URL(input)
    if (url.protocol === 'blob:') url = new URL(url.origin)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  const host = url.hostname.replace(/\.$/, '')
  return host === '' || host.split('.').includes('') ? undefined : host
}

// URLs a shortcut that reads plain hosts without the parser could get wrong.
const TRICKY = [
  'https://0x7f.0.0.1/',
  'http://1.2.3.4/',
  'http://1.2.3.0x4/',
  'http://a.0x/',
  'http://a.0xz/',
  'http://a.09/',
  'http://a.b9/',
  'http://a.9b/',
  'http://example.1/',
  'http://example.1./',
  'http://example.com.1/',
  'https://xn--bcher-kva.de/',
  'https://xn--zz.com/',
  'https://XN--ZZ.com/',
  'https://a.xn--/',
  'https://-a-.com/',
  'https://a-.b--c.com/',
  'https://example.com:65535/',
  'https://example.com:65536/',
  'https://example.com:99999/',
  'https://example.com:/',
  'https://example.com:00080/x',
  'https://example.com:8a/',
  'https://user@example.com/',
  'https://a.com:80@b.com/',
  'https://a.com@b.com/',
  'https://example.com\\evil.com/',
  'https://example.com%2e/',
  'https://exa%41mple.com/',
  'https://example.com\t/',
  'https://exam\tple.com/',
  ' https://example.com/',
  'https://example.com /',
  'HTTPS://EXAMPLE.COM/',
  'Https://Example.Com',
  'https:example.com',
  'https:/example.com',
  'https:///example.com',
  'https://example.com?q',
  'https://example.com#h',
  'https://.example.com/',
  'https://example..com/',
  'https://example.com../',
  'https://./',
  'https://../',
  'https://a/',
  'https://a./',
  'https://localhost:5173',
  'http://[::1]/',
  'blob:https://Example.com:8/x',
  `https://${'a'.repeat(70)}.com/`,
  `https://${'a.'.repeat(200)}com/`,
]

describe('plain URLs read without the parser', () => {
  it.each(TRICKY)('%s gives the host WHATWG parsing gives', (url) => {
    expect(urlHost(url)).toBe(parsedHost(url))
  })

  it('agrees with WHATWG parsing on every matching case', () => {
    for (const [url] of CASES) expect(urlHost(url), url).toBe(parsedHost(url))
  })
})

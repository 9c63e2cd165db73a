import { describe, expect, it } from 'vitest'
import { urlMatchesDomains } from '../../runtime/match'
import { DOMAIN_GUARD, LINE0_SHIFT, wrapToolSource } from '../../runtime/page-code'

const NONCE = 'nonce'

/** Runs the in-page guard in Node with a `location` built by WHATWG URL, as the page's would be. */
function guardAllows(url: string, patterns: string[]): boolean {
  const parsed = new URL(url)
  const location = { protocol: parsed.protocol, hostname: parsed.hostname, origin: parsed.origin, href: parsed.href }
  type Guard = (a: unknown[], g: object, t: () => unknown) => unknown
  const guard = new Function('location', `return (${DOMAIN_GUARD})`)(location) as Guard
  const signals: string[] = []
  const global = { binding: (payload: string) => signals.push(payload) }
  const result = guard([{}, patterns, NONCE, 'binding', '7'], global, () => {
    signals.push('tool')
    return 'ran'
  })
  if (result === 'ran') {
    // The tool runs between the start signal and the end of its synchronous part.
    expect(signals).toEqual(['s7', 'tool', 'y7'])
    return true
  }
  expect(signals).toEqual([])
  expect(result).toEqual({ [NONCE]: parsed.href })
  return false
}

const PATTERNS = [
  ['example.com'],
  ['*.example.com'],
  ['example.com', '*.example.com'],
  ['localhost', '127.0.0.1'],
  ['[::1]'],
  ['xn--bcher-kva.example'],
  ['*.co.example'],
]

const URLS = [
  'https://example.com/',
  'http://example.com:8080/path?q#f',
  'https://EXAMPLE.com./',
  'https://example.com../',
  'https://www.example.com/',
  'https://a.b.example.com/',
  'https://a..example.com/',
  'https://.example.com/',
  'https://notexample.com/',
  'https://example.com.evil.test/',
  'https://user:pass@example.com/',
  'ftp://example.com/',
  'file:///etc/example.com',
  'about:blank',
  'data:text/html,example.com',
  'blob:https://www.example.com/0c8d-uuid',
  'blob:https://example.com:444/0c8d-uuid',
  'blob:null/0c8d-uuid',
  'blob:http://[::1]:8080/0c8d-uuid',
  'blob:http://[::1]/0c8d-uuid',
  'blob:http://127.0.0.1/0c8d-uuid',
  'blob:http://127.0.0.1:5173/0c8d-uuid',
  'blob:https://example.com./0c8d-uuid',
  'blob:https://a..example.com/0c8d-uuid',
  'blob:ftp://example.com/0c8d-uuid',
  'http://localhost:3000/',
  'http://127.0.0.1/',
  'http://[::1]:8080/',
  'https://bücher.example/',
  'https://x.co.example/',
  'https://co.example/',
]

describe('the in-page domain guard', () => {
  it('agrees with urlMatchesDomains on every URL and pattern set', () => {
    for (const patterns of PATTERNS) {
      for (const url of URLS)
        expect(guardAllows(url, patterns), `${url} vs ${patterns.join(',')}`).toBe(urlMatchesDomains(url, patterns))
    }
  })

  it('decides http(s) and blob: pages without String or Array methods, which pages replace', () => {
    const methods = [String.prototype.slice, String.prototype.indexOf, String.prototype.replace]
    const expected = URLS.flatMap((url) => PATTERNS.map((patterns) => urlMatchesDomains(url, patterns)))
    String.prototype.slice =
      String.prototype.indexOf =
      String.prototype.replace =
        () => {
          throw new Error('replaced')
        }
    try {
      expect(guardAllows('https://www.example.com/', ['*.example.com'])).toBe(true)
      expect(guardAllows('https://evil.test/', ['*.example.com', 'example.com'])).toBe(false)
      expect(guardAllows('blob:https://www.example.com:8443/uuid', ['*.example.com'])).toBe(true)
      expect(guardAllows('blob:https://evil.test/uuid', ['*.example.com', 'example.com'])).toBe(false)
      expect(URLS.flatMap((url) => PATTERNS.map((patterns) => guardAllows(url, patterns)))).toEqual(expected)
    } finally {
      ;[String.prototype.slice, String.prototype.indexOf, String.prototype.replace] = methods as [
        typeof String.prototype.slice,
        typeof String.prototype.indexOf,
        typeof String.prototype.replace,
      ]
    }
  })
})

describe('wrapToolSource', () => {
  it('keeps the lines of the tool and puts the sourceURL on a line of its own', () => {
    const wrapped = wrapToolSource('async function(){\nthrow 1\n}', 'site-skills://s/t.js')
    const lines = wrapped.split('\n')
    expect(lines[1]).toBe('throw 1')
    expect(lines[0]!.length).toBe(LINE0_SHIFT - 1 + 'async function(){'.length)
    expect(lines.at(-2)).toBe('//# sourceURL=site-skills://s/t.js')
    expect(lines.at(-1)).toBe('')
  })
})

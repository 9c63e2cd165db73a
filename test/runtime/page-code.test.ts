import { describe, expect, it } from 'vitest'
import { urlMatchesDomains } from '../../runtime/match'
import { DOMAIN_GUARD, LINE0_SHIFT, wrapToolSource } from '../../runtime/page-code'

const NONCE = 'nonce'

/** Runs the in-page guard in Node with a `location` built by WHATWG URL, as the page's would be. */
function guardAllows(url: string, patterns: string[]): boolean {
  const parsed = new URL(url)
  const location = { protocol: parsed.protocol, hostname: parsed.hostname, origin: parsed.origin, href: parsed.href }
  const guard = new Function('location', `return (${DOMAIN_GUARD})`)(location) as (a: unknown[], t: () => unknown) => unknown
  const result = guard([{}, patterns, NONCE], () => 'ran')
  if (result === 'ran') return true
  expect(result).toEqual({ [NONCE]: parsed.href })
  return false
}

const PATTERNS = [['example.com'], ['*.example.com'], ['example.com', '*.example.com'], ['localhost', '127.0.0.1'], ['[::1]'], ['xn--bcher-kva.example'], ['*.co.example']]

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
      for (const url of URLS) expect(guardAllows(url, patterns), `${url} vs ${patterns.join(',')}`).toBe(urlMatchesDomains(url, patterns))
    }
  })

  it('decides http(s) pages without String or Array methods, which pages replace', () => {
    const methods = [String.prototype.slice, String.prototype.indexOf, String.prototype.replace]
    String.prototype.slice = String.prototype.indexOf = String.prototype.replace = () => {
      throw new Error('replaced')
    }
    try {
      expect(guardAllows('https://www.example.com/', ['*.example.com'])).toBe(true)
      expect(guardAllows('https://evil.test/', ['*.example.com', 'example.com'])).toBe(false)
    } finally {
      ;[String.prototype.slice, String.prototype.indexOf, String.prototype.replace] = methods as [typeof String.prototype.slice, typeof String.prototype.indexOf, typeof String.prototype.replace]
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

import { describe, expect, it } from 'vitest'
import { urlMatchesDomains } from '../../runtime/match'
import { DOMAIN_GUARD, LINE0_SHIFT, wrapToolSource } from '../../runtime/page-code'

const NONCE = 'nonce'

type Guard = (a: unknown[], g: object, t: () => unknown) => unknown

/** The in-page guard, with a `location` built by WHATWG URL, as the page's would be, and `navigator`. */
function guardAt(url: string, navigator: object = {}): Guard {
  const parsed = new URL(url)
  const { protocol, hostname, origin, href, pathname } = parsed
  const location = { protocol, hostname, origin, href, pathname }
  return new Function('location', 'navigator', `return (${DOMAIN_GUARD})`)(location, navigator) as Guard
}

/** Runs the in-page guard in Node: whether it let the tool run (else it answered the refusal). */
function guardAllows(url: string, patterns: string[]): boolean {
  const signals: string[] = []
  const global = { binding: (payload: string) => signals.push(payload) }
  const result = guardAt(url)([{}, patterns, NONCE, 'binding', '7'], global, () => {
    signals.push('tool')
    return 'ran'
  })
  if (result === 'ran') {
    // The start signal comes before the tool.
    expect(signals).toEqual(['s7', 'tool'])
    return true
  }
  expect(signals).toEqual([])
  expect(result).toEqual({ [NONCE]: new URL(url).href })
  return false
}

/** Lets the microtasks queued so far (and those they queue, a few levels deep) run. */
async function drain(): Promise<void> {
  for (let i = 0; i < 20; i++) await null
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

describe('the signals and the user activation check around the tool', () => {
  const signalled = async (tool: () => unknown, args: unknown[] = []) => {
    const signals: string[] = []
    const global = { binding: (payload: string) => signals.push(payload) }
    const result = guardAt('https://example.com/')([{}, ['example.com'], NONCE, 'binding', '7', ...args], global, tool)
    await drain()
    return { signals, result }
  }

  it('says "synchronous part over" only for a tool still pending once its microtasks ran', async () => {
    const never = new Promise(() => {})
    expect((await signalled(() => never)).signals).toEqual(['s7', 'y7'])
    expect((await signalled(() => new Promise((r) => setTimeout(r, 1)))).signals).toEqual(['s7', 'y7'])
    // Settled in the call's own task: its answer follows at once, so no second signal.
    expect((await signalled(async () => 'done')).signals).toEqual(['s7'])
    expect((await signalled(() => 'sync')).signals).toEqual(['s7'])
    expect((await signalled(async () => Promise.reject(new Error('no')))).signals).toEqual(['s7'])
    const awaits = async () => {
      await null
      await null
      return 'after two awaits'
    }
    expect(await (await signalled(awaits)).result).toBe('after two awaits')
    expect((await signalled(awaits)).signals).toEqual(['s7'])
  })

  it('a tool that throws at once sends only the start signal and throws through', async () => {
    const signals: string[] = []
    const guard = guardAt('https://example.com/')
    const run = () =>
      guard([{}, ['example.com'], NONCE, 'binding', '7'], { binding: (p: string) => signals.push(p) }, () => {
        throw new Error('at once')
      })
    expect(run).toThrow('at once')
    await drain()
    expect(signals).toEqual(['s7'])
  })

  it('runs without a binding on the page (a session without events)', async () => {
    const result = guardAt('https://example.com/')([{ n: 1 }, ['example.com'], NONCE, 'none', '7'], {}, () => 'ran')
    expect(result).toBe('ran')
    await drain()
  })

  it('with the activation check, answers { [nonce]: 0 } before anything runs on a page without activation', async () => {
    const run = (isActive: boolean | undefined, check: number, url = 'https://example.com/') => {
      const signals: string[] = []
      const navigator = isActive === undefined ? {} : { userActivation: { isActive } }
      const result = guardAt(url, navigator)(
        [{}, ['example.com'], NONCE, 'binding', '7', check],
        { binding: (p: string) => signals.push(p) },
        () => {
          signals.push('tool')
          return 'ran'
        },
      )
      return { result, signals }
    }
    expect(run(false, 1)).toEqual({ result: { [NONCE]: 0 }, signals: [] })
    expect(run(true, 1)).toEqual({ result: 'ran', signals: ['s7', 'tool'] })
    // Sent with a gesture (no check), or a browser without navigator.userActivation: the tool runs.
    expect(run(false, 0)).toEqual({ result: 'ran', signals: ['s7', 'tool'] })
    expect(run(undefined, 1)).toEqual({ result: 'ran', signals: ['s7', 'tool'] })
    // A foreign page is refused by its URL first.
    expect(run(false, 1, 'https://evil.test/')).toEqual({ result: { [NONCE]: 'https://evil.test/' }, signals: [] })
    await drain()
  })
})

describe('the path the guard pins (tools scoped with urls)', () => {
  it('runs on the path Node checked and refuses once the page is on another', async () => {
    const run = (url: string) => guardAt(url)([{}, ['example.com'], NONCE, 'none', '7', 0, '/a/b'], {}, () => 'ran')
    expect(run('https://example.com/a/b?q#h')).toBe('ran')
    expect(run('https://example.com/a/b/c')).toEqual({ [NONCE]: 'https://example.com/a/b/c' })
    expect(run('https://example.com/a/')).toEqual({ [NONCE]: 'https://example.com/a/' })
    await drain()
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

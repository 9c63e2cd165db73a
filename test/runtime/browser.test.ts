import { beforeAll, describe, expect, it, vi } from 'vitest'
import { type BrowserCall, type BrowserTarget, callBrowserTool } from '../../runtime/browser'
import type { LaunchedPage } from '../../runtime/launch'
import { evaluate, navigate, waitForTitle } from '../helpers/browser'
import { failure } from '../helpers/browser'
import { PAGE_TOOL_SOURCES, usePageToolWorld } from '../helpers/page-tools'

const SITE = 'site'
const DOMAINS = ['127.0.0.1']

const FILES: Record<string, string> = {
  ...PAGE_TOOL_SOURCES,
  'browser-tools/codepoints.js':
    'async function (args) {\n  return Array.from(args.text, (c) => c.codePointAt(0))\n}\n',
  'browser-tools/values.js': [
    'async function ({ kind }) {',
    '  const values = { nan: NaN, inf: Infinity, ninf: -Infinity, negzero: -0, big: 2n ** 70n, undef: undefined, nested: { a: [1, undefined, NaN], u: undefined } }',
    '  return values[kind]',
    '}',
    '',
  ].join('\n'),
  'browser-tools/side-effect.js': 'async function () {\n  window.__ran = true\n  return "ran"\n}\n',
  'browser-tools/hang.js':
    'async function () {\n  window.__hanging = (window.__hanging ?? 0) + 1\n  await new Promise(() => {})\n}\n',
  'browser-tools/throws-later.js': [
    'async function () {',
    '  await new Promise((resolve) => setTimeout(resolve, 10))',
    '  // a comment, so the line moves',
    "  throw new RangeError('later')",
    '}',
    '',
  ].join('\n'),
  'browser-tools/throws-string.js': "async function () {\n  throw 'just a string'\n}\n",
  'browser-tools/typed.ts': [
    'interface Args {',
    '  items: string[]',
    '}',
    '',
    'export default async function (args: Args): Promise<number> {',
    '  const lengths: number[] = args.items.map((item) => item.length)',
    '  return lengths.reduce((sum, n) => sum + (n as number), 0) + (args as any).missing.length',
    '}',
    '',
  ].join('\n'),
  'browser-tools/module.js': [
    "import { check } from './lib/helper.js'",
    '',
    'export default async function (args) {',
    '  return check(args.value)',
    '}',
    '',
  ].join('\n'),
  'browser-tools/lib/helper.js': [
    'export function check(value) {',
    "  if (typeof value !== 'number') {",
    '    throw new TypeError(`not a number: ${value}`)',
    '  }',
    '  return value + 1',
    '}',
    '',
  ].join('\n'),
  'browser-tools/navigate.js':
    'async function (args) {\n  setTimeout(() => { location.href = args.to }, 20)\n  await new Promise(() => {})\n}\n',
  'browser-tools/alert.js': "async function () {\n  alert('hello from the tool')\n  return 'after'\n}\n",
  'browser-tools/globals.js': [
    'async function () {',
    '  return { json: JSON.stringify({ a: [1, 2] }), doubled: [1, 2].map((n) => n * 2), title: document.title, pageVar: typeof window.pageVar }',
    '}',
    '',
  ].join('\n'),
}

const TOOLS = {
  echo: { file: 'browser-tools/echo.js' },
  codepoints: { file: 'browser-tools/codepoints.js' },
  title: { file: 'browser-tools/title.js' },
  values: { file: 'browser-tools/values.js' },
  sideEffect: { file: 'browser-tools/side-effect.js' },
  hang: { file: 'browser-tools/hang.js' },
  busy: { file: 'browser-tools/busy.js' },
  throws: { file: 'browser-tools/throws.js' },
  throwsLater: { file: 'browser-tools/throws-later.js' },
  throwsString: { file: 'browser-tools/throws-string.js' },
  throwsInline: { file: 'browser-tools/throws-inline.js' },
  typed: { file: 'browser-tools/typed.ts', module: true },
  module: { file: 'browser-tools/module.js', module: true },
  navigate: { file: 'browser-tools/navigate.js' },
  alert: { file: 'browser-tools/alert.js' },
  globals: { file: 'browser-tools/globals.js' },
}

type ToolName = keyof typeof TOOLS

const HOSTILE_PAGE = `<!doctype html><title>hostile</title><script>
window.pageVar = 1
JSON.stringify = () => 'hacked'
Array.prototype.map = function () { return 'hacked' }
Array.prototype.some = function () { return true }
String.prototype.endsWith = String.prototype.includes = function () { return true }
String.prototype.slice = String.prototype.indexOf = function () { return -1 }
</script>`

const world = usePageToolWorld(SITE, FILES, TOOLS, { routes: { '/hostile': HOSTILE_PAGE } })
let page: LaunchedPage

beforeAll(async () => {
  page = await world.browser.newPage(world.server.url('/home'))
})

function call(
  target: BrowserTarget,
  tool: ToolName,
  args: Record<string, unknown> = {},
  extra: Partial<BrowserCall> = {},
): Promise<unknown> {
  const { code, file } = world.tools[tool]!
  return callBrowserTool(target, { siteId: SITE, tool, code, file, args, domains: DOMAINS, ...extra })
}

async function listPages(port: number): Promise<{ id: string; type: string }[]> {
  const list = (await fetch(`http://127.0.0.1:${port}/json/list`).then((r) => r.json())) as {
    id: string
    type: string
  }[]
  return list.filter((t) => t.type === 'page')
}

/** A page of its own, for tests that navigate, block or stop it. */
async function withPage(path: string, test: (page: LaunchedPage) => Promise<void>): Promise<void> {
  const own = await world.browser.newPage(world.server.url(path))
  try {
    await test(own)
  } finally {
    await own.close()
  }
}

describe('arguments and results', () => {
  it('passes hostile strings and nested objects intact, as values', async () => {
    const hostile = {
      quotes: `'"\`' + "\\'" + '\\"`,
      backslashes: '\\ \\\\ \\n \\u0041 \\x41',
      script: '</script><script>window.__pwned = 1</script><!--',
      template: '${window.__pwned = 1}`${1 + 1}`',
      unicode: 'héllo wörld ✓ 日本語 🎉 \u{1F600}',
      separators: 'a\u2028b\u2029c\u0000d\u007f',
      lone: 'x\uD83Dy',
      long: `${'x'.repeat(1_000_000)}"end"`,
      nested: { deep: { list: [1, 'two', null, true, { three: [3] }], empty: {}, emptyList: [] } },
      numbers: [0, -1, 1.5, Number.MAX_SAFE_INTEGER, 1e-300],
    }
    expect(await call(page.client, 'echo', hostile)).toEqual(hostile)
    expect(await evaluate(page.client, 'window.__pwned')).toBeUndefined()
  })

  it('hands the page the exact characters, not only a round trip', async () => {
    const text = `"'\\</script>\${}\u2028\u2029日🎉\u0000`
    expect(await call(page.client, 'codepoints', { text })).toEqual(Array.from(text, (c) => c.codePointAt(0)))
  })

  it('decodes unserializable values and returns top-level undefined', async () => {
    expect(await call(page.client, 'values', { kind: 'nan' })).toBeNaN()
    expect(await call(page.client, 'values', { kind: 'inf' })).toBe(Infinity)
    expect(await call(page.client, 'values', { kind: 'ninf' })).toBe(-Infinity)
    expect(Object.is(await call(page.client, 'values', { kind: 'negzero' }), -0)).toBe(true)
    expect(await call(page.client, 'values', { kind: 'big' })).toBe(2n ** 70n)
    expect(await call(page.client, 'values', { kind: 'undef' })).toBeUndefined()
    // returnByValue: nested undefined is dropped, nested NaN becomes null.
    expect(await call(page.client, 'values', { kind: 'nested' })).toEqual({ a: [1, null, null] })
  })
})

describe('domains', () => {
  it('refuses a page outside the domains before the tool runs, naming the URL', async () => {
    const error = await failure(
      call(page.client, 'sideEffect', {}, { domains: ['example.com', '*.example.com'] }),
      'domain-mismatch',
    )
    expect(error.message).toContain(world.server.url('/home'))
    expect(error.siteId).toBe(SITE)
    expect(await evaluate(page.client, 'window.__ran')).toBeUndefined()
    expect(await call(page.client, 'sideEffect')).toBe('ran')
    expect(await evaluate(page.client, 'window.__ran')).toBe(true)
  })

  it('refuses when the skill has no domains', async () => {
    await failure(call(page.client, 'title', {}, { domains: [] }), 'domain-mismatch')
  })

  it('keeps the domain check in the main world of a page that replaced String and Array methods', async () => {
    await withPage('/hostile', async (own) => {
      await failure(
        call(own.client, 'sideEffect', {}, { domains: ['example.com', '*.example.com'] }),
        'domain-mismatch',
      )
      expect(await evaluate(own.client, 'window.__ran')).toBeUndefined()
      expect(await call(own.client, 'sideEffect')).toBe('ran')
    })
  })
})

describe('timeouts', () => {
  it('stops a hung promise within the limit; the page still evaluates', async () => {
    const started = Date.now()
    const error = await failure(call(page.client, 'hang', {}, { timeoutMs: 500 }), 'timeout')
    expect(Date.now() - started).toBeLessThan(2500)
    expect(error.message).toContain('500 ms')
    expect(await evaluate(page.client, '1 + 1')).toBe(2)
    expect(await call(page.client, 'title')).toBe('/home')
  })

  it('terminates a busy while(true) within the limit; the page still evaluates', async () => {
    const started = Date.now()
    await failure(call(page.client, 'busy', {}, { timeoutMs: 500 }), 'timeout')
    expect(Date.now() - started).toBeLessThan(2500)
    expect(await evaluate(page.client, 'document.title')).toBe('/home')
    expect(await call(page.client, 'title')).toBe('/home')
  })

  it('stops a busy loop over a connection of its own before closing it', async () => {
    await withPage('/busy', async (own) => {
      const started = Date.now()
      await failure(call({ port: world.browser.port, target: own.targetId }, 'busy', {}, { timeoutMs: 500 }), 'timeout')
      expect(Date.now() - started).toBeLessThan(2500)
      expect(await evaluate(own.client, 'document.title')).toBe('/busy')
    })
  })
})

describe('errors thrown by tools', () => {
  it('names the tool file and the line of the throw', async () => {
    const error = await failure(call(page.client, 'throws', { n: 5 }), 'tool-threw')
    expect(error).toMatchObject({
      file: 'site/browser-tools/throws.js',
      line: 5,
      column: 11,
      siteId: SITE,
      tool: 'throws',
    })
    expect(error.message).toContain('Error: too big: 10')
    expect(error.message).toContain('site/browser-tools/throws.js:5:11')
  })

  // V8 places an error where it was constructed: the column of `new`.
  it('maps a throw on the first line of a bare tool to its column there', async () => {
    const error = await failure(call(page.client, 'throwsInline', { n: 2 }), 'tool-threw')
    const column = FILES['browser-tools/throws-inline.js']!.indexOf('new RangeError') + 1
    expect(error).toMatchObject({ file: 'site/browser-tools/throws-inline.js', line: 1, column })
    expect(error.message).toContain(`site/browser-tools/throws-inline.js:1:${column}`)
  })

  it('maps a throw after an await', async () => {
    const error = await failure(call(page.client, 'throwsLater'), 'tool-threw')
    expect(error).toMatchObject({ file: 'site/browser-tools/throws-later.js', line: 4 })
    expect(error.message).toContain('RangeError: later')
  })

  it('maps a TypeScript module tool to its .ts line', async () => {
    const error = await failure(call(page.client, 'typed', { items: ['ab', 'c'] }), 'tool-threw')
    expect(error).toMatchObject({ file: 'site/browser-tools/typed.ts', line: 7 })
    expect(error.message).toContain('TypeError')
  })

  it('maps a throw in a helper imported by an ES-module tool to the helper', async () => {
    expect(await call(page.client, 'module', { value: 1 })).toBe(2)
    const error = await failure(call(page.client, 'module', { value: 'x' }), 'tool-threw')
    expect(error).toMatchObject({ file: 'site/browser-tools/lib/helper.js', line: 3, column: 11 })
    expect(error.message).toContain('TypeError: not a number: x')
  })

  it('reports a thrown string with the tool file', async () => {
    const error = await failure(call(page.client, 'throwsString'), 'tool-threw')
    expect(error.file).toBe('site/browser-tools/throws-string.js')
    expect(error.message).toContain('just a string')
  })
})

describe('page events during a call', () => {
  it('reports a navigation during the tool as context-lost, then runs on the new page', async () => {
    await withPage('/before', async (own) => {
      await failure(call(own.client, 'navigate', { to: '/after' }), 'context-lost')
      await waitForTitle(own.client, '/after')
      expect(await call(own.client, 'title')).toBe('/after')
      const pending = failure(call(own.client, 'hang'), 'context-lost')
      await own.client.send('Page.navigate', { url: world.server.url('/elsewhere') })
      await pending
      await waitForTitle(own.client, '/elsewhere')
      expect(await call(own.client, 'title')).toBe('/elsewhere')
    })
  })

  it('refreshes its cached handle after the page navigated between calls', async () => {
    await withPage('/first', async (own) => {
      expect(await call(own.client, 'title')).toBe('/first')
      await navigate(own.client, world.server.url('/second'))
      expect(await call(own.client, 'title')).toBe('/second')
    })
  })

  it('reports alert() as dialog-blocking and dismisses it', async () => {
    await withPage('/dialog', async (own) => {
      const error = await failure(call(own.client, 'alert', {}, { timeoutMs: 5000 }), 'dialog-blocking')
      expect(error.message).toContain('hello from the tool')
      expect(await evaluate(own.client, 'document.title')).toBe('/dialog')
      expect(await call(own.client, 'title')).toBe('/dialog')
    })
  })
})

describe('isolated world', () => {
  it('runs away from page scripts that replaced JSON.stringify and Array.prototype.map', async () => {
    await withPage('/hostile', async (own) => {
      expect(await call(own.client, 'globals', {}, { isolatedWorld: true })).toEqual({
        json: '{"a":[1,2]}',
        doubled: [2, 4],
        title: 'hostile',
        pageVar: 'undefined',
      })
      expect(await call(own.client, 'globals')).toEqual({
        json: 'hacked',
        doubled: 'hacked',
        title: 'hostile',
        pageVar: 'number',
      })
      await failure(
        call(own.client, 'globals', {}, { isolatedWorld: true, domains: ['example.com'] }),
        'domain-mismatch',
      )
    })
  })

  it('recreates the world after a navigation', async () => {
    await withPage('/world-1', async (own) => {
      expect(await call(own.client, 'title', {}, { isolatedWorld: true })).toBe('/world-1')
      await navigate(own.client, world.server.url('/world-2'))
      expect(await call(own.client, 'title', {}, { isolatedWorld: true })).toBe('/world-2')
    })
  })
})

describe('target forms', () => {
  it('accepts a chrome-remote-interface client', async () => {
    expect(await call(page.client, 'title')).toBe('/home')
  })

  it('accepts { host, port, target } with a URL substring or an id', async () => {
    await withPage('/forms/unique-substring', async (own) => {
      expect(await call({ host: '127.0.0.1', port: world.browser.port, target: 'unique-substring' }, 'title')).toBe(
        '/forms/unique-substring',
      )
      expect(await call({ port: world.browser.port, target: own.targetId }, 'title')).toBe('/forms/unique-substring')
    })
  })

  it('accepts any object with send(method, params), without dialog detection', async () => {
    const sendOnly = { send: (method: string, params?: object) => page.client.send(method, params) }
    expect(await call(sendOnly, 'title')).toBe('/home')
    expect(await call(sendOnly, 'echo', { a: [1] })).toEqual({ a: [1] })
  })

  it('accepts a page ws:// URL', async () => {
    expect(await call(`ws://127.0.0.1:${world.browser.port}/devtools/page/${page.targetId}`, 'title')).toBe('/home')
  })

  it('reports an unknown target as target-not-found', async () => {
    await failure(call({ port: world.browser.port, target: 'no-such-page-anywhere' }, 'title'), 'target-not-found')
    await failure(
      call({ port: world.browser.port, target: 'ABCDEF0123456789ABCDEF0123456789' }, 'title'),
      'target-not-found',
    )
    // Malformed targets are invalid-target (test/runtime/hostile.test.ts has more).
    await failure(call('not a target', 'title'), 'invalid-target')
    await failure(call({} as never, 'title'), 'invalid-target')
    await failure(call(null as never, 'title'), 'invalid-target')
  })
})

// Runs last (tests of a file run in order): it closes the file's browser.
describe('when the browser goes away', () => {
  let only: LaunchedPage

  beforeAll(async () => {
    only = await world.browser.newPage(world.server.url('/only'))
    // Leave one page, so that HOST:PORT and the browser endpoint mean this one.
    for (const t of await listPages(world.browser.port))
      if (t.id !== only.targetId) await fetch(`http://127.0.0.1:${world.browser.port}/json/close/${t.id}`)
  })

  it('accepts "HOST:PORT" and the browser ws:// endpoint (first page)', async () => {
    expect(await call(`127.0.0.1:${world.browser.port}`, 'title')).toBe('/only')
    expect(await call(world.browser.wsEndpoint, 'title')).toBe('/only')
  })

  it('reports the browser closing during a call as disconnected', async () => {
    const viaClient = failure(call(only.client, 'hang', {}, { timeoutMs: 20_000 }), 'disconnected')
    const viaAddress = failure(
      call({ port: world.browser.port, target: '/only' }, 'hang', {}, { timeoutMs: 20_000 }),
      'disconnected',
    )
    // Both calls run in the page before the browser goes.
    const hanging = async () => expect(await evaluate(only.client, 'window.__hanging')).toBe(2)
    await vi.waitFor(hanging, { timeout: 10_000, interval: 20 })
    await world.browser.close()
    await Promise.all([viaClient, viaAddress])
    await failure(call(`127.0.0.1:${world.browser.port}`, 'title'), 'disconnected')
    await failure(call(only.client, 'title'), 'disconnected')
  })
})

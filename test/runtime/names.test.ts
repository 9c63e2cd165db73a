import { beforeAll, describe, expect, it } from 'vitest'
import { callBrowserTool } from '../../runtime/browser'
import { isSiteToolError } from '../../runtime/errors'
import type { LaunchedPage } from '../../runtime/launch'
import { toolUrl, wrapToolSource } from '../../runtime/page-code'
import { evaluate } from '../helpers/browser'
import { usePageToolWorld } from '../helpers/page-tools'

/** The name of issue 24.1: a line separator ends the sourceURL comment, and the rest runs as code. */
const EXPLOIT = 'a\u2028,(globalThis.__pwned=location.href),window'
const EXPLOITS = [EXPLOIT, EXPLOIT.replace('\u2028', '\u2029'), EXPLOIT.replace('\u2028', '\n')]

const FILES = {
  'browser-tools/mark.js':
    'async function () {\n  window.__ran = (window.__ran || 0) + 1\n  return location.protocol\n}\n',
  'browser-tools/throws.js':
    'async function () {\n  const inner = () => {\n    throw new Error("deep")\n  }\n  inner()\n}\n',
}

const world = usePageToolWorld('site', FILES, {
  mark: { file: 'browser-tools/mark.js' },
  throws: { file: 'browser-tools/throws.js' },
})
let page: LaunchedPage

beforeAll(async () => {
  page = await world.browser.newPage(world.server.url('/foreign'))
})

/** Calls the compiled `mark` tool under the given names, for a skill that owns only `domains`. */
function call(siteId: string, tool: string, domains: string[], which: 'mark' | 'throws' = 'mark') {
  const { code, file } = world.tools[which]!
  return callBrowserTool(page.client, { siteId, tool, code, file, args: {}, domains })
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'no error',
    (error: unknown) => (isSiteToolError(error) ? error.code : String(error)),
  )
}

describe('names in the source sent to the page (issue 24.1)', () => {
  it('a tool name or site id with a line separator runs nothing on a foreign page before the domain guard', async () => {
    for (const name of EXPLOITS) {
      for (const [siteId, tool] of [
        ['site', name],
        [name, 'mark'],
      ]) {
        expect(await codeOf(call(siteId!, tool!, ['example.com']))).toBe('domain-mismatch')
        expect(await evaluate(page.client, 'globalThis.__pwned')).toBeUndefined()
        expect(await evaluate(page.client, 'window.__ran')).toBeUndefined()
      }
    }
  })

  it('the same names run the tool on a page the skill owns, and a throw is located through the sourceURL', async () => {
    expect(await call('site', EXPLOIT, ['127.0.0.1'])).toBe('http:')
    expect(await evaluate(page.client, 'window.__ran')).toBe(1)
    expect(await evaluate(page.client, 'globalThis.__pwned')).toBeUndefined()
    // A name with a space, quotes and non-ASCII letters: V8 drops a sourceURL with a space or a quote.
    const error = await call(`s "it's"`, 'lire la page ü', ['127.0.0.1'], 'throws').catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'tool-threw', file: 'site/browser-tools/throws.js', line: 3 })
  })
})

describe('toolUrl and wrapToolSource', () => {
  it('percent-encode every name so that the sourceURL is one token of printable ASCII', () => {
    expect(toolUrl('x-com', 'search_users')).toBe('site-skills://x-com/search_users.js')
    expect(toolUrl('s', EXPLOIT)).toBe(
      'site-skills://s/a%E2%80%A8%2C%28globalThis.__pwned%3Dlocation.href%29%2Cwindow.js',
    )
    expect(toolUrl(`a b"'`, '\ud800/x')).toBe('site-skills://a%20b%22%27/%EF%BF%BD%2Fx.js')
  })

  it('a URL made elsewhere cannot end the comment either', () => {
    for (const name of EXPLOITS) {
      const wrapped = wrapToolSource('async function(){}', `site-skills://s/${name}\ud83d.js`)
      const comment = wrapped.slice(wrapped.lastIndexOf('//# sourceURL='))
      expect(comment).toMatch(/^\/\/# sourceURL=[\x21-\x7e]+\n$/)
    }
  })
})

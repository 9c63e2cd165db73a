import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { command } from '../../runtime/cdp'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import { formatFixture } from '../../src/compiler/fixture-format/header'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { type Exited, runBin } from '../helpers/spawn'

/** A run of `test` launches Chromium: a few seconds, more on a loaded machine; past this it hangs. */
const DEADLINE_MS = 40_000
const budget = (runs: number) => runs * DEADLINE_MS + 15_000

/** Hostile text for a failure message: markup, a CDATA end, controls, a lone surrogate. */
const HOSTILE = 'bad <b>&amp;</b> ]]> "q" \'a\' \u0001\u001f\ud800 end'

const PAGE = (title: string) => `<!DOCTYPE html><title>${title}</title><p>${title}</p>`
const URL_OF = (name: string) => `http://127.0.0.1/${name}`

/** `title` waits `args.delay` ms in the page first, so that the examples end in another order than they start. */
const TITLE = `async function (args) {
  await new Promise((resolve) => setTimeout(resolve, args.delay))
  if (document.title === 'throws') throw new Error(${JSON.stringify(HOSTILE)})
  return { title: document.title, length: document.title === 'wrong' ? 'long' : document.title.length }
}
`

/** The browser examples: name, the fixture's title, the delay, what it must contain. */
const EXAMPLES: [name: string, title: string, delay: number, expect?: object][] = [
  ['slow', 'Slow', 1500],
  ['one', 'One', 0],
  ['two', 'Two', 0, { title: 'Two' }],
  ['mismatch', 'Three', 0, { title: 'Not three' }],
  ['contract', 'wrong', 0],
  ['throws', 'throws', 0],
  ['four', 'Four', 0],
]

/** One skill: a browser tool with passing, slow, failing and throwing examples; a Node tool too. */
function files(): Record<string, unknown> {
  const examples = EXAMPLES.map(([name, , delay, expect]) => ({
    name,
    args: { delay },
    url: URL_OF(name),
    fixture: `fixtures/${name}.html`,
    ...(expect ? { expect } : {}),
  }))
  const tree: Record<string, unknown> = {
    'shop/browser-tools/title.js': TITLE,
    'shop/tools/sum.js': 'export function sum(ctx, args) {\n  return args.a + args.b\n}\n',
    'shop/manifest.json': {
      id: 'shop',
      name: 'Shop',
      domains: ['127.0.0.1'],
      nodeTools: {
        sum: {
          description: 'Adds.',
          path: 'tools/sum.js',
          callable: 'sum',
          args: {
            a: { type: 'number', required: true, description: 'A.' },
            b: { type: 'number', required: true, description: 'B.' },
          },
          returns: { type: 'number', description: 'The sum.' },
          examples: [
            { name: 'small', args: { a: 1, b: 2 }, expect: 3 },
            { name: 'off', args: { a: 2, b: 2 }, expect: 5 },
          ],
        },
      },
      browserTools: {
        title: {
          description: 'Reads the title.',
          path: 'browser-tools/title.js',
          timeoutMs: 10_000,
          args: { delay: { type: 'number', required: true, description: 'Wait first (ms).' } },
          returns: {
            type: 'object',
            description: 'The title.',
            properties: {
              title: { type: 'string', required: true, description: 'Title.' },
              length: { type: 'number', required: true, description: 'Its length.' },
            },
          },
          examples,
        },
      },
    },
  }
  for (const [name, title] of EXAMPLES)
    tree[`shop/fixtures/${name}.html`] = formatFixture(
      { url: URL_OF(name), captured: '2026-01-01T00:00:00.000Z' },
      PAGE(title),
    )
  return tree
}

interface JsonReport {
  ok: boolean
  results: { siteId: string; tool: string; example: string; status: string; kind?: string; message?: string }[]
}

let dir: string
let cleanup: () => Promise<void>
let browser: LaunchedBrowser

const test = (...args: string[]) => runBin(['test', '--root', dir, ...args], { limitMs: DEADLINE_MS })
const report = (run: Exited) => JSON.parse(run.stdout) as JsonReport

function expectExit(run: Exited, code: number): void {
  expect({ code: run.code, timedOut: run.timedOut }, `stderr: ${run.stderr}`).toEqual({ code, timedOut: false })
}

beforeAll(async () => {
  ;({ dir, cleanup } = await makeTempDir('parallel-'))
  await writeTree(dir, files())
})

afterAll(async () => {
  await browser?.close()
  await cleanup?.()
})

describe('site-skills test --workers', () => {
  it('gives the same JSON and the same lines with 4 workers as with 1, in the examples order', {
    timeout: budget(4),
  }, async () => {
    const serial = await test('--json', '--workers', '1')
    const parallel = await test('--json', '--workers', '4')
    expectExit(serial, 1)
    expectExit(parallel, 1)
    expect(parallel.stdout).toBe(serial.stdout)
    expect(report(serial).results.map((r) => `${r.example} ${r.kind ?? r.status}`)).toEqual([
      'small pass',
      'off expect-mismatch',
      'slow pass',
      'one pass',
      'two pass',
      'mismatch expect-mismatch',
      'contract contract-break',
      'throws tool-error',
      'four pass',
    ])
    const [serialText, parallelText] = [await test('--workers', '1'), await test('--workers', '4')]
    expect(parallelText.stdout).toBe(serialText.stdout)
    expect(parallelText.stdout.split('\n')[2]).toContain('shop › title › slow')
  })

  it('refuses a --workers that is not a count from 1 to 64', async () => {
    for (const bad of ['0', '65', 'x', '2.5']) {
      const run = await test('--workers', bad)
      expectExit(run, 2)
      expect(run.stderr).toContain('--workers takes a number from 1 to 64')
    }
  })
})

describe('site-skills test --shard', () => {
  it('1/3, 2/3 and 3/3 partition the examples exactly, in their order', { timeout: budget(4) }, async () => {
    const whole = report(await test('--json', '--workers', '2')).results
    const parts: JsonReport['results'][] = []
    for (const shard of ['1/3', '2/3', '3/3']) parts.push(report(await test('--json', '--shard', shard)).results)
    expect(parts.map((p) => p.length)).toEqual([3, 3, 3])
    expect(parts.flat()).toEqual(whole)
  })

  it('leaves an empty shard passing, refuses a bad one and --record with one', async () => {
    const empty = await test('--json', '--shard', '1/20', 'shop')
    expectExit(empty, 0)
    expect(report(empty)).toEqual({ ok: true, results: [] })
    for (const bad of ['0/3', '4/3', '1/0', 'a/b', '1']) {
      const run = await test('--shard', bad)
      expectExit(run, 2)
      expect(run.stderr).toContain('--shard takes I/N')
    }
    const record = await test('--shard', '1/2', '--record')
    expectExit(record, 2)
    expect(record.stderr).toContain('--record')
  })
})

describe('site-skills test --reporter junit', () => {
  beforeAll(async () => {
    browser = await launchBrowser()
  })

  /** What a strict XML parser (the browser's DOMParser, libxml-based) reads of `xml`. */
  async function parseXml(xml: string) {
    const page = await browser.newPage('about:blank')
    try {
      const expression = `(() => {
        const doc = new DOMParser().parseFromString(${JSON.stringify(xml)}, 'application/xml')
        const error = doc.querySelector('parsererror')
        if (error) return { error: error.textContent }
        const attrs = (el) => Object.fromEntries([...el.attributes].map((a) => [a.name, a.value]))
        return {
          root: attrs(doc.documentElement),
          suites: [...doc.querySelectorAll('testsuite')].map((s) => ({
            ...attrs(s),
            cases: [...s.querySelectorAll('testcase')].map((c) => {
              const inner = c.firstElementChild
              return { ...attrs(c), ...(inner ? { [inner.tagName]: { ...attrs(inner), text: inner.textContent } } : {}) }
            }),
          })),
        }
      })()`
      const { result } = await command(page.client, 'Runtime.evaluate', { expression, returnByValue: true })
      return result.value as {
        error?: string
        root: Record<string, string>
        suites: (Record<string, string> & { cases: Record<string, Record<string, string> | string>[] })[]
      }
    } finally {
      await page.close()
    }
  }

  it('prints well-formed JUnit XML with each failure marked by its kind, hostile text held', {
    timeout: budget(2),
  }, async () => {
    const run = await test('--reporter', 'junit', '--workers', '3')
    expectExit(run, 1)
    // stderr has only the runtime's warning of the contract break, no line of the command's own.
    expect(run.stderr).not.toContain('site-skills:')
    expect(run.stdout.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true)
    const xml = await parseXml(run.stdout)
    expect(xml.error).toBeUndefined()
    expect(xml.root).toMatchObject({ name: 'site-skills test', tests: '9', failures: '4', errors: '0' })
    const [suite] = xml.suites
    expect(suite).toMatchObject({ name: 'shop', tests: '9', failures: '4' })
    const failures = Object.fromEntries(
      suite!.cases.filter((c) => c.failure).map((c) => [c.name, (c.failure as Record<string, string>).type]),
    )
    expect(failures).toEqual({
      off: 'expect-mismatch',
      mismatch: 'expect-mismatch',
      contract: 'contract-break',
      throws: 'tool-error',
    })
    const thrown = suite!.cases.find((c) => c.name === 'throws')!.failure as Record<string, string>
    expect(thrown.text).toContain('bad <b>&amp;</b> ]]> "q" \'a\' \ufffd\ufffd\ufffd end')
    expect(suite!.cases.find((c) => c.name === 'one')).toEqual({ classname: 'shop.title', name: 'one' })
    const again = await test('--reporter', 'junit', '--workers', '1')
    expect(again.stdout).toBe(run.stdout)
  })

  it('takes --json as --reporter json, and refuses the two at odds', async () => {
    const both = await test('--json', '--reporter', 'junit')
    expectExit(both, 2)
    expect(both.stderr).toContain('--json is --reporter json')
    const unknown = await test('--reporter', 'tap')
    expectExit(unknown, 2)
  })
})

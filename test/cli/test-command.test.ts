import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import { formatFixture, isFixtureHeaderProblem, parseFixtureHeader } from '../../src/compiler/fixture-format/header'
import { type TestServer, startServer } from '../helpers/server'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { type Exited, runBin } from '../helpers/spawn'

/** A run of `test` launches Chromium: a few seconds, more on a loaded machine; past this it hangs. */
const DEADLINE_MS = 40_000
/** A test's own timeout: the deadlines of the `runs` CLI runs it spawns, and a margin for the rest. */
const budget = (runs: number) => runs * DEADLINE_MS + 15_000

function expectExit(run: Exited, code: number): void {
  expect({ code: run.code, timedOut: run.timedOut }, `after ${run.ms} ms; stderr: ${run.stderr}`).toEqual({
    code,
    timedOut: false,
  })
}

interface JsonReport {
  ok: boolean
  results: { siteId: string; tool: string; example: string; status: string; kind?: string; message?: string }[]
}

const report = (run: Exited) => JSON.parse(run.stdout) as JsonReport
const outcome = (run: Exited) =>
  Object.fromEntries(report(run).results.map((r) => [r.example, r.kind ? `${r.status} ${r.kind}` : r.status]))

/** Reads `li.item` rows once `main.ready` is there (it waits for it, so a page without it times out). */
const READ_LIST = `async function (args) {
  while (!document.querySelector('main.ready')) await new Promise((r) => setTimeout(r, 20))
  const text = (el, s) => (el.querySelector(s) ? el.querySelector(s).textContent.trim() : null)
  return {
    title: document.title,
    items: [...document.querySelectorAll('li.item')].map((li) => {
      const price = Number(text(li, '.price'))
      return { name: text(li, '.name'), price: Number.isNaN(price) ? text(li, '.price') : price }
    }),
  }
}
`

const page = (item = 'item', price = '12.5') =>
  `<!DOCTYPE html><title>Shop</title><main class="ready"><ul><li class="${item}"><b class="name">Lamp</b>` +
  `<span class="price">${price}</span></li></ul></main><script>document.title = 'ran'</script>`

function skill(id: string, domain: string, examples: object[]) {
  return {
    id,
    name: id,
    domains: [domain],
    browserTools: {
      read_list: {
        description: 'Read the list.',
        path: 'browser-tools/read-list.js',
        timeoutMs: 2000,
        args: {},
        returns: {
          type: 'object',
          description: 'Title and rows.',
          properties: {
            title: { type: 'string', description: 'Title.' },
            items: {
              type: 'array',
              description: 'Rows.',
              items: {
                type: 'object',
                description: 'A row.',
                properties: {
                  name: { type: 'string', required: true, description: 'Name.' },
                  price: { type: 'number', required: true, description: 'Price.' },
                },
              },
            },
          },
        },
        examples,
      },
    },
  }
}

const fixture = (url: string, html: string) => formatFixture({ url, captured: '2026-01-01T00:00:00.000Z' }, html)

describe('site-skills test', () => {
  it('passes on every example of learnings/', { timeout: budget(3) }, async () => {
    const run = await runBin(['test', '--root', 'learnings', '--json'], { limitMs: DEADLINE_MS * 3 })
    expectExit(run, 0)
    const { ok, results } = report(run)
    expect(ok).toBe(true)
    expect(results.filter((r) => r.status !== 'pass')).toEqual([])
    expect(results.filter((r) => r.siteId === 'demo-shop').map((r) => `${r.tool} ${r.example}`)).toEqual([
      'search_catalog lamp',
      'search_catalog cheap-books',
      'price_summary three-items',
      'price_summary empty',
      'read_products search-lamp',
      'read_products all-in-stock',
      'add_to_cart one-lamp',
      'page_info catalogue',
    ])
  })

  it('fails a fixture whose markup changed and a tool returning the wrong shape, one line each', {
    timeout: budget(2),
  }, async () => {
    const { dir, cleanup } = await makeTempDir('examples-')
    try {
      const url = 'http://localhost/list'
      await writeTree(dir, {
        'shop/manifest.json': skill('shop', 'localhost', [
          { name: 'same', args: {}, url, fixture: 'fixtures/same.html', expect: { items: [{ name: 'Lamp' }] } },
          { name: 'renamed', args: {}, url, fixture: 'fixtures/renamed.html', expect: { items: [{ name: 'Lamp' }] } },
          { name: 'text-price', args: {}, url, fixture: 'fixtures/text-price.html' },
        ]),
        'shop/browser-tools/read-list.js': READ_LIST,
        'shop/fixtures/same.html': fixture(url, page()),
        'shop/fixtures/renamed.html': fixture(url, page('entry')),
        'shop/fixtures/text-price.html': fixture(url, page('item', 'twelve')),
      })
      const json = await runBin(['test', '--root', dir, '--json'], { limitMs: DEADLINE_MS })
      expectExit(json, 1)
      expect(report(json)).toEqual({
        ok: false,
        results: [
          { siteId: 'shop', tool: 'read_list', example: 'same', status: 'pass', tokens: expect.any(Number) },
          {
            siteId: 'shop',
            tool: 'read_list',
            example: 'renamed',
            status: 'fail',
            kind: 'expect-mismatch',
            message: 'result.items should have at least 1 items (got 0)',
            tokens: expect.any(Number),
          },
          {
            siteId: 'shop',
            tool: 'read_list',
            example: 'text-price',
            status: 'fail',
            kind: 'contract-break',
            message: 'result.items[0].price must be a number (got string)',
            tokens: expect.any(Number),
          },
        ],
      })
      const text = await runBin(['test', 'shop', '--root', dir], { limitMs: DEADLINE_MS })
      expectExit(text, 1)
      expect(text.stdout.trimEnd().split('\n')).toEqual([
        expect.stringMatching(/^✔ shop › read_list › same {2}~\d+ tokens$/),
        expect.stringMatching(
          /^✖ shop › read_list › renamed {2}~\d+ tokens {2}expect-mismatch: result\.items should have at least 1 items \(got 0\)$/,
        ),
        expect.stringMatching(
          /^✖ shop › read_list › text-price {2}~\d+ tokens {2}contract-break: result\.items\[0\]\.price must be a number \(got string\)$/,
        ),
        '1 passed, 2 failed (3 examples)',
      ])
    } finally {
      await cleanup()
    }
  })

  it('refuses an unknown skill and a malformed --cdp as usage errors', async () => {
    const unknown = await runBin(['test', 'nosuch', '--root', 'learnings'])
    expectExit(unknown, 2)
    expect(unknown.stderr).toContain('no skill "nosuch" in the roots')
    const cdp = await runBin(['test', '--root', 'learnings', '--cdp', 'nowhere'])
    expectExit(cdp, 2)
    expect(cdp.stderr).toContain('--cdp must be HOST:PORT')
  })
})

describe('site-skills test --live, against a local server that changes its page', () => {
  let server: TestServer
  let version = 1
  let dir: string
  let cleanup: () => Promise<void>

  beforeAll(async () => {
    server = await startServer({
      '/drift': (_req, res) => res.end(page(version === 1 ? 'item' : 'entry')),
      '/contract': (_req, res) => res.end(page('item', version === 1 ? '12.5' : 'twelve')),
      '/wall': (_req, res) =>
        version === 1 ? res.end(page()) : res.writeHead(302, { location: '/login?next=/wall' }).end(),
      '/slow': (_req, res) => res.end(version === 1 ? page() : page().replace('class="ready"', '')),
    })
    ;({ dir, cleanup } = await makeTempDir('live-'))
    const paths = ['drift', 'contract', 'wall', 'slow']
    const files: Record<string, unknown> = { 'shop/browser-tools/read-list.js': READ_LIST }
    for (const path of paths) files[`shop/fixtures/${path}.html`] = fixture(server.url(`/${path}`), page())
    const examples = paths.map((name) => ({
      name,
      args: {},
      url: server.url(`/${name}`),
      fixture: `fixtures/${name}.html`,
    }))
    files['shop/manifest.json'] = skill('shop', '127.0.0.1', examples)
    await writeTree(dir, files)
  })
  afterAll(async () => {
    await server.close().catch(() => {})
    await cleanup()
  })

  it('passes while the site matches, then classifies each change; unreachable once it is down', {
    timeout: budget(3),
  }, async () => {
    const live = () => runBin(['test', '--live', '--root', dir, '--json'], { limitMs: DEADLINE_MS })
    const first = await live()
    expectExit(first, 0)
    expect(outcome(first)).toEqual({ drift: 'pass', contract: 'pass', wall: 'pass', slow: 'pass' })
    version = 2
    const second = await live()
    expectExit(second, 1)
    expect(outcome(second)).toEqual({
      drift: 'fail selector-drift',
      contract: 'fail contract-break',
      wall: 'fail auth-wall',
      slow: 'fail timeout',
    })
    const messages = report(second).results.map((r) => r.message)
    expect(messages[0]).toBe('full on the fixture, empty or missing live: result.items')
    expect(messages[2]).toContain('redirected to a login page')
    await server.close()
    const third = await live()
    expectExit(third, 1)
    expect(new Set(Object.values(outcome(third)))).toEqual(new Set(['fail unreachable']))
    expect(report(third).results[0]!.message).toContain('ERR_CONNECTION_REFUSED')
  })
})

describe('site-skills snapshot', () => {
  let browser: LaunchedBrowser
  let server: TestServer

  beforeAll(async () => {
    browser = await launchBrowser()
    server = await startServer({
      '/shop/list': `<!DOCTYPE html><title>Before</title><main><ul id="list"></ul></main>
<button onclick="alert(1)">Buy</button><input name="q" value="">
<script>
  document.title = 'Shop'
  document.querySelector('main').className = 'ready'
  document.querySelector('#list').innerHTML = '<li class="item"><b class="name">Lamp</b><span class="price">12.5</span></li>'
  document.querySelector('input').value = 'lamp'
</script>`,
    })
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('saves the rendered tab as a fixture, and test passes on it', { timeout: budget(3) }, async () => {
    const { dir, cleanup } = await makeTempDir('snapshot-')
    try {
      await writeTree(dir, {
        'shop/manifest.json': skill('shop', '127.0.0.1', []),
        'shop/browser-tools/read-list.js': READ_LIST,
      })
      const url = server.url('/shop/list')
      const tab = await browser.newPage(url)
      const cdp = `127.0.0.1:${browser.port}`
      const run = await runBin(['snapshot', url, '--site', 'shop', '--cdp', cdp, '--root', dir, '--json'])
      await tab.close()
      expectExit(run, 0)
      const saved = JSON.parse(run.stdout) as { file: string; example: Record<string, unknown> }
      expect(saved.example).toEqual({ name: 'list', args: {}, url, fixture: 'fixtures/list.html' })
      expect(saved.file).toBe(join(dir, 'shop/fixtures/list.html'))
      const html = await readFile(saved.file, 'utf8')
      // The unified header: a JSON comment first, which validation parses back.
      expect(html).toMatch(/^<!-- site-skills fixture\n\{\n {2}"url": "http:\/\/127\.0\.0\.1:\d+\/shop\/list",\n/)
      const header = parseFixtureHeader(html)
      if (isFixtureHeaderProblem(header)) throw new Error(header.reason)
      expect(header.header).toEqual({
        url,
        captured: expect.stringMatching(/^20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        changes: expect.stringContaining('scripts'),
      })
      expect(html).toContain('<li class="item"><b class="name">Lamp</b>')
      expect(html).toContain('<input name="q" value="lamp">')
      expect(html).not.toMatch(/<script|onclick/)
      // The stanza, pasted with an expect, makes an example that passes.
      const manifest = skill('shop', '127.0.0.1', [{ ...saved.example, expect: { title: 'Shop' } }])
      await writeFile(join(dir, 'shop/manifest.json'), JSON.stringify(manifest))
      const test = await runBin(['test', '--root', dir], { limitMs: DEADLINE_MS })
      expectExit(test, 0)
      expect(test.stdout).toMatch(/^✔ shop › read_list › list {2}~\d+ tokens\n1 passed, 0 failed \(1 example\)\n$/)
      // The header it wrote draws no warning.
      const validate = await runBin(['validate', '--root', dir, '--json'])
      expectExit(validate, 0)
      expect(JSON.parse(validate.stdout).diagnostics).toEqual([])
    } finally {
      await cleanup()
    }
  })

  it('refuses a URL outside the skill and a missing --cdp', async () => {
    const noCdp = await runBin(['snapshot', 'http://127.0.0.1/', '--site', 'demo-shop', '--root', 'learnings'])
    expectExit(noCdp, 2)
    expect(noCdp.stderr).toContain('pass --cdp HOST:PORT')
    const cdp = `127.0.0.1:${browser.port}`
    const args = ['snapshot', 'https://example.org/', '--site', 'demo-shop', '--cdp', cdp, '--root', 'learnings']
    const outside = await runBin(args)
    expectExit(outside, 1)
    expect(outside.stderr).toBe(
      "site-skills: domain-mismatch: https://example.org/ does not match demo-shop's domains (localhost, 127.0.0.1)\n",
    )
  })
})

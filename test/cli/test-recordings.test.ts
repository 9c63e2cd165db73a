import { describe, expect, it } from 'vitest'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { type Exited, runBin } from '../helpers/spawn'

// Node tool examples on recordings (fixtures/<name>.json with a "site-skills fixture" header and
// responses): ctx.fetch answers each recorded request URL, and only those.
const DEADLINE_MS = 40_000

function expectExit(run: Exited, code: number): void {
  expect({ code: run.code, timedOut: run.timedOut }, `after ${run.ms} ms; stderr: ${run.stderr}`).toEqual({
    code,
    timedOut: false,
  })
}

/** Fetches one item, or two (`also`), from the site's API and returns what came back. */
const PAIR_TOOL = `export async function pair(ctx, args) {
  const get = async (id) => {
    const response = await ctx.fetch(ctx.baseUrl + '/api/items/' + id)
    return response.headers.get('content-type').startsWith('application/json') ? response.json() : response.text()
  }
  const first = await get(args.id)
  return { first, second: args.also === undefined ? null : await get(args.also), page: ctx.url }
}
`

const header = (url: string) => ({ url, captured: '2026-01-01', source: { repo: 'owner/name', license: 'MIT' } })

function skill(examples: object[]) {
  return {
    id: 'shop',
    name: 'Shop',
    domains: ['shop.example.com'],
    nodeTools: {
      pair: {
        description: 'Read one or two items from the API.',
        path: 'tools/pair.js',
        callable: 'pair',
        args: {
          id: { type: 'integer', required: true, description: 'Item.' },
          also: { type: 'integer', required: false, description: 'Second item.' },
        },
        returns: { type: 'object', description: 'The items and the page.' },
        examples,
      },
    },
  }
}

describe('site-skills test on recordings', () => {
  it('answers each recorded request URL, fails any other, and serves a plain .json for url', async () => {
    const { dir, cleanup } = await makeTempDir('recordings-')
    try {
      const url = 'https://shop.example.com/items'
      await writeTree(dir, {
        'shop/manifest.json': skill([
          { name: 'two-requests', args: { id: 1, also: 2 }, url, fixture: 'fixtures/items.json' },
          { name: 'not-recorded', args: { id: 3 }, url, fixture: 'fixtures/items.json' },
          {
            name: 'plain-json',
            args: { id: 1 },
            url: 'https://shop.example.com/api/items/1',
            fixture: 'fixtures/plain.json',
          },
        ]),
        'shop/tools/pair.js': PAIR_TOOL,
        'shop/fixtures/items.json': {
          'site-skills fixture': header('https://shop.example.com/api/items/1'),
          responses: [
            { url: 'https://shop.example.com/api/items/1', body: { id: 1, name: 'Lamp' } },
            { url: 'https://shop.example.com/api/items/2', body: 'plain text, served as it is' },
          ],
        },
        'shop/fixtures/plain.json': { id: 1, name: 'Lamp, no header' },
      })
      const run = await runBin(['test', '--root', dir, '--json'], { limitMs: DEADLINE_MS })
      expectExit(run, 1)
      const results = (JSON.parse(run.stdout) as { results: Record<string, unknown>[] }).results
      expect(results.map(({ example, status, kind }) => ({ example, status, kind }))).toEqual([
        { example: 'two-requests', status: 'pass', kind: undefined },
        { example: 'not-recorded', status: 'fail', kind: 'tool-error' },
        { example: 'plain-json', status: 'pass', kind: undefined },
      ])
      expect(results[1]!.message).toContain(
        'site-skills test serves only https://shop.example.com/api/items/1, https://shop.example.com/api/items/2 ' +
          '(no network; asked for https://shop.example.com/api/items/3)',
      )

      // The values themselves, through an expect that must hold.
      const manifest = skill([
        {
          name: 'two-requests',
          args: { id: 1, also: 2 },
          url,
          fixture: 'fixtures/items.json',
          expect: { first: { id: 1, name: 'Lamp' }, second: 'plain text, served as it is', page: url },
        },
      ])
      await writeTree(dir, { 'shop/manifest.json': manifest })
      const checked = await runBin(['test', '--root', dir], { limitMs: DEADLINE_MS })
      expectExit(checked, 0)
      expect(checked.stdout).toContain('1 passed, 0 failed (1 example')
    } finally {
      await cleanup()
    }
  })

  it('warns about a .json fixture without the header and a response on another domain, and exits 0', async () => {
    const { dir, cleanup } = await makeTempDir('recordings-')
    try {
      const url = 'https://shop.example.com/items'
      await writeTree(dir, {
        'shop/manifest.json': skill([
          { name: 'elsewhere', args: { id: 1 }, url, fixture: 'fixtures/elsewhere.json' },
          { name: 'plain', args: { id: 1 }, url, fixture: 'fixtures/plain.json' },
        ]),
        'shop/tools/pair.js': PAIR_TOOL,
        'shop/fixtures/elsewhere.json': {
          'site-skills fixture': header('https://shop.example.com/api/items/1'),
          responses: [{ url: 'https://api.example.org/items/1', body: {} }],
        },
        'shop/fixtures/plain.json': [],
      })
      const run = await runBin(['validate', '--root', dir])
      expectExit(run, 0)
      expect(run.stdout).toContain('warning fixture-header')
      expect(run.stdout).toContain(
        'fixture "fixtures/elsewhere.json" was captured at "https://shop.example.com/api/items/1" (example.com), ' +
          'but responses[0] serves it under "https://api.example.org/items/1" (example.org)',
      )
      expect(run.stdout).toContain(
        'fixture "fixtures/plain.json" has no site-skills fixture header: the file is not a JSON object with a ' +
          '"site-skills fixture" member',
      )
      expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('✔ 0 errors, 2 warnings in 1 skill')
    } finally {
      await cleanup()
    }
  })
})

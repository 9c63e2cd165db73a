import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestServer, startServer } from '../helpers/server'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { type Exited, runBin } from '../helpers/spawn'

// What decides the exit code of `site-skills test` besides the examples, and how it says so.
const DEADLINE_MS = 40_000

function expectExit(run: Exited, code: number): void {
  expect({ code: run.code, timedOut: run.timedOut }, `after ${run.ms} ms; stderr: ${run.stderr}`).toEqual({
    code,
    timedOut: false,
  })
}

/** A skill with one Node tool; `examples` may be empty. */
function skill(id: string, examples: object[]) {
  return {
    id,
    name: id,
    domains: ['shop.example.com'],
    nodeTools: {
      echo: {
        description: 'Say the word back.',
        path: 'tools/echo.js',
        callable: 'echo',
        args: { word: { type: 'string', required: true, description: 'A word.' } },
        returns: { type: 'object', description: 'What was said.' },
        ...(examples.length ? { examples } : {}),
      },
    },
  }
}

const ECHO = 'export async function echo(ctx, args) {\n  return { said: args.word }\n}\n'

describe('site-skills test: only the chosen skills decide, and the output says what decided', () => {
  let dir: string
  let cleanup: () => Promise<void>
  const test = (...args: string[]) => runBin(['test', '--root', dir, ...args], { limitMs: DEADLINE_MS })

  beforeAll(async () => {
    ;({ dir, cleanup } = await makeTempDir('scope-'))
    await writeTree(dir, {
      'good/manifest.json': skill('good', [{ name: 'hi', args: { word: 'hi' }, expect: { said: 'hi' } }]),
      'good/tools/echo.js': ECHO,
      'bare/manifest.json': skill('bare', []),
      'bare/tools/echo.js': ECHO,
      'broken/manifest.json': { id: 'broken', name: 'Broken', domains: ['*.com'] },
    })
  })
  afterAll(() => cleanup())

  it('a named skill passes although another skill is broken', async () => {
    const text = await test('good')
    expectExit(text, 0)
    expect(text.stdout).toMatch(/^✔ good › echo › hi {2}~\d+ tokens\n1 passed, 0 failed \(1 example\)\n$/)
    expect(text.stderr).toBe('')
    const json = await test('good', '--json')
    expectExit(json, 0)
    expect(JSON.parse(json.stdout)).toEqual({
      ok: true,
      results: [{ siteId: 'good', tool: 'echo', example: 'hi', status: 'pass', tokens: expect.any(Number) }],
    })
  })

  it('all skills: the broken one fails the run, and both outputs name it', async () => {
    const text = await test()
    expectExit(text, 1)
    expect(text.stdout).toMatch(/^✔ good › echo › hi {2}~\d+ tokens\n1 passed, 0 failed \(1 example\)\n$/)
    expect(text.stderr.split('\n')).toEqual([
      'site-skills: broken has 1 error, so its examples did not run; see site-skills validate',
      expect.stringMatching(/^site-skills: bare has no examples: add "examples" to a tool in .*bare\/manifest\.json/),
      '',
    ])
    const json = await test('--json')
    expectExit(json, 1)
    const report = JSON.parse(json.stdout)
    expect(report.ok).toBe(false)
    expect(report.results).toEqual([
      { siteId: 'good', tool: 'echo', example: 'hi', status: 'pass', tokens: expect.any(Number) },
    ])
    expect(report.diagnostics).toEqual([
      expect.objectContaining({ code: 'domain-public-suffix', severity: 'error', siteId: 'broken' }),
    ])
    expect(report.noExamples).toEqual(['bare'])
  })

  it('a skill without examples: says so and how to add one, and exits 1 (no example ran)', async () => {
    const text = await test('bare')
    expectExit(text, 1)
    expect(text.stdout).toBe('0 passed, 0 failed (0 examples)\n')
    expect(text.stderr).toMatch(
      /^site-skills: bare has no examples: add "examples" to a tool in .*bare\/manifest\.json \(site-skills snapshot URL --site bare --cdp HOST:PORT saves the page an example runs on\)\n$/,
    )
    const json = await test('bare', '--json')
    expectExit(json, 1)
    expect(JSON.parse(json.stdout)).toEqual({ ok: false, results: [], noExamples: ['bare'] })
  })

  it('a named broken skill fails the run and says why', async () => {
    const run = await test('broken')
    expectExit(run, 1)
    expect(run.stderr).toBe('site-skills: broken has 1 error, so its examples did not run; see site-skills validate\n')
  })
})

describe('site-skills test: every failure is one line with a code', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.close())

  it('a --cdp address that is not DevTools', async () => {
    const { dir, cleanup } = await makeTempDir('scope-cdp-')
    try {
      const url = 'http://127.0.0.1/p'
      await writeTree(dir, {
        'page/manifest.json': {
          id: 'page',
          name: 'Page',
          domains: ['127.0.0.1'],
          browserTools: {
            title: {
              description: 'The title.',
              path: 'browser-tools/title.js',
              args: {},
              returns: { type: 'string', description: 'The title.' },
              examples: [{ name: 'p', args: {}, url, fixture: 'fixtures/p.html' }],
            },
          },
        },
        'page/browser-tools/title.js': 'async function () {\n  return document.title\n}\n',
        'page/fixtures/p.html': '<title>P</title>',
      })
      const address = server.origin.replace('http://', '')
      const run = await runBin(['test', '--root', dir, '--cdp', address], { limitMs: DEADLINE_MS })
      expectExit(run, 1)
      expect(run.stderr).toBe(
        `site-skills: disconnected: ${address} is not a DevTools endpoint (its /json/version names no browser)\n`,
      )
    } finally {
      await cleanup()
    }
  })
})

describe('site-skills test: a failing example', () => {
  it("names the tool's file and line once", async () => {
    const { dir, cleanup } = await makeTempDir('scope-throw-')
    try {
      await writeTree(dir, {
        'boom/manifest.json': skill('boom', [{ name: 'throws', args: { word: 'x' } }]),
        'boom/tools/echo.js': 'export async function echo(ctx, args) {\n  throw new Error("no " + args.word)\n}\n',
      })
      const run = await runBin(['test', '--root', dir, '--json'], { limitMs: DEADLINE_MS })
      expectExit(run, 1)
      const [result] = JSON.parse(run.stdout).results
      expect(result.message).toBe('tool-threw: boom -> echo: no x (boom/tools/echo.js)')
    } finally {
      await cleanup()
    }
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isSiteToolError } from '../../runtime/index'
import { resultJson } from '../../runtime/result-json'
import { type SiteTool, createResultChecker, toolResult } from '../../src/mcp/tool-results'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { type Exited, runBin } from '../helpers/spawn'

const node = (callable: string) => ({
  description: `Runs ${callable}.`,
  path: 'tools/results.js',
  callable,
  args: {},
  returns: { type: 'object', description: 'Anything.' },
})

const TOOLS = ['cycle', 'bigint', 'getter', 'deep', 'late', 'stray', 'unwatched']

/** Node tools whose results JSON cannot hold, and tools that fail where no call can catch it. */
const FILES = {
  'learnings/odd/manifest.json': {
    id: 'odd',
    name: 'Odd',
    domains: ['odd.example.com'],
    nodeTools: Object.fromEntries(TOOLS.map((t) => [t, node(t)])),
  },
  'learnings/odd/tools/results.js': [
    'export function cycle() { const a = { list: [1] }; a.list.push(a); return a }',
    'export const bigint = () => ({ total: 10n })',
    'export const getter = () => ({ ok: 1, get broken() { throw new Error("no such field") } })',
    'export const deep = () => ({ a: { b: [{ c: 2n ** 70n }] } })',
    // Returns, then throws from a timer: no call is there to catch it.
    'export function late() { setTimeout(() => { throw new Error("late failure") }, 5); return new Promise((r) => setTimeout(() => r({}), 50)) }',
    'export function stray() { Promise.reject(new Error("stray rejection")); return new Promise((r) => setTimeout(() => r({}), 50)) }',
    // Takes away what lets the runtime see that nothing can settle its call.
    'export function unwatched() {',
    '  setTimeout(() => process.removeAllListeners("beforeExit"), 5)',
    '  return new Promise(() => {})',
    '}',
    '',
  ].join('\n'),
}

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('failure-lines-')
  await writeTree(tmp.dir, FILES)
})
afterAll(() => tmp.cleanup())

const run = (tool: string, ...extra: string[]) =>
  runBin(['run', 'odd', tool, '--root', 'learnings', ...extra], { cwd: tmp.dir })

/** Exit 1 by itself, nothing on stdout, and one line on stderr that matches: no stack trace. */
function expectOneLine(result: Exited, line: RegExp): void {
  expect(result.timedOut, result.stderr).toBe(false)
  expect(result.code, result.stderr).toBe(1)
  expect(result.stdout).toBe('')
  expect(result.stderr).not.toMatch(/\n\s+at /)
  expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(line)])
}

describe('run: a result JSON cannot hold is one invalid-result line (issue 24.21)', () => {
  const cases: [string, RegExp][] = [
    ['cycle', /result\.list\[1\] refers back to an object that contains it \(a cycle\)/],
    ['bigint', /result\.total is a BigInt \(return it as a string or a number\)/],
    ['getter', /result\.broken threw when read: no such field/],
    ['deep', /result\.a\.b\[0\]\.c is a BigInt \(return it as a string or a number\)/],
  ]
  for (const [tool, where] of cases) {
    it(`${tool}, in text and JSON`, async () => {
      const prefix = `^site-skills: invalid-result: odd -> ${tool}: the result is not JSON data: `
      const pattern = new RegExp(prefix + where.source + String.raw` \(odd/tools/results\.js\)$`)
      expectOneLine(await run(tool), pattern)
      expectOneLine(await run(tool, '--json'), pattern)
    })
  }
})

describe('run: failures no call can catch are one line too', () => {
  it('an error a tool throws from a timer is one uncaught line, exit 1', async () => {
    expectOneLine(await run('late'), /^site-skills: uncaught: late failure \(thrown outside any call/)
  })

  it('a promise a tool rejects and drops is one uncaught line, exit 1', async () => {
    expectOneLine(await run('stray'), /^site-skills: uncaught: stray rejection \(thrown outside any call/)
  })

  it('a command that cannot finish says so and exits 1, never 0 in silence', async () => {
    expectOneLine(await run('unwatched'), /^site-skills: unfinished: the command stopped with work pending/)
  })

  it('SITE_SKILLS_DEBUG=1 adds the stack after the line', async () => {
    const debug = await runBin(['run', 'odd', 'late', '--root', 'learnings'], {
      cwd: tmp.dir,
      env: { SITE_SKILLS_DEBUG: '1' },
    })
    expect(debug.code).toBe(1)
    expect(debug.stderr).toMatch(/^site-skills: uncaught: late failure .*\nError: late failure\n\s+at /)
  })
})

describe('resultJson', () => {
  const from = { siteId: 's', tool: 't' }
  it('writes JSON data as JSON.stringify does, undefined as null', () => {
    expect(resultJson({ a: [1, 'x', null], d: new Date(0) }, from)).toBe(
      '{"a":[1,"x",null],"d":"1970-01-01T00:00:00.000Z"}',
    )
    expect(resultJson(undefined, from, 2)).toBe('null')
    const shared = { v: 1 }
    expect(resultJson({ a: shared, b: shared }, from)).toBe('{"a":{"v":1},"b":{"v":1}}')
  })

  it('names where a toJSON throws, and falls back to the engine words for what it cannot place', () => {
    const error = (value: unknown) => {
      try {
        resultJson(value, from)
      } catch (e) {
        if (isSiteToolError(e, 'invalid-result')) return e.message
      }
      throw new Error('expected invalid-result')
    }
    expect(
      error({
        when: {
          toJSON: () => {
            throw new Error('bad date')
          },
        },
      }),
    ).toBe('s -> t: the result is not JSON data: result.when threw when read: bad date')
    let deep: unknown = 1
    for (let i = 0; i < 100_000; i++) deep = [deep]
    expect(error(deep)).toBe('s -> t: the result is not JSON data: Maximum call stack size exceeded')
    const hidden = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('no keys')
        },
      },
    )
    expect(error({ p: hidden })).toBe('s -> t: the result is not JSON data: result.p threw when read: no keys')
  })
})

describe('the MCP server with a result JSON cannot hold', () => {
  it('answers an invalid-result tool error naming where, not an internal error', () => {
    const meta = { kind: 'node', description: 'x', args: {}, returns: { type: 'object' }, file: 'odd/tools/results.js' }
    const tool = {
      def: { name: 'odd__cycle', inputSchema: { type: 'object' } },
      ref: { siteId: 'odd', tool: 'cycle' },
      meta,
    }
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    const result = toolResult(tool as unknown as SiteTool, { value: cyclic, paged: false }, createResultChecker())
    expect(result.isError).toBe(true)
    expect(result._meta).toEqual({
      'site-skills/error': { code: 'invalid-result', siteId: 'odd', tool: 'cycle', file: 'odd/tools/results.js' },
    })
    expect(result.content).toEqual([
      {
        type: 'text',
        text: 'invalid-result: odd -> cycle: the result is not JSON data: result.self refers back to an object that contains it (a cycle) (odd/tools/results.js)',
      },
    ])
  })
})

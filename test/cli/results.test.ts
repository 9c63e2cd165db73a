import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeCompact } from '../helpers/compact-decode'
import { readAllPages } from '../helpers/pages'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { type Exited, runBin } from '../helpers/spawn'

/** A Node tool whose result grows with `n`, over its resultBudget past a few dozen rows. */
const SKILL = {
  'news/manifest.json': {
    id: 'news',
    name: 'News',
    domains: ['news.example.com'],
    nodeTools: {
      stories: {
        description: 'Front-page stories.',
        path: 'tools/stories.js',
        callable: 'stories',
        args: { n: { type: 'integer', required: true, description: 'How many.' } },
        returns: {
          type: 'object',
          description: 'The stories.',
          properties: {
            page: { type: 'string', required: true, description: 'Which page.' },
            stories: { type: 'array', required: true, description: 'In order.', items: { type: 'object' } },
          },
        },
        resultBudget: 300,
        examples: [
          { name: 'three', args: { n: 3 }, expect: { page: 'news' } },
          { name: 'two-hundred', args: { n: 200 } },
        ],
      },
    },
  },
  'news/tools/stories.js':
    'export function stories(ctx, args) {\n' +
    '  const stories = Array.from({ length: args.n }, (_, i) => ({ rank: i + 1, title: "Story, " + i, points: i * 3 }))\n' +
    '  return { page: "news", stories }\n' +
    '}\n',
}

const stories = (n: number) => ({
  page: 'news',
  stories: Array.from({ length: n }, (_, i) => ({ rank: i + 1, title: `Story, ${i}`, points: i * 3 })),
})

let root: string
let cleanup: () => Promise<void>

beforeAll(async () => {
  ;({ dir: root, cleanup } = await makeTempDir('results-'))
  await writeTree(root, SKILL)
})
afterAll(() => cleanup?.())

function expectExit(run: Exited, code: number): void {
  expect({ code: run.code, timedOut: run.timedOut }, run.stderr).toEqual({ code, timedOut: false })
}

const run = (args: Record<string, unknown>, ...flags: string[]) =>
  runBin(['run', 'news', 'stories', '--root', root, '--args', JSON.stringify(args), ...flags], { limitMs: 20_000 })

describe('site-skills run: results as agents get them', () => {
  it('--format compact prints compact text: fields as lines, the list as a table', async () => {
    const small = await run({ n: 3 }, '--format', 'compact')
    expectExit(small, 0)
    expect(small.stdout).toBe(
      'page:news\nstories[3]{rank,title,points}:\n1,"Story, 0",0\n2,"Story, 1",3\n3,"Story, 2",6\n',
    )
    expect(decodeCompact(small.stdout.trimEnd())).toEqual(stories(3))
  })

  it('--json stays JSON, and the default indented JSON, for a result within its budget', async () => {
    const json = await run({ n: 3 }, '--json')
    expectExit(json, 0)
    expect(json.stdout).toBe(`${JSON.stringify(stories(3))}\n`)
    const plain = await run({ n: 3 })
    expect(plain.stdout).toBe(`${JSON.stringify(stories(3), null, 2)}\n`)
  })

  it('pages a result over its budget; --args with each pageInfo.cursor reads it to the end', async () => {
    const { value, pages } = await readAllPages(async (cursor) => {
      const page = await run(cursor ? { n: 200, cursor } : { n: 200 }, '--json')
      expectExit(page, 0)
      return JSON.parse(page.stdout)
    })
    expect(value).toEqual(stories(200))
    expect(pages[0]).toMatchObject({ pageInfo: { field: 'stories', total: 200, offset: 0 }, page: 'news' })
    expect(pages.length).toBeGreaterThan(3)
    // The other members are on the first page only.
    for (const later of pages.slice(1)) expect(Object.keys(later)).toEqual(['pageInfo', 'stories'])
    const compact = await run({ n: 200 }, '--format', 'compact')
    expect(compact.stdout).toMatch(
      /^pageInfo:\n field:stories\n total:200\n offset:0\n count:\d+\n cursor:[\w-]+\npage:news\n/,
    )
  }, 120_000)

  it('refuses a cursor of other arguments (exit 1, invalid-cursor) and --json with --format compact (exit 2)', async () => {
    const first = JSON.parse((await run({ n: 200 }, '--json')).stdout)
    const other = await run({ n: 199, cursor: first.pageInfo.cursor }, '--json')
    expectExit(other, 1)
    expect(other.stderr).toContain(
      'site-skills: invalid-cursor: news -> stories: argument "cursor" belongs to another call',
    )
    const both = await run({ n: 3 }, '--json', '--format', 'compact')
    expectExit(both, 2)
    expect(both.stderr).toContain('--json prints JSON')
  })
})

describe('site-skills test: the tokens of each result, and the budget', () => {
  it("prints each example's result tokens and fails the one over its tool's resultBudget", async () => {
    const human = await runBin(['test', '--root', root], { limitMs: 30_000 })
    expectExit(human, 1)
    expect(human.stdout).toMatch(/^✔ news › stories › three {2}~\d+ tokens$/m)
    expect(human.stdout).toMatch(
      /^✖ news › stories › two-hundred {2}~[\d,]+ tokens {2}result-budget: the result is about [\d,]+ tokens, over the resultBudget of 300: agents get it a page at a time$/m,
    )
    const json = JSON.parse((await runBin(['test', '--root', root, '--json'], { limitMs: 30_000 })).stdout)
    expect(json.results).toEqual([
      { siteId: 'news', tool: 'stories', example: 'three', status: 'pass', tokens: expect.any(Number) },
      expect.objectContaining({
        example: 'two-hundred',
        status: 'fail',
        kind: 'result-budget',
        tokens: expect.any(Number),
      }),
    ])
    expect(json.results[1].tokens).toBeGreaterThan(300)
  }, 90_000)
})

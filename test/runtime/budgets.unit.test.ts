import { describe, expect, it } from 'vitest'
import { isSiteToolError } from '../../runtime/errors'
import { createDomainTableData } from '../../runtime/match'
import { createSiteSkills } from '../../runtime/registry'
import type { SkillChunk, SkillMeta } from '../../runtime/skill-data'
import { readAllPages } from '../helpers/pages'

const item = { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } } } as const
const META: SkillMeta[] = [
  {
    id: 'news',
    name: 'News',
    domains: ['news.test'],
    notes: [],
    tools: {
      list: {
        kind: 'node',
        description: 'Stories.',
        args: { n: { type: 'integer', required: true, description: 'How many.' } },
        returns: { type: 'array', description: 'Stories.', items: item },
        resultBudget: 200,
        file: 'news/tools/list.js',
      },
      own: {
        kind: 'node',
        description: 'Pages by itself.',
        args: { cursor: { type: 'string', description: 'Its own cursor.' } },
        returns: { type: 'array', description: 'Stories.', items: item },
        resultBudget: 200,
        file: 'news/tools/own.js',
      },
    },
  },
]

const stories = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, title: `Story number ${i} of the day` }))
const chunk = (): SkillChunk => ({
  notes: [],
  nodeTools: {
    list: async () => (_ctx: unknown, args: { n: number }) => stories(args.n),
    own: async () => (_ctx: unknown, args: { cursor?: string }) => [...stories(100), { id: -1, title: args.cursor }],
  },
  browserTools: {},
})
const api = createSiteSkills(
  { skills: META, table: createDomainTableData(META.map((s) => s.domains)) },
  { news: async () => chunk() },
)

type Page = { pageInfo: { total: number; cursor?: string }; result: unknown[] }

describe('result budgets through the registry', () => {
  it("pages a model's call over the tool's resultBudget; its cursors read the whole list", async () => {
    const first = (await api.dispatchToolCall('news__list', { n: 100 })) as Page
    expect(first.pageInfo).toMatchObject({ total: 100, offset: 0 })
    expect(first.result.length).toBeLessThan(100)
    const { value, pages } = await readAllPages((cursor) =>
      api.dispatchToolCall('news__list', cursor ? { n: 100, cursor } : { n: 100 }),
    )
    expect(value).toEqual(stories(100))
    expect(pages.length).toBeGreaterThan(3)
    // OpenAI strict mode sends the absent cursor as null: the first page.
    expect(await api.dispatchToolCall('news__list', '{"n":100,"cursor":null}')).toEqual(first)
  })

  it('returns the whole value to runTool and the stubs; a cursor there gets its page', async () => {
    expect(await api.runTool('news', 'list', { n: 100 })).toEqual(stories(100))
    expect(await api.sites.news!.list!({ n: 100 })).toEqual(stories(100))
    const { cursor } = ((await api.dispatchToolCall('news__list', { n: 100 })) as Page).pageInfo
    const page = (await api.sites.news!.list!({ n: 100, cursor })) as Page
    expect(page.pageInfo.total).toBe(100)
    expect(page.result[0]).not.toEqual(stories(1)[0])
    // Within its budget, a model's call gets the value as it is.
    expect(await api.dispatchToolCall('news__list', { n: 2 })).toEqual(stories(2))
  })

  it('refuses a cursor of other arguments, or one that is not a string, with invalid-cursor', async () => {
    const { cursor } = ((await api.dispatchToolCall('news__list', { n: 100 })) as Page).pageInfo
    for (const args of [
      { n: 99, cursor },
      { n: 100, cursor: 5 },
    ]) {
      const error = await api.dispatchToolCall('news__list', args).catch((e: unknown) => e)
      expect(isSiteToolError(error, 'invalid-cursor'), JSON.stringify(args)).toBe(true)
    }
  })

  it('leaves a tool that declares its own cursor alone: the cursor is its argument, its result whole', async () => {
    const value = (await api.dispatchToolCall('news__own', { cursor: 'mine' })) as unknown[]
    expect(value).toHaveLength(101)
    expect(value.at(-1)).toEqual({ id: -1, title: 'mine' })
    const tool = api.toolDefinitions('https://news.test/').mcp.find((d) => d.name === 'news__own')!
    expect(tool.inputSchema.properties).toEqual({ cursor: { type: 'string', description: 'Its own cursor.' } })
  })
})

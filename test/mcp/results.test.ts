import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LaunchedPage } from '../../runtime/launch'
import { decodeCompact } from '../helpers/compact-decode'
import { readAllPages } from '../helpers/pages'
import { writeTree } from '../helpers/tmp'
import { createWorld, stdioClient, type Watched, type World, worldArgs } from './harness'

/** A skill on delta.test whose results are over their small budgets: a Node list, a page's long text, a bare list. */
const DELTA = {
  'delta/manifest.json': {
    id: 'delta',
    name: 'Delta',
    domains: ['delta.test'],
    resultBudget: 300,
    nodeTools: {
      stories: {
        description: 'Stories.',
        path: 'tools/stories.js',
        callable: 'stories',
        args: { n: { type: 'integer', required: true, description: 'How many.' } },
        returns: {
          type: 'object',
          description: 'The stories.',
          properties: {
            page: { type: 'string', required: true, description: 'Which page.' },
            stories: {
              type: 'array',
              required: true,
              description: 'In order.',
              items: {
                type: 'object',
                properties: { rank: { type: 'integer', required: true }, title: { type: 'string' } },
              },
            },
          },
        },
      },
      ids: {
        description: 'Ids.',
        path: 'tools/stories.js',
        callable: 'ids',
        args: { n: { type: 'integer', required: true, description: 'How many.' } },
        returns: { type: 'array', description: 'Ids.', items: { type: 'integer' } },
      },
    },
    browserTools: {
      article: {
        description: 'The page title and a long body.',
        path: 'browser-tools/article.js',
        args: { words: { type: 'integer', required: true, description: 'How many words.' } },
        returns: {
          type: 'object',
          description: 'The article.',
          properties: { title: { type: 'string', required: true }, body: { type: 'string', required: true } },
        },
      },
    },
  },
  'delta/tools/stories.js':
    'export function stories(ctx, args) {\n' +
    '  return { page: "news", stories: Array.from({ length: args.n }, (_, i) => ({ rank: i + 1, title: "Story, " + i })) }\n' +
    '}\n' +
    'export function ids(ctx, args) {\n  return Array.from({ length: args.n }, (_, i) => i * 7)\n}\n',
  'delta/browser-tools/article.js':
    'async function (args) {\n' +
    '  const body = Array.from({ length: args.words }, (_, i) => "word" + i).join(" ")\n' +
    '  return { title: document.title, body }\n' +
    '}\n',
}

const stories = (n: number) => ({
  page: 'news',
  stories: Array.from({ length: n }, (_, i) => ({ rank: i + 1, title: `Story, ${i}` })),
})

let world: World
let mcp: Watched & { stderr: () => string }
let page: LaunchedPage

const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text
/** A call through the SDK client, which checks structuredContent against the tool's outputSchema. */
async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult
  expect(result.isError, textOf(result)).toBeFalsy()
  // The text says what structuredContent holds (a result that is not an object is its `result`).
  const said = decodeCompact(textOf(result))
  expect([said, { result: said }]).toContainEqual(result.structuredContent)
  return result
}

beforeAll(async () => {
  world = await createWorld()
  await writeTree(world.root, DELTA)
  mcp = await stdioClient([...worldArgs(world), '--tools', 'page'])
  const changed = mcp.nextToolsChange()
  page = await world.browser.newPage(world.url('delta.test'))
  await changed
})

afterAll(async () => {
  await page?.close().catch(() => undefined)
  await mcp?.client.close()
  await world?.close()
})

describe('site-skills mcp: results as compact text, paged past their budget', () => {
  it('lists the cursor argument and a compact outputSchema (no descriptions)', async () => {
    const { tools } = await mcp.client.listTools()
    const listed = tools.find((t) => t.name === 'delta__stories')!
    expect(listed.inputSchema.properties).toMatchObject({ cursor: { type: 'string' }, tab: { type: 'string' } })
    expect(JSON.stringify(listed.outputSchema)).not.toContain('description')
    // A page after the first holds pageInfo and the list only: no member is required (page is, in returns).
    expect(listed.outputSchema).not.toHaveProperty('required')
    expect(tools.find((t) => t.name === 'delta__ids')!.outputSchema).toEqual({
      type: 'object',
      properties: { result: { type: 'array', items: { type: 'integer' } } },
      required: ['result'],
    })
  })

  it('answers within the budget with the result as compact text and as structuredContent', async () => {
    const small = await call('delta__stories', { n: 2 })
    expect(textOf(small)).toBe('page:news\nstories[2]{rank,title}:\n1,"Story, 0"\n2,"Story, 1"')
    expect(small.structuredContent).toEqual(stories(2))
    expect((await call('delta__ids', { n: 3 })).structuredContent).toEqual({ result: [0, 7, 14] })
  })

  it('pages a Node tool’s list: every page valid against outputSchema, the cursors read it whole', async () => {
    const { value, pages } = await readAllPages(
      async (cursor) => (await call('delta__stories', cursor ? { n: 300, cursor } : { n: 300 })).structuredContent,
    )
    expect(value).toEqual(stories(300))
    expect(pages.length).toBeGreaterThan(3)
    expect(pages[0]!.pageInfo).toMatchObject({ field: 'stories', total: 300, offset: 0 })
    for (const later of pages.slice(1)) expect(Object.keys(later)).toEqual(['pageInfo', 'stories'])
    const ids = await readAllPages(
      async (cursor) => (await call('delta__ids', cursor ? { n: 2000, cursor } : { n: 2000 })).structuredContent,
    )
    expect(ids.value).toEqual(Array.from({ length: 2000 }, (_, i) => i * 7))
  }, 120_000)

  it('cuts a browser tool’s long text with a marker; site_skills_call with the cursor gives the rest', async () => {
    const words = Array.from({ length: 3000 }, (_, i) => `word${i}`).join(' ')
    const { value, pages } = await readAllPages(async (cursor) => {
      const args = cursor ? { words: 3000, cursor } : { words: 3000 }
      const result = (await mcp.client.callTool({
        name: 'site_skills_call',
        arguments: { name: 'delta__article', arguments: args },
      })) as CallToolResult
      expect(decodeCompact(textOf(result))).toEqual(result.structuredContent)
      return result.structuredContent
    })
    expect(value).toEqual({ title: 'delta page', body: words })
    expect(pages[0]!.body).toMatch(/…\[cut at \d+ of 25889 characters; the rest: cursor [\w-]+\]$/)
  }, 120_000)

  it('refuses a cursor of other arguments as an invalid-cursor tool error', async () => {
    const first = await call('delta__stories', { n: 300 })
    const { cursor } = (first.structuredContent as { pageInfo: { cursor: string } }).pageInfo
    const other = (await mcp.client.callTool({ name: 'delta__stories', arguments: { n: 5, cursor } })) as CallToolResult
    expect(other.isError).toBe(true)
    expect(other._meta?.['site-skills/error']).toMatchObject({ code: 'invalid-cursor', siteId: 'delta' })
  })
})

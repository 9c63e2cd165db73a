import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeTree } from '../helpers/tmp'
import { createWorld, stdioClient, worldArgs, type World } from './harness'

// `--tools page` over stdio with a skill whose tool is scoped to repository paths (`urls`).
let world: World
let mcp: Awaited<ReturnType<typeof stdioClient>>

const title = (description: string, urls?: string[]) => ({
  description,
  path: 'browser-tools/title.js',
  args: {},
  returns: { type: 'string', description: 'The title.' },
  ...(urls ? { urls } : {}),
})

beforeAll(async () => {
  world = await createWorld()
  await writeTree(world.root, {
    'delta/manifest.json': {
      id: 'delta',
      name: 'Delta',
      domains: ['delta.test'],
      browserTools: { any_title: title('Any page.'), repo_title: title('Repository pages.', ['/:owner/:repo']) },
    },
    'delta/browser-tools/title.js': 'async function () {\n  return document.title\n}\n',
  })
  mcp = await stdioClient(['--tools', 'page', ...worldArgs(world)])
})

afterAll(async () => {
  await mcp?.client.close()
  await world?.close()
})

const call = (name: string, args: Record<string, unknown> = {}) =>
  mcp.client.callTool({ name, arguments: args }) as Promise<CallToolResult>
const siteTools = async () =>
  (await mcp.client.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith('delta__'))

describe('site-skills mcp --tools page: urls', () => {
  it('lists a scoped tool only on its paths, and refuses it elsewhere with url-mismatch', async () => {
    await call('site_skills_navigate', { url: `${world.url('delta.test')}acme/lib` })
    await expect.poll(siteTools, { timeout: 10_000 }).toEqual(['delta__any_title', 'delta__repo_title'])
    expect((await call('delta__repo_title')).structuredContent).toEqual({ result: '/acme/lib' })
    await call('site_skills_navigate', { url: world.url('delta.test') })
    await expect.poll(siteTools, { timeout: 10_000 }).toEqual(['delta__any_title'])
    const refused = await call('delta__repo_title')
    expect(refused.isError).toBe(true)
    expect(refused._meta?.['site-skills/error']).toMatchObject({ code: 'url-mismatch', siteId: 'delta' })
    expect((await call('delta__any_title')).structuredContent).toEqual({ result: 'delta page' })
  })
})

import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { navigate } from '../helpers/browser'
import { ALPHA_ICON, createWorld, stdioClient, worldArgs, type World } from './harness'

let world: World
const PAGE_OWN = ['site_skills_active_tab', 'site_skills_tabs', 'site_skills_switch_tab', 'site_skills_navigate']
const SITE = ['alpha__where', 'alpha__hang', 'alpha__fails', 'alpha__read_title', 'alpha__boom', 'beta__heading']

type Client = Awaited<ReturnType<typeof stdioClient>>
const open: Client[] = []
async function start(...args: string[]): Promise<Client> {
  const client = await stdioClient([...args, ...worldArgs(world)])
  open.push(client)
  return client
}
const listed = async (mcp: Client) => (await mcp.client.listTools()).tools
const call = (mcp: Client, name: string, args: Record<string, unknown> = {}) =>
  mcp.client.callTool({ name, arguments: args }) as Promise<CallToolResult>
const errorOf = (result: CallToolResult) => result._meta?.['site-skills/error'] as Record<string, unknown>

beforeAll(async () => {
  world = await createWorld()
})

afterAll(async () => {
  await Promise.all(open.map((mcp) => mcp.client.close()))
  await world?.close()
})

describe('site-skills mcp: the default mode (few tools: --tools all)', () => {
  it('lists every served tool in a fixed order, the same on every list and after a restart', async () => {
    const first = await start()
    const tools = await listed(first)
    expect(tools.map((t) => t.name)).toEqual([...PAGE_OWN, ...SITE])
    expect(first.stderr()).toMatch(
      /serving 6 site tools as --tools all: the all list is [\d,]+ tokens, the budget 4,000/,
    )
    const again = await listed(first)
    expect(JSON.stringify(again)).toBe(JSON.stringify(tools))
    await first.client.close()
    const restarted = await start()
    expect(JSON.stringify(await listed(restarted))).toBe(JSON.stringify(tools))
  })

  it('does not change the list, nor notify, when the client navigates or a tab opens (--tools page does)', async () => {
    const mcp = await start()
    const paged = await start('--tools', 'page')
    const before = JSON.stringify(await listed(mcp))
    const opened = await call(mcp, 'site_skills_navigate', { url: world.url('alpha.test') })
    expect(opened.isError, JSON.stringify(opened.content)).toBeFalsy()
    await call(mcp, 'site_skills_navigate', { url: world.url('beta.test') })
    // A tab opened in the browser: the page-mode server follows it and says so; the default one stays.
    const followed = paged.nextToolsChange()
    const page = await world.browser.newPage(world.url('alpha.test'))
    await followed
    await navigate(page.client, world.url('other.test'))
    await call(mcp, 'site_skills_switch_tab', { url: 'other.test' })
    expect(JSON.stringify(await listed(mcp))).toBe(before)
    expect(mcp.toolChanges()).toBe(0)
    expect(mcp.resourceChanges()).toBe(0)
    await page.close()
  })

  it('runs a page tool in its tab, takes `tab`, and refuses a tool whose skill the tab is not', async () => {
    const mcp = await start()
    await call(mcp, 'site_skills_navigate', { url: world.url('beta.test') })
    const guarded = await call(mcp, 'alpha__read_title', { prefix: '' })
    expect(errorOf(guarded)).toMatchObject({ code: 'domain-mismatch', siteId: 'alpha' })
    expect((await call(mcp, 'beta__heading')).structuredContent).toEqual({ result: 'beta heading' })
    const tabs = (await call(mcp, 'site_skills_tabs')).structuredContent as {
      active: string
      tabs: { id: string; url: string; skills: string[] }[]
    }
    const beta = tabs.tabs.find((t) => t.id === tabs.active)!
    expect(beta).toMatchObject({ url: world.url('beta.test'), skills: ['beta'] })
    expect(beta.id).toMatch(/^tab-[\w-]{12}$/)
    expect((await call(mcp, 'beta__heading', { tab: beta.id })).structuredContent).toEqual({ result: 'beta heading' })
    expect(errorOf(await call(mcp, 'beta__heading', { tab: 'tab-nope' })).code).toBe('target-not-found')
  })

  it('lists the annotations of the manifest, the titles and the skill icon', async () => {
    const tools = await listed(await start())
    const read = tools.find((t) => t.name === 'alpha__read_title')!
    // The title once: as the tool's title, not again in its annotations.
    expect(read.title).toBe('Read the title')
    expect(read.annotations).toEqual({ readOnlyHint: true, openWorldHint: false })
    expect(read.icons).toEqual([
      {
        src: `data:image/svg+xml;base64,${Buffer.from(ALPHA_ICON).toString('base64')}`,
        mimeType: 'image/svg+xml',
        sizes: ['any'],
      },
    ])
    expect(tools.find((t) => t.name === 'beta__heading')!.icons).toBeUndefined()
    for (const own of tools.filter((t) => PAGE_OWN.includes(t.name)))
      expect(own.annotations?.readOnlyHint, own.name).toBeTypeOf('boolean')
    expect(read.inputSchema.properties).toHaveProperty('tab')
  })

  it('links the notes of the skills of the page in the result of site_skills_navigate', async () => {
    const mcp = await start()
    const opened = await call(mcp, 'site_skills_navigate', { url: world.url('alpha.test') })
    expect(opened.content).toContainEqual({
      type: 'resource_link',
      uri: 'site-skills://alpha/notes/guide.md',
      name: 'alpha/notes/guide.md',
      title: 'Alpha: notes/guide.md',
      mimeType: 'text/markdown',
    })
    const note = await mcp.client.readResource({ uri: 'site-skills://alpha/notes/guide.md' })
    expect(note.contents[0]).toMatchObject({ text: expect.stringContaining('Alpha guide') })
  })
})

describe('site-skills mcp --tools page', () => {
  it('changes the list when the client navigates, and notifies', async () => {
    const mcp = await start('--tools', 'page')
    await call(mcp, 'site_skills_navigate', { url: world.url('alpha.test') })
    await expect
      .poll(async () => (await listed(mcp)).map((t) => t.name), { timeout: 10_000, message: 'alpha tools' })
      .toContain('alpha__read_title')
    const changed = mcp.nextToolsChange()
    await call(mcp, 'site_skills_navigate', { url: world.url('beta.test') })
    await changed
    expect((await listed(mcp)).map((t) => t.name)).toEqual([...PAGE_OWN, 'beta__heading'])
  })
})

describe('site-skills mcp --tools search', () => {
  it('lists a fixed set; find_tools gives what --tools page lists for the tab; call runs it the same way', async () => {
    const search = await start('--tools', 'search')
    const page = await start('--tools', 'page')
    const names = (await listed(search)).map((t) => t.name)
    expect(names).toEqual([...PAGE_OWN, 'site_skills_find_tools', 'site_skills_call'])
    await call(search, 'site_skills_navigate', { url: world.url('alpha.test') })
    await call(page, 'site_skills_navigate', { url: world.url('alpha.test') })
    await expect
      .poll(async () => (await listed(page)).length, { timeout: 10_000, message: 'the page tools' })
      .toBeGreaterThan(PAGE_OWN.length)
    const found = await call(search, 'site_skills_find_tools')
    const { tools, tab } = found.structuredContent as { tools: Tool[]; tab: { url: string } }
    expect(tab.url).toBe(world.url('alpha.test'))
    const pageTools = (await listed(page)).filter((t) => !PAGE_OWN.includes(t.name))
    expect(tools).toEqual(pageTools)
    expect(found.content).toContainEqual(
      expect.objectContaining({ type: 'resource_link', name: 'alpha/notes/guide.md' }),
    )
    const narrowed = await call(search, 'site_skills_find_tools', { query: 'page TITLE' })
    expect((narrowed.structuredContent as { tools: Tool[] }).tools.map((t) => t.name)).toEqual(['alpha__read_title'])

    const run = (name: string, args: Record<string, unknown>) =>
      call(search, 'site_skills_call', { name, arguments: args })
    expect((await run('alpha__read_title', { prefix: '> ' })).structuredContent).toEqual({ title: '> alpha page' })
    expect(errorOf(await run('alpha__read_title', { prefix: 3 }))).toMatchObject({ code: 'invalid-args' })
    expect(errorOf(await run('alpha__boom', {}))).toMatchObject({ code: 'tool-threw', line: 3 })
    expect(errorOf(await run('beta__heading', {}))).toMatchObject({ code: 'domain-mismatch', siteId: 'beta' })
    expect(errorOf(await run('gamma__secret', {})).code).toBe('tool-not-found')
    const tabs = (await call(search, 'site_skills_tabs')).structuredContent as { active: string }
    const inTab = await call(search, 'site_skills_call', { name: 'alpha__where', arguments: {}, tab: tabs.active })
    expect(inTab.structuredContent).toMatchObject({ url: world.url('alpha.test') })
  })
})

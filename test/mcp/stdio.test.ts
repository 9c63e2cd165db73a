import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LaunchedPage } from '../../runtime/launch'
import { navigate } from '../helpers/browser'
import { createWorld, stdioClient, type World, worldArgs } from './harness'

let world: World
let mcp: Awaited<ReturnType<typeof stdioClient>>
let page: LaunchedPage
const OWN = ['site_skills_active_tab', 'site_skills_tabs', 'site_skills_switch_tab', 'site_skills_navigate']

const names = async () => (await mcp.client.listTools()).tools.map((t) => t.name)
const call = (name: string, args: Record<string, unknown> = {}) =>
  mcp.client.callTool({ name, arguments: args }) as Promise<CallToolResult>
const errorOf = (result: CallToolResult) => result._meta?.['site-skills/error'] as Record<string, unknown>

beforeAll(async () => {
  world = await createWorld()
  mcp = await stdioClient(['--tools', 'page', ...worldArgs(world)])
  // A tab opened after the server started becomes the active one.
  const changed = mcp.nextToolsChange()
  page = await world.browser.newPage(world.url('alpha.test'))
  await changed.catch((error: Error) => {
    throw new Error(`${error.message}; the server's stderr:\n${mcp.stderr()}`)
  })
})

afterAll(async () => {
  await mcp?.client.close()
  await world?.close()
})

describe('site-skills mcp --tools page over stdio', () => {
  it('lists the tools of the skills matching the active tab, typed and annotated; a denied skill never', async () => {
    const { tools } = await mcp.client.listTools()
    expect(tools.map((t) => t.name)).toEqual([
      ...OWN,
      'alpha__where',
      'alpha__hang',
      'alpha__fails',
      'alpha__read_title',
      'alpha__boom',
    ])
    const read = tools.find((t) => t.name === 'alpha__read_title')!
    expect(read.title).toBe('Read the title')
    expect(read.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false })
    expect(read.inputSchema).toMatchObject({ type: 'object', required: ['prefix'] })
    expect(read.outputSchema).toMatchObject({ type: 'object', properties: { title: { type: 'string' } } })
    // No title made up from the name, no empty required, and short arguments shared by every tool.
    const where = tools.find((t) => t.name === 'alpha__where')!
    expect(where.title).toBeUndefined()
    expect(where.annotations).toBeUndefined()
    expect(where.inputSchema).not.toHaveProperty('required')
    expect(where.inputSchema.properties).toMatchObject({
      tab: { type: 'string', description: 'A site_skills_tabs id; default: your active tab.' },
      cursor: { type: 'string', description: 'pageInfo.cursor of the last page.' },
    })
  })

  it('runs a browser tool in the page and a Node tool with the tab in ctx, as structuredContent plus text', async () => {
    const read = await call('alpha__read_title', { prefix: '> ' })
    expect(read.isError).toBeFalsy()
    expect(read.structuredContent).toEqual({ title: '> alpha page' })
    expect((read.content[0] as { text: string }).text).toBe('title:> alpha page')
    const where = await call('alpha__where', { tag: 'x' })
    expect(where.structuredContent).toEqual({ url: world.url('alpha.test'), tag: 'x' })
  })

  it('reports a bad argument and a throwing tool as isError with the code and the file:line', async () => {
    const bad = await call('alpha__read_title', { prefix: 3 })
    expect(bad.isError).toBe(true)
    expect(errorOf(bad)).toMatchObject({ code: 'invalid-args', siteId: 'alpha', tool: 'read_title' })
    expect((bad.content[0] as { text: string }).text).toMatch(/argument "prefix" must be a string/)
    const missing = await call('alpha__read_title', {})
    expect(errorOf(missing).code).toBe('invalid-args')
    const boom = await call('alpha__boom')
    expect(errorOf(boom)).toMatchObject({ code: 'tool-threw', file: 'alpha/browser-tools/boom.js', line: 3 })
    const fails = await call('alpha__fails')
    expect(errorOf(fails)).toMatchObject({ code: 'tool-threw', file: 'alpha/tools/fails.js', line: 2 })
    expect((fails.content[0] as { text: string }).text).toMatch(/node tool failed \(alpha\/tools\/fails\.js:2:\d+\)/)
    // A denied skill's tool is unknown even on its own page.
    expect(errorOf(await call('gamma__secret')).code).toBe('tool-not-found')
  })

  it("checks its own tools' arguments against their schemas, in the schema's order, naming the bad one", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['site_skills_navigate', {}, 'argument "url" must be a string'],
      ['site_skills_navigate', { url: '' }, 'argument "url" must be a string'],
      ['site_skills_navigate', { url: '', tab: 3 }, 'argument "url" must be a string'],
      ['site_skills_navigate', { url: 'x', tab: 3 }, 'argument "tab" must be a string'],
      ['site_skills_switch_tab', { tab: 1, url: 2 }, 'argument "tab" must be a string'],
      ['site_skills_switch_tab', { url: 2 }, 'argument "url" must be a string'],
      ['site_skills_switch_tab', { url: '' }, 'give the tab to switch to: "tab" (an id) or "url" (a part of its URL)'],
      ['site_skills_call', { arguments: 3 }, 'argument "name" must be a string'],
      ['site_skills_call', { name: 'x', arguments: [] }, 'argument "arguments" must be an object'],
      ['site_skills_call', { name: 'x', arguments: null }, 'argument "arguments" must be an object'],
      ['site_skills_call', { name: 'x', tab: 4 }, 'argument "tab" must be a string'],
    ]
    for (const [name, args, message] of cases) {
      const result = await call(name, args)
      expect(errorOf(result), `${name} ${JSON.stringify(args)}`).toEqual({ code: 'invalid-args' })
      expect((result.content[0] as { text: string }).text).toBe(`invalid-args: ${message}`)
    }
    // What a schema does not name is let through; site_skills_find_tools reads a bad `tab` as none.
    expect((await call('site_skills_tabs', { extra: 1 })).isError).toBeFalsy()
    expect((await call('site_skills_find_tools', { tab: 5, query: 7 })).isError).toBeFalsy()
  })

  it('offers the notes and the skill as an Agent Skill as resources, and the learned context as a prompt', async () => {
    const { resources } = await mcp.client.listResources()
    expect(resources.map((r) => r.uri)).toEqual([
      'site-skills://alpha/notes/guide.md',
      'site-skills://problems',
      'skill://alpha/SKILL.md',
    ])
    const note = await mcp.client.readResource({ uri: 'site-skills://alpha/notes/guide.md' })
    expect(note.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringContaining('Alpha guide') })
    const prompt = await mcp.client.getPrompt({ name: 'site_context' })
    const text = (prompt.messages[0]!.content as { text: string }).text
    expect(text).toContain('Site skill: Alpha (alpha)')
    expect(text).toContain('The title lives in document.title.')
    expect(text).toContain('`alpha__read_title`(prefix)')
  })

  it('follows a navigation to another skill with list_changed, and refuses the old tools there', async () => {
    const started = performance.now()
    const changed = mcp.nextToolsChange()
    await navigate(page.client, world.url('beta.test'))
    const ms = Math.round((await changed) - started)
    console.log(`navigation -> tools/list_changed: ${ms} ms`)
    expect(await names()).toEqual([...OWN, 'beta__heading'])
    expect((await call('beta__heading')).structuredContent).toEqual({ result: 'beta heading' })
    const guarded = await call('alpha__read_title', { prefix: '' })
    expect(errorOf(guarded)).toMatchObject({ code: 'domain-mismatch', siteId: 'alpha' })
    expect(errorOf(await call('alpha__where')).code).toBe('domain-mismatch')
  })

  it('offers only its own tools on a page of no skill (fail closed)', async () => {
    const changed = mcp.nextToolsChange()
    await navigate(page.client, world.url('other.test'))
    await changed
    expect(await names()).toEqual(OWN)
    expect((await mcp.client.listResources()).resources.map((r) => r.uri)).toEqual(['site-skills://problems'])
    const state = await call('site_skills_active_tab')
    expect(state.structuredContent).toMatchObject({ tab: { url: world.url('other.test') }, skills: [] })
  })

  it('navigates and switches tabs with its own tools', async () => {
    const opened = await call('site_skills_navigate', { url: world.url('alpha.test') })
    expect(opened.structuredContent).toMatchObject({ skills: [{ id: 'alpha' }] })
    expect(await names()).toContain('alpha__read_title')
    const missing = await call('site_skills_switch_tab', { url: 'nowhere.test' })
    expect(errorOf(missing).code).toBe('target-not-found')
    const switched = await call('site_skills_switch_tab', { url: 'alpha.test' })
    expect(switched.structuredContent).toMatchObject({ tab: { url: world.url('alpha.test') } })
  })

  it('opens only http and https URLs: file:, chrome:, data: and javascript: are refused (issue 24.17)', async () => {
    const opened = await call('site_skills_navigate', { url: world.url('alpha.test') })
    expect(opened.isError).toBeFalsy()
    const refused = [
      'file:///etc/passwd',
      'chrome://version',
      'data:text/html,<h1>x</h1>',
      'javascript:alert(1)',
      'alpha.test',
    ]
    for (const url of refused) {
      const result = await call('site_skills_navigate', { url })
      expect(result.isError, url).toBe(true)
      expect(errorOf(result).code, url).toBe('invalid-args')
      expect((result.content as { text: string }[])[0]!.text, url).toMatch(/http\(s\) URL|only http and https/)
    }
    const state = await call('site_skills_active_tab')
    expect(state.structuredContent).toMatchObject({ tab: { url: world.url('alpha.test') } })
  })

  it('follows edits of a skill on disk, and keeps the last good version of an invalid one', async () => {
    const file = join(world.root, 'alpha/manifest.json')
    const original = await readFile(file, 'utf8')
    const manifest = JSON.parse(original)
    manifest.browserTools.read_title.description = 'Reads the title, edited.'
    let changed = mcp.nextToolsChange()
    await writeFile(file, JSON.stringify(manifest))
    await changed
    const described = async () =>
      (await mcp.client.listTools()).tools.find((t) => t.name === 'alpha__read_title')?.description
    expect(await described()).toBe('Reads the title, edited.')

    await writeFile(file, '{ "id": "alpha", ')
    await expect
      .poll(() => mcp.stderr(), { timeout: 10_000, message: 'the invalid edit report' })
      .toContain('kept the last good version of alpha')
    expect(mcp.stderr()).toMatch(/invalid skill: alpha\/manifest\.json:\d+:\d+ manifest-parse/)
    expect(await described()).toBe('Reads the title, edited.')
    expect((await call('alpha__read_title', { prefix: '' })).structuredContent).toEqual({ title: 'alpha page' })
    const problems = await mcp.client.readResource({ uri: 'site-skills://problems' })
    expect(JSON.parse((problems.contents[0] as { text: string }).text)).toMatchObject({
      kept: ['alpha'],
      errors: [{ code: 'manifest-parse', file: 'alpha/manifest.json' }],
    })

    changed = mcp.nextToolsChange()
    await writeFile(file, original)
    await changed
    expect(await described()).toBe('Reads the page title.')
  })
})

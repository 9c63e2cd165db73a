import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/client'
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Exited } from '../helpers/spawn'
import { makeTempDir } from '../helpers/tmp'
import { connectClient, createWorld, stdioClient, type Watched, type World, worldArgs } from './harness'
import { callTool, errorOf, httpServer, modernHttp, modernStdio } from './modern'

let world: World
const closing: { close: () => Promise<void> }[] = []
const SITE = ['alpha__where', 'alpha__hang', 'alpha__fails', 'alpha__read_title', 'alpha__boom', 'beta__heading']
const OWN_2026 = ['site_skills_active_tab', 'site_skills_tabs', 'site_skills_navigate']

const tabsOf = async (client: Client) =>
  ((await callTool(client, 'site_skills_tabs')).structuredContent as { tabs: { id: string; url: string }[] }).tabs

/** Opens `url` in a new tab for a 2026-07-28 client: the id the server returns for it. */
async function openTab(client: Client, url: string): Promise<string> {
  const opened = await callTool(client, 'site_skills_navigate', { url })
  expect(opened.isError, JSON.stringify(opened.content)).toBeFalsy()
  return (opened.structuredContent as { tab: { id: string } }).tab.id
}

beforeAll(async () => {
  world = await createWorld()
})

afterAll(async () => {
  for (const c of closing) await c.close().catch(() => undefined)
  await world?.close()
})

describe('site-skills mcp over stdio, to a client of the revision 2026-07-28', () => {
  let client: Client
  beforeAll(async () => {
    ;({ client } = await modernStdio(worldArgs(world)))
    closing.push(client)
  })

  it('speaks 2026-07-28 without initialize, and lists what a 2025 session lists, in the same order', async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
    expect(client.getProtocolEra()).toBe('modern')
    const listed = await client.listTools()
    expect(listed.tools.map((t) => t.name)).toEqual([...OWN_2026, ...SITE])
    expect(listed).toMatchObject({ ttlMs: 5000, cacheScope: 'private' })
    const legacy = await stdioClient(worldArgs(world))
    closing.push(legacy.client)
    const old = (await legacy.client.listTools()).tools
    // The same definitions; only site_skills_switch_tab is left out: no tab is active under 2026-07-28.
    expect(JSON.stringify(old.filter((t) => t.name !== 'site_skills_switch_tab'))).toBe(JSON.stringify(listed.tools))
  })

  it('names tabs by handle: a navigation without `tab` opens a new one, and no call moves another', async () => {
    const alpha = await openTab(client, world.url('alpha.test'))
    const beta = await openTab(client, world.url('beta.test'))
    expect(beta).not.toBe(alpha)
    expect((await callTool(client, 'alpha__read_title', { prefix: '> ', tab: alpha })).structuredContent).toEqual({
      title: '> alpha page',
    })
    expect((await callTool(client, 'beta__heading', { tab: beta })).structuredContent).toEqual({
      result: 'beta heading',
    })
    const where = await callTool(client, 'alpha__where', { tag: 'x', tab: alpha })
    expect(where.structuredContent).toEqual({ url: world.url('alpha.test'), tag: 'x' })
    expect((await tabsOf(client)).map((t) => t.id)).toEqual(expect.arrayContaining([alpha, beta]))
    const switched = await callTool(client, 'site_skills_switch_tab', { tab: alpha })
    expect(errorOf(switched).code).toBe('invalid-args')
  })

  it('serves each skill as an Agent Skill (SEP-2640) whose files match their digests', async () => {
    const skills = new SkillsClient(client)
    expect(skills.supported).toBe(true)
    const { skills: listed } = await skills.list()
    expect(listed.map((s) => s.uri)).toEqual(['skill://alpha/SKILL.md', 'skill://beta/SKILL.md'])
    // The SDK's client checks the size, the digest and the frontmatter of what it reads.
    const manual = await skills.read(listed[0]!)
    expect(manual.verified).toBe(true)
    expect(manual.text).toContain('name: alpha')
    const guide = await skills.read(listed[0]!, 'skill://alpha/assets/learnings/alpha/notes/guide.md')
    expect(guide.text).toContain('# Alpha guide')
    const root = await skills.readDirectory('skill://alpha')
    expect(root.resources).toContainEqual(
      expect.objectContaining({ uri: 'skill://alpha/references', mimeType: 'inode/directory' }),
    )
  })
})

describe('site-skills mcp --http, to clients of 2026-07-28 and 2025 at once', () => {
  let url = ''
  let child: ChildProcess
  let exited: Promise<Exited>
  beforeAll(async () => {
    ;({ url, child, exited } = await httpServer(worldArgs(world)))
  })
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL')
  })
  const legacy = async (): Promise<Watched> => {
    const mcp = await connectClient(new StreamableHTTPClientTransport(new URL(url)))
    closing.push(mcp.client)
    return mcp
  }
  const modern = async () => {
    const client = await modernHttp(url)
    closing.push(client)
    return client
  }

  it('answers both eras on one endpoint, from one definition of the tools', async () => {
    const [now, old] = [await modern(), await legacy()]
    expect(now.getProtocolEra()).toBe('modern')
    const tools = (await now.listTools()).tools
    const before = (await old.client.listTools()).tools.filter((t) => t.name !== 'site_skills_switch_tab')
    expect(JSON.stringify(tools)).toBe(JSON.stringify(before))
  })

  it('reaches a tab opened for a request only by its id; a call without `tab` is refused', async () => {
    const [a, b] = [await modern(), await modern()]
    const mine = await openTab(a, `${world.url('alpha.test')}?client=a`)
    expect((await callTool(a, 'alpha__read_title', { prefix: '', tab: mine })).structuredContent).toEqual({
      title: 'alpha page',
    })
    // Requests carry no identity: the tab is never listed, to this client or another, nor to a session.
    const old = await legacy()
    const seen = [...(await tabsOf(a)), ...(await tabsOf(b))].map((t) => t.url)
    const oldSeen = (
      (await old.client.callTool({ name: 'site_skills_tabs', arguments: {} })).structuredContent as {
        tabs: { url: string }[]
      }
    ).tabs.map((t) => t.url)
    expect([...seen, ...oldSeen]).not.toContain(`${world.url('alpha.test')}?client=a`)
    const none = await callTool(b, 'alpha__read_title', { prefix: '' })
    expect(errorOf(none).code).toBe('target-not-found')
    expect((none.content[0] as { text: string }).text).toMatch(/no tab is active under MCP 2026-07-28: pass `tab`/)
  })

  it('keeps at most 32 tabs opened for requests: one more closes the least recently named', async () => {
    const client = await modern()
    const first = await openTab(client, `${world.url('beta.test')}?n=0`)
    const kept = await openTab(client, `${world.url('beta.test')}?n=1`)
    for (let n = 2; n < 32; n++) await openTab(client, `${world.url('beta.test')}?n=${n}`)
    // Named again: the least recently named is now the first.
    expect((await callTool(client, 'beta__heading', { tab: kept })).isError).toBeFalsy()
    const next = await openTab(client, `${world.url('beta.test')}?n=32`)
    expect((await callTool(client, 'beta__heading', { tab: next })).structuredContent).toEqual({
      result: 'beta heading',
    })
    expect(errorOf(await callTool(client, 'beta__heading', { tab: first })).code).toBe('target-not-found')
    expect((await callTool(client, 'beta__heading', { tab: kept })).isError).toBeFalsy()
  })

  it('cancels a call whose client gave up: the tool sees ctx.signal abort', async () => {
    const { dir, cleanup } = await makeTempDir('mcp-2026-hang-')
    const marker = join(dir, 'call')
    const client = await modern()
    const tab = await openTab(client, world.url('alpha.test'))
    const stop = new AbortController()
    const pending = client
      .callTool({ name: 'alpha__hang', arguments: { marker, tab } }, { signal: stop.signal })
      .catch((error: Error) => error)
    await expect.poll(() => existsSync(`${marker}.started`), { timeout: 10_000 }).toBe(true)
    stop.abort()
    expect(await pending).toBeInstanceOf(Error)
    await expect.poll(() => existsSync(`${marker}.aborted`), { timeout: 10_000 }).toBe(true)
    await cleanup()
  })

  it('tells a listening client when a skill changes on disk (subscriptions/listen)', async () => {
    const client = await modern()
    let changes = 0
    client.setNotificationHandler('notifications/tools/list_changed', () => void changes++)
    const subscription = await client.listen({ toolsListChanged: true })
    const manifest = join(world.root, 'beta/manifest.json')
    const before = await readFile(manifest, 'utf8')
    await writeFile(manifest, before.replace('Reads the h1.', 'Reads the first heading.'))
    await expect.poll(() => changes, { timeout: 15_000, message: 'a tools/list_changed on the stream' }).toBe(1)
    const beta = (await client.listTools()).tools.find((t) => t.name === 'beta__heading')!
    expect(beta.description).toContain('Reads the first heading.')
    await subscription.close()
    await writeFile(manifest, before)
  })

  it('exits on SIGTERM', async () => {
    child.kill('SIGTERM')
    expect((await exited).code).toBe(0)
  })
})

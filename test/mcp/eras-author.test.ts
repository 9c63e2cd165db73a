import type { ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AuthorWorld, PAGE_TITLE, authorArgs, createAuthorWorld } from './author-world'
import { createWorld, type World, worldArgs } from './harness'
import { callTool, httpServer, modernHttp, modernStdio } from './modern'

const SITE = 'corner-shop-test'
const closing: { close: () => Promise<void> }[] = []

afterAll(async () => {
  for (const c of closing) await c.close().catch(() => undefined)
})

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text

describe('authoring over HTTP, for a client of the revision 2026-07-28', () => {
  let world: AuthorWorld
  let child: ChildProcess
  let client: Client
  beforeAll(async () => {
    world = await createAuthorWorld()
    let url: string
    ;({ url, child } = await httpServer(['--allow-write', world.dir, ...authorArgs(world)]))
    client = await modernHttp(url)
    closing.push(client)
  })
  afterAll(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL')
    await world?.close()
  })

  it('snapshots the tab it names, writes a tool tested on it, and serves the tool at once', async () => {
    const opened = await callTool(client, 'site_skills_navigate', { url: world.url('corner-shop.test') })
    const tab = (opened.structuredContent as { tab: { id: string } }).tab.id
    const snapped = await callTool(client, 'site_skills_snapshot', { name: 'home', tab })
    expect(snapped.isError, textOf(snapped)).toBeFalsy()
    const kept = await callTool(client, 'site_skills_write_tool', {
      ...PAGE_TITLE,
      tab,
    })
    const reply = kept.structuredContent as { kept: boolean; runs: { on: string; status: string }[] }
    expect(reply.kept, textOf(kept)).toBe(true)
    expect(reply.runs.map((r) => [r.on, r.status])).toEqual([
      ['fixture', 'pass'],
      ['live', 'pass'],
    ])
    const manifest = JSON.parse(await readFile(join(world.dir, SITE, 'manifest.json'), 'utf8'))
    expect(manifest.browserTools.page_title.path).toBe('browser-tools/page-title.js')
    expect((await client.listTools()).tools.map((t) => t.name)).toContain(`${SITE}__page_title`)
    const ran = await callTool(client, `${SITE}__page_title`, { tab })
    expect(ran.structuredContent).toEqual({ title: 'Corner Shop' })
  })
})

describe('--tools page over stdio, for a client of the revision 2026-07-28', () => {
  let world: World
  beforeAll(async () => {
    world = await createWorld()
  })
  afterAll(async () => {
    await world?.close()
  })

  it('lists the tools of the tab the server follows, and tells a listening client when it changes', async () => {
    const { client } = await modernStdio(['--tools', 'page', ...worldArgs(world)])
    closing.push(client)
    const names = async () => (await client.listTools()).tools.map((t) => t.name)
    expect(await names()).toEqual(['site_skills_active_tab', 'site_skills_tabs', 'site_skills_navigate'])
    let changes = 0
    client.setNotificationHandler('notifications/tools/list_changed', () => void changes++)
    const subscription = await client.listen({ toolsListChanged: true })
    // A tab opened in the browser (not by a request) is the one the server follows.
    const page = await world.browser.newPage(world.url('beta.test'))
    await expect
      .poll(() => changes, { timeout: 15_000, message: 'a tools/list_changed on the stream' })
      .toBeGreaterThan(0)
    await expect.poll(names, { timeout: 15_000 }).toContain('beta__heading')
    expect((await callTool(client, 'beta__heading')).structuredContent).toEqual({ result: 'beta heading' })
    await subscription.close()
    await page.close()
  })
})

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWorld, stdioClient, type Watched, type World, worldArgs } from './harness'

/*
 * The browser of `--cdp` goes away while the server runs (issue 40.3): its tabs are dropped from
 * what the server shows, and a call says `browser-disconnected` instead of failing to connect.
 */
let world: World
let mcp: Watched & { stderr: () => string }

const call = (name: string, args: Record<string, unknown> = {}) =>
  mcp.client.callTool({ name, arguments: args }) as Promise<CallToolResult>
const codeOf = (result: CallToolResult) => (result._meta?.['site-skills/error'] as { code?: string } | undefined)?.code

beforeAll(async () => {
  world = await createWorld()
  await world.browser.newPage(world.url('alpha.test'))
  // Two quick attempts to reconnect (the default tries for about 16 s), then the browser is gone.
  mcp = await stdioClient(['--tools', 'all', ...worldArgs(world)], { SITE_SKILLS_RECONNECT_WAITS_MS: '100,100' })
})

afterAll(async () => {
  await mcp?.client.close()
  await world?.close()
})

describe('site-skills mcp after its --cdp browser is gone', () => {
  it('drops the tabs and says browser-disconnected on every page call', async () => {
    await call('site_skills_switch_tab', { url: world.url('alpha.test') })
    expect((await call('alpha__read_title', { prefix: '' })).structuredContent).toEqual({ title: 'alpha page' })
    await world.browser.close()
    await expect
      .poll(async () => codeOf(await call('alpha__read_title', { prefix: '' })), { timeout: 10_000 })
      .toBe('browser-disconnected')
    const failed = await call('alpha__read_title', { prefix: '' })
    expect((failed.content as { text: string }[])[0]!.text).toMatch(
      /^browser-disconnected: the browser at 127\.0\.0\.1:\d+ closed its connection/,
    )
    expect(codeOf(await call('alpha__where'))).toBe('browser-disconnected')
    expect(codeOf(await call('site_skills_navigate', { url: world.url('alpha.test') }))).toBe('browser-disconnected')
    expect((await call('site_skills_tabs')).structuredContent).toEqual({ active: null, tabs: [] })
  })
})

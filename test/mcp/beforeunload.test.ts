import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeTree } from '../helpers/tmp'
import { createWorld, stdioClient, type World, worldArgs } from './harness'

// site_skills_navigate over stdio, from a page that asks "leave this page?" (a beforeunload
// handler, armed by a tool call: the call's user gesture lets the page ask).
let world: World
let mcp: Awaited<ReturnType<typeof stdioClient>>

beforeAll(async () => {
  world = await createWorld()
  await writeTree(world.root, {
    'trap/manifest.json': {
      id: 'trap',
      name: 'Trap',
      domains: ['trap.test'],
      browserTools: {
        arm: {
          description: 'Asks before the page is left.',
          path: 'browser-tools/arm.js',
          args: {},
          returns: { type: 'string', description: 'Text.' },
        },
      },
    },
    'trap/browser-tools/arm.js': [
      'async function () {',
      '  window.addEventListener("beforeunload", (event) => { event.preventDefault(); event.returnValue = "stay" })',
      '  return "armed"',
      '}',
      '',
    ].join('\n'),
  })
  mcp = await stdioClient(['--tools', 'all', ...worldArgs(world)])
})

afterAll(async () => {
  await mcp?.client.close()
  await world?.close()
})

const call = (name: string, args: Record<string, unknown> = {}) =>
  mcp.client.callTool({ name, arguments: args }) as Promise<CallToolResult>

describe('site_skills_navigate from a page with a beforeunload handler', () => {
  it('leaves the page anyway and opens the new one', async () => {
    await call('site_skills_navigate', { url: world.url('trap.test') })
    expect((await call('trap__arm')).structuredContent).toEqual({ result: 'armed' })
    // Before, the navigation waited for an answer to "leave this page?" until its timeout.
    const moved = await call('site_skills_navigate', { url: world.url('beta.test') }).catch((error: unknown) => {
      throw new Error(`${String(error)}; the server's stderr: ${mcp.stderr()}`)
    })
    expect(moved.isError, JSON.stringify(moved.content)).toBeFalsy()
    expect(JSON.stringify(moved.structuredContent)).toContain('beta.test')
    expect((await call('beta__heading')).structuredContent).toEqual({ result: 'beta heading' })
  })
})

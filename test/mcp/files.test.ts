import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeTree } from '../helpers/tmp'
import { createWorld, stdioClient, type World } from './harness'

/*
 * Issue 24.2 on the MCP server's compile path: it compiles a browser tool when the tool is first
 * called (the no-build session), with the same bundler and the same guard.
 */
let world: World
let mcp: Awaited<ReturnType<typeof stdioClient>>

beforeAll(async () => {
  world = await createWorld()
  await writeTree(world.root, {
    'pipe/manifest.json': {
      id: 'pipe',
      name: 'Pipe',
      domains: ['pipe.test'],
      browserTools: {
        read: {
          description: 'Reads a file it imports.',
          path: 'browser-tools/read.js',
          args: {},
          returns: { type: 'object', description: 'The data.' },
        },
      },
    },
    'pipe/browser-tools/read.js':
      'import data from "./data.txt"\nexport default async function () {\n  return { data }\n}\n',
  })
  execFileSync('mkfifo', [join(world.root, 'pipe/browser-tools/data.txt')])
  // page mode: the tab's tools are listed once it navigates (what this test waits for).
  mcp = await stdioClient([
    '--tools',
    'page',
    '--root',
    world.root,
    '--cdp',
    `127.0.0.1:${world.browser.port}`,
    '--allow',
    'pipe',
  ])
  const changed = mcp.nextToolsChange()
  await world.browser.newPage(world.url('pipe.test'))
  await changed.catch((error: Error) => {
    throw new Error(`${error.message}; the server's stderr:\n${mcp.stderr()}`)
  })
})

afterAll(async () => {
  await mcp?.client.close()
  await world?.close()
})

describe('site-skills mcp and the files a tool imports', () => {
  it('answers a call of a tool that imports a named pipe with the diagnostic, within seconds', async () => {
    const started = Date.now()
    const result = (await mcp.client.callTool({ name: 'pipe__read', arguments: {} }, undefined, {
      timeout: 30_000,
    })) as CallToolResult
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(result.isError).toBe(true)
    expect((result.content[0] as { text: string }).text).toContain(
      'pipe/browser-tools/read.js:1:18 "pipe/browser-tools/data.txt", imported by browser tool "read", is a named pipe (FIFO)',
    )
  })
})

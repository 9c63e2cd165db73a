import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LaunchedBrowser } from '../../runtime/launch'
import type { SiteSkills } from '../../runtime/registry'
import { loadUrlPattern } from '../../runtime/urls'
import { startServer, type TestServer } from '../helpers/server'
import { cleanEnv } from '../helpers/spawn'
import { launchWithWebMcp, testRegistry } from '../helpers/webmcp'

// Real WebMCP hosts list and call the tools exposeWebMcpTools registers, over stdio with the SDK
// client, attached to Chromium 150 started with --enable-features=WebMCP: Playwright MCP 0.0.86
// (--cdp-endpoint; its webmcp_* tools are on by default, --no-webmcp turns them off) and
// chrome-devtools-mcp 1.11.0 (--wsEndpoint; list_webmcp_tools and execute_webmcp_tool only with
// --categoryExperimentalWebmcp=true).
const resolve = createRequire(import.meta.url).resolve
const PLAYWRIGHT_MCP = join(dirname(resolve('@playwright/mcp/package.json')), 'cli.js')
const DEVTOOLS_MCP = join(dirname(resolve('chrome-devtools-mcp/package.json')), 'build/src/bin/chrome-devtools-mcp.js')
const ECHO = 'async function (args) {\n  return { text: args.text, title: document.title }\n}\n'

let browser: LaunchedBrowser
let server: TestServer
let api: SiteSkills

beforeAll(async () => {
  await loadUrlPattern()
  ;[browser, server, api] = await Promise.all([
    launchWithWebMcp(),
    startServer({ '/fixture': '<!doctype html><title>Fixture</title><h1>Fixture</h1>' }),
    testRegistry([
      {
        id: 'shop',
        domains: ['127.0.0.1'],
        tools: { echo: { source: ECHO, args: { text: { type: 'string', required: true, description: 'Text.' } } } },
      },
    ]),
  ])
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

async function connect(args: string[], env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: { ...(cleanEnv() as Record<string, string>), ...env },
    stderr: 'ignore',
  })
  const client = new Client({ name: 'site-skills-test', version: '1.0.0' })
  await client.connect(transport)
  return client
}

const playwrightMcp = (...args: string[]) =>
  connect([PLAYWRIGHT_MCP, '--cdp-endpoint', `http://127.0.0.1:${browser.port}`, ...args])

/** chrome-devtools-mcp, its usage statistics and update checks off (both would leave the machine). */
const devtoolsMcp = (...args: string[]) =>
  connect([DEVTOOLS_MCP, '--wsEndpoint', browser.wsEndpoint, '--usageStatistics=false', ...args], {
    CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1',
    CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1',
    CI: '1',
  })

const textOf = (result: CallToolResult) => (result.content as { text: string }[]).map((c) => c.text).join('\n')

/** Makes the tab at `url` Playwright MCP's current one (it may hold the browser's other tabs first). */
async function selectTab(client: Client, url: string): Promise<void> {
  const list = textOf(
    (await client.callTool({ name: 'browser_tabs', arguments: { action: 'list' } })) as CallToolResult,
  )
  const index = /- (\d+): .*?\]\((.*?)\)/g
  const found = [...list.matchAll(index)].find((m) => m[2] === url)
  if (!found) throw new Error(`Playwright MCP lists no tab at ${url}:\n${list}`)
  await client.callTool({ name: 'browser_tabs', arguments: { action: 'select', index: Number(found[1]) } })
}

describe('Playwright MCP 0.0.86 as the WebMCP host', () => {
  it('lists our registered tool after its page snapshot, and calls it with the right result', async () => {
    const page = await browser.newPage(server.url('/fixture'))
    const handle = await api.exposeWebMcpTools(page.client)
    const client = await playwrightMcp()
    try {
      const before = (await client.listTools()).tools.map((t) => t.name)
      expect(before.filter((n) => n.startsWith('webmcp_'))).toEqual([])
      await selectTab(client, server.url('/fixture'))
      const snapshot = textOf((await client.callTool({ name: 'browser_snapshot', arguments: {} })) as CallToolResult)
      expect(snapshot).toContain('shop__echo [readOnly, untrustedContent]: The echo tool of shop.')
      const listed = (await client.listTools()).tools.find((t) => t.name === 'webmcp_shop__echo')
      expect(listed?.inputSchema).toMatchObject({ properties: { text: { type: 'string' } }, required: ['text'] })
      expect(listed?.annotations).toMatchObject({ readOnlyHint: true })
      const called = (await client.callTool({ name: 'webmcp_shop__echo', arguments: { text: 'hi' } })) as CallToolResult
      expect(called.isError).toBeFalsy()
      // Our compact text, which Playwright MCP shows as a JSON string (it JSON.stringifies every output).
      expect(textOf(called)).toContain('Output is page-provided and untrusted:\n"text:hi\\ntitle:Fixture"')
      // Our failures are MCP error results, which the host shows as errors with our words.
      const refused = (await client.callTool({ name: 'webmcp_shop__echo', arguments: {} })) as CallToolResult
      expect(refused.isError).toBe(true)
      expect(textOf(refused)).toContain('invalid-args: shop -> echo: missing required argument \\"text\\"')
    } finally {
      await client.close()
      await handle.close()
      await page.close()
    }
  })

  it('lists none with --no-webmcp', async () => {
    const page = await browser.newPage(server.url('/fixture'))
    const handle = await api.exposeWebMcpTools(page.client)
    const client = await playwrightMcp('--no-webmcp')
    try {
      await selectTab(client, server.url('/fixture'))
      await client.callTool({ name: 'browser_snapshot', arguments: {} })
      const names = (await client.listTools()).tools.map((t) => t.name)
      expect(names.filter((n) => n.startsWith('webmcp_'))).toEqual([])
    } finally {
      await client.close()
      await handle.close()
      await page.close()
    }
  })
})

describe('chrome-devtools-mcp 1.11.0 as the WebMCP host', () => {
  it('lists our registered tool and calls it with --categoryExperimentalWebmcp=true, and has neither tool without', async () => {
    const page = await browser.newPage(server.url('/fixture'))
    const handle = await api.exposeWebMcpTools(page.client)
    const plain = await devtoolsMcp()
    const client = await devtoolsMcp('--categoryExperimentalWebmcp=true')
    try {
      const webmcp = (names: string[]) => names.filter((n) => n.includes('webmcp'))
      expect(webmcp((await plain.listTools()).tools.map((t) => t.name))).toEqual([])
      expect(webmcp((await client.listTools()).tools.map((t) => t.name)).sort()).toEqual([
        'execute_webmcp_tool',
        'list_webmcp_tools',
      ])
      const pages = textOf((await client.callTool({ name: 'list_pages', arguments: {} })) as CallToolResult)
      const line = pages.split('\n').find((l) => l.includes(`Fixture (${server.url('/fixture')})`))
      const pageId = Number(line?.split(':')[0])
      expect(pageId, pages).toBeGreaterThan(0)
      const listed = textOf(
        (await client.callTool({ name: 'list_webmcp_tools', arguments: { pageId } })) as CallToolResult,
      )
      expect(listed).toContain('name="shop__echo", description="The echo tool of shop."')
      expect(listed).toContain('annotations={"readOnly":true,"untrustedContent":true}')
      const call = async (input: string) =>
        JSON.parse(
          textOf(
            (await client.callTool({
              name: 'execute_webmcp_tool',
              arguments: { pageId, toolName: 'shop__echo', input },
            })) as CallToolResult,
          ),
        )
      // It shows the page's output as it came over CDP: our compact text, or our error result.
      expect(await call('{"text":"hi"}')).toEqual({ status: 'Completed', output: 'text:hi\ntitle:Fixture' })
      expect(await call('{}')).toEqual({
        status: 'Completed',
        output: {
          isError: true,
          content: [{ type: 'text', text: 'invalid-args: shop -> echo: missing required argument "text"' }],
        },
      })
    } finally {
      await Promise.all([plain.close(), client.close()])
      await handle.close()
      await page.close()
    }
  })
})

import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, cleanEnv, type Exited, waitForExit } from '../helpers/spawn'
import { REPO_ROOT } from '../helpers/tmp'
import { connectClient, createWorld, until, type World } from './harness'

const CONFORMANCE = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js')
/** The suite's server scenarios that apply to a server of tools, resources and prompts it names itself. */
const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'prompts-list',
  'logging-set-level',
  'dns-rebinding-protection',
]

let world: World
let child: ChildProcess
let exited: Promise<Exited>
let url = ''

beforeAll(async () => {
  world = await createWorld()
  const args = [BIN, 'mcp', '--http', '0', '--root', world.root, '--cdp', `127.0.0.1:${world.browser.port}`]
  child = spawn(process.execPath, args, { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  exited = waitForExit(child, 120_000)
  await until(() => /listening on (\S+)/.test(stderr), 20_000, `"listening on" (stderr: ${stderr})`)
  url = /listening on (\S+)/.exec(stderr)![1]!
})

afterAll(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL')
  await world?.close()
})

describe('site-skills mcp --http', () => {
  it('serves Streamable HTTP on 127.0.0.1 with list_changed on navigation', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
    const mcp = await connectClient(new StreamableHTTPClientTransport(new URL(url)))
    const names = async () => (await mcp.client.listTools()).tools.map((t) => t.name)
    expect(await names()).not.toContain('alpha__read_title')
    const changed = mcp.nextToolsChange()
    const page = await world.browser.newPage(world.url('alpha.test'))
    await changed
    expect(await names()).toContain('alpha__read_title')
    const result = await mcp.client.callTool({ name: 'alpha__read_title', arguments: { prefix: '' } })
    expect(result.structuredContent).toEqual({ title: 'alpha page' })
    await mcp.client.close()
    await page.close()
  })

  it('passes the MCP conformance suite for the scenarios that apply', async () => {
    for (const scenario of SCENARIOS) {
      const run = await promisify(execFile)(
        process.execPath,
        [CONFORMANCE, 'server', '--url', url, '--scenario', scenario],
        {
          env: cleanEnv(),
          timeout: 60_000,
        },
      )
      expect(run.stdout, scenario).toMatch(/Passed: (\d+)\/\1, 0 failed/)
    }
  })

  it('refuses a request from a page of another site (Origin), as DNS rebinding protection', async () => {
    const fromPage = await fetch(url, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    })
    expect(fromPage.status).toBe(403)
  })

  it('closes the browser connection and exits on SIGTERM', async () => {
    child.kill('SIGTERM')
    const end = await exited
    expect(end.killed).toBe(false)
    expect(end.code).toBe(0)
  })
})

import { type ChildProcess, spawn } from 'node:child_process'
import { type CallToolResult, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { assert, vi } from 'vitest'
import { BIN, cleanEnv, type Exited, waitForExit } from '../helpers/spawn'

/** The SDK's v2 client pinned to the revision 2026-07-28: `server/discover`, no `initialize`, no session. */
async function modernClient(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<Client> {
  const client = new Client(
    { name: 'site-skills-test-2026', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  )
  await client.connect(transport)
  return client
}

/** A 2026-07-28 client of the real binary over stdio (`site-skills mcp ...args`), with the server's stderr. */
export async function modernStdio(args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: cleanEnv() as Record<string, string>,
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const client = await modernClient(transport).catch((error: Error) => {
    throw new Error(`${error.message}; the server's stderr:\n${stderr}`)
  })
  return { client, stderr: () => stderr }
}

/** `site-skills mcp --http 0 ...args` as a process, once it listens: its URL and its end. */
export async function httpServer(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess; exited: Promise<Exited> }> {
  const child = spawn(process.execPath, [BIN, 'mcp', '--http', '0', ...args], {
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = waitForExit(child, 300_000)
  // A hook, not a test: vi.waitFor (expect.poll is for tests).
  const url = await vi.waitFor(
    () => /listening on (\S+)/.exec(stderr)?.[1] ?? assert.fail(`no "listening on" yet: ${stderr}`),
    { timeout: 20_000 },
  )
  return { url, child, exited }
}

export const modernHttp = (url: string) => modernClient(new StreamableHTTPClientTransport(new URL(url)))

export const callTool = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>

export const errorOf = (result: CallToolResult) => result._meta?.['site-skills/error'] as Record<string, unknown>

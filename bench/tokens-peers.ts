import { mkdir } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { TMP } from './generate'
import { LEARNINGS } from './tokens-pages'

const BIN = join(import.meta.dirname, '../bin/site-skills.js')

/** o200k_base tokens of a text, counted as plain text (special tokens' spellings are characters). */
export const tokens = (text: string) => countTokens(text, { disallowedSpecial: new Set() })

/** What a model reads of a tool result: its text blocks, and any other block as its JSON (links). */
function resultText(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : JSON.stringify(block))).join('\n')
}

/** What a model is sent for a listed tool: its definition without the icons (a client's UI shows them). */
export const toolText = ({ icons: _, ...def }: Tool) => JSON.stringify(def)

/** One call: its result, what the model reads of it, and how long the round trip took. */
export interface Call {
  result: CallToolResult
  text: string
  ms: number
}

/** An MCP server spawned over stdio and its SDK client. */
export interface Peer {
  call(name: string, args: Record<string, unknown>): Promise<Call>
  listTools(): Promise<Tool[]>
  close(): Promise<void>
}

async function connect(
  command: string,
  args: string[],
  cwd: string,
  extraEnv: Record<string, string> = {},
): Promise<Peer> {
  const env = { ...process.env, NO_COLOR: '1', ...extraEnv } as Record<string, string>
  delete env.SITE_SKILLS_ROOT
  const transport = new StdioClientTransport({ command, args, cwd, env, stderr: 'pipe' })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)))
  const client = new Client({ name: 'site-skills-bench', version: '1.0.0' })
  await client.connect(transport).catch((error: Error) => {
    throw new Error(`${error.message}; its stderr:\n${stderr}`)
  })
  return {
    async call(name, args) {
      const start = performance.now()
      const result = (await client.callTool({ name, arguments: args }, undefined, {
        timeout: 120_000,
      })) as CallToolResult
      const ms = performance.now() - start
      if (result.isError) throw new Error(`${name}: ${resultText(result).slice(0, 500)}`)
      return { result, text: resultText(result), ms }
    },
    async listTools() {
      const tools: Tool[] = []
      let cursor: string | undefined
      do {
        const page = await client.listTools(cursor ? { cursor } : {})
        tools.push(...page.tools)
        cursor = page.nextCursor
      } while (cursor)
      return tools
    },
    close: () => client.close(),
  }
}

/** `site-skills mcp` on the shipped skills, attached to the browser at `port`. */
export function ourServer(port: number, mode: 'all' | 'page'): Promise<Peer> {
  return connect(
    process.execPath,
    [BIN, 'mcp', '--root', LEARNINGS, '--cdp', `127.0.0.1:${port}`, '--tools', mode],
    join(import.meta.dirname, '..'),
  )
}

/** Playwright MCP (`@playwright/mcp`), attached to the same browser; its files go to bench/.tmp. */
export async function playwrightServer(wsEndpoint: string): Promise<Peer> {
  const cli = join(dirname(createRequire(import.meta.url).resolve('@playwright/mcp/package.json')), 'cli.js')
  const cwd = join(TMP, 'playwright-mcp')
  await mkdir(cwd, { recursive: true })
  return connect(process.execPath, [cli, '--cdp-endpoint', wsEndpoint, '--output-dir', cwd], cwd)
}

/**
 * chrome-devtools-mcp, attached to the same browser, with its usage statistics and its update
 * check off (both would leave the machine).
 */
export function devtoolsServer(wsEndpoint: string): Promise<Peer> {
  const pkg = dirname(createRequire(import.meta.url).resolve('chrome-devtools-mcp/package.json'))
  const cli = join(pkg, 'build/src/bin/chrome-devtools-mcp.js')
  return connect(process.execPath, [cli, '--wsEndpoint', wsEndpoint, '--usageStatistics=false'], TMP, {
    CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1',
    CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1',
    CI: '1',
  })
}

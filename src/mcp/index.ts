import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/internal'
import type { BrowserEndpoint } from '../cdp/endpoint'
import { loadTokenizer } from '../tokens/tokenizer'
import { authoringFactory } from './author/index'
import type { ToolsMode } from './catalog'
import type { ClientOptions } from './clients'
import { createHost } from './host'
import { type SessionLimits, serveHttp } from './http'
import { createMcpServer } from './server'
import { createWatchedSkills, type SkillFilter } from './skills'
import { connectTabs } from './tabs'

/** The default's budget: above it, the `all` list gives way to `search`. */
const DEFAULT_TOOLS_BUDGET = 4000

/** How `site-skills mcp` runs. */
export interface McpOptions {
  roots: readonly string[]
  compat?: 'ego-lite'
  /** The browser to follow (`--cdp`); a headless one is launched when absent. */
  browser?: BrowserEndpoint
  filter: SkillFilter
  /** Serve Streamable HTTP on this port (0: any free port) instead of stdio. */
  http?: number
  /** `--max-sessions` and `--session-idle` (HTTP only). */
  sessions: SessionLimits
  /** `--tools`; absent: `all` while its list is within DEFAULT_TOOLS_BUDGET tokens, else `search`. */
  mode?: ToolsMode
  /** `--allow-write DIR`: the real path of the root the authoring tools write, and every root's. */
  allowWrite?: { dir: string; roots: readonly string[] }
  /** One line for the user (stderr); never stdout, which carries the protocol under stdio. */
  log: (line: string) => void
}

/** Runs the server until stdin closes (stdio) or SIGINT/SIGTERM; resolves once everything is closed. */
export async function runMcp(options: McpOptions): Promise<void> {
  const servers = new Set<Server>()
  const log = (line: string) => {
    options.log(line)
    for (const server of servers)
      server.sendLoggingMessage({ level: 'warning', logger: 'site-skills', data: line }).catch(() => undefined)
  }
  let launched: LaunchedBrowser | undefined
  if (!options.browser) launched = await launchBrowser()
  const browserAt = options.browser ?? { url: launched!.wsEndpoint }
  const skills = createWatchedSkills({ roots: options.roots, compat: options.compat, filter: options.filter, log })
  const tabs = await connectTabs(browserAt, options.log).catch(async (error) => {
    skills.close()
    await launched?.close()
    throw error
  })
  const host = createHost(skills, tabs, {
    mode: options.mode,
    budget: DEFAULT_TOOLS_BUDGET,
    tokenizer: loadTokenizer,
    log: options.log,
    ...(options.allowWrite
      ? { authoring: authoringFactory({ ...options.allowWrite, compat: options.compat, endpoint: browserAt }) }
      : {}),
  })
  /** A server for one client connection; the client goes with it. */
  const connect = (clientOptions: ClientOptions) => {
    const client = host.connect(clientOptions)
    const server = createMcpServer(client)
    servers.add(server)
    server.onclose = () => {
      servers.delete(server)
      client.close().catch(() => undefined)
    }
    return server
  }

  let stop: () => void = () => {}
  const stopped = new Promise<void>((resolve) => (stop = resolve))
  const endpoint =
    options.http === undefined
      ? undefined
      : await serveHttp(options.http, () => connect({ follows: false, isolated: true }), options.sessions)
  if (endpoint) options.log(`listening on ${endpoint.url}`)
  else {
    await connect({ follows: true }).connect(new StdioServerTransport())
    process.stdin.once('end', stop).once('close', stop)
  }
  process.once('SIGINT', stop).once('SIGTERM', stop)
  await stopped
  process.off('SIGINT', stop).off('SIGTERM', stop)
  await Promise.all([...servers].map((s) => s.close().catch(() => undefined)))
  await endpoint?.close()
  await host.close()
  await launched?.close()
}

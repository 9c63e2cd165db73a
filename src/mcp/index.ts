import type { Server } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/internal'
import type { BrowserEndpoint } from '../cdp/endpoint'
import type { RootInput } from '../compiler/discover/roots'
import { packageVersion } from '../own/version'
import { loadTokenizer } from '../tokens/tokenizer'
import { createAgentSkills } from './agent-skills/resources'
import { authoringFactory } from './author/index'
import type { ToolsMode } from './tool-catalog'
import type { ClientOptions } from './clients'
import { createHost } from './host'
import { type SessionLimits, serveHttp } from './http'
import { modernEndpoint } from './modern'
import { createMcpServer } from './server'
import { createWatchedSkills, type SkillFilter } from './watched-skills'
import { connectTabs } from './tabs'

/** The default's budget: above it, the `all` list gives way to `search`. */
const DEFAULT_TOOLS_BUDGET = 4000

/** How `site-skills mcp` runs. */
export interface McpOptions {
  roots: readonly RootInput[]
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

/**
 * The last line of defence: a rejection nobody handled is a bug, but one request's bug must not end
 * the server of every client. It is logged, and the server goes on.
 */
function survive(log: (line: string) => void): () => void {
  const onRejection = (reason: unknown) =>
    log(`internal error (an unhandled rejection; the server goes on): ${(reason as Error)?.stack ?? String(reason)}`)
  process.on('unhandledRejection', onRejection)
  return () => void process.off('unhandledRejection', onRejection)
}

/** Runs the server until stdin closes (stdio) or SIGINT/SIGTERM; resolves once everything is closed. */
export async function runMcp(options: McpOptions): Promise<void> {
  const legacy = new Set<Server>()
  const log = (line: string) => {
    options.log(line)
    for (const server of legacy)
      server.sendLoggingMessage({ level: 'warning', logger: 'site-skills', data: line }).catch(() => undefined)
  }
  const endure = survive(options.log)
  let launched: LaunchedBrowser | undefined
  if (!options.browser) launched = await launchBrowser()
  const browserAt = options.browser ?? { url: launched!.wsEndpoint }
  const skills = createWatchedSkills({ roots: options.roots, compat: options.compat, filter: options.filter, log })
  const tabs = await connectTabs(browserAt, options.log).catch(async (error) => {
    skills.close()
    await launched?.close()
    endure()
    throw error
  })
  const agentSkills = createAgentSkills(skills)
  const host = createHost(skills, tabs, {
    agentSkills,
    mode: options.mode,
    budget: DEFAULT_TOOLS_BUDGET,
    tokenizer: loadTokenizer,
    log: options.log,
    ...(options.allowWrite
      ? { authoring: authoringFactory({ ...options.allowWrite, compat: options.compat, endpoint: browserAt }) }
      : {}),
  })
  const serverOptions = { skills: agentSkills, version: packageVersion() }
  /** A server for one client connection (a 2025-era session, or a stdio connection); the client goes with it. */
  const connect = (clientOptions: ClientOptions) => {
    const client = host.connect(clientOptions)
    const server = createMcpServer(client, serverOptions)
    if (!clientOptions.stateless) legacy.add(server)
    const unfollow = client.onChange((changes) => {
      if (changes.tools) server.sendToolListChanged().catch(() => undefined)
      if (changes.resources) server.sendResourceListChanged().catch(() => undefined)
    })
    server.onclose = () => {
      legacy.delete(server)
      unfollow()
      client.close().catch(() => undefined)
    }
    return server
  }

  let stop: () => void = () => {}
  const stopped = new Promise<void>((resolve) => (stop = resolve))
  let endpoint: Awaited<ReturnType<typeof serveHttp>> | undefined
  let stdio: ReturnType<typeof serveStdio> | undefined
  // Over HTTP, every 2026-07-28 request is one client of a shared, stateless view: tabs by handle only.
  const shared =
    options.http === undefined
      ? undefined
      : host.connect({
          follows: false,
          isolated: true,
          stateless: true,
          shared: true,
          idleMs: options.sessions.idleMs,
        })
  const modern =
    shared &&
    modernEndpoint(
      () => createMcpServer(shared, serverOptions),
      () => undefined,
    )
  shared?.onChange((changes) => {
    if (changes.tools) modern!.notify.toolsChanged()
    if (changes.resources) modern!.notify.resourcesChanged()
  })
  if (modern) {
    endpoint = await serveHttp(
      options.http!,
      () => connect({ follows: false, isolated: true }),
      options.sessions,
      modern,
    )
    options.log(`listening on ${endpoint.url}`)
  } else {
    stdio = serveStdio((ctx) => connect({ follows: true, stateless: ctx.era === 'modern' }))
    process.stdin.once('end', stop).once('close', stop)
  }
  process.once('SIGINT', stop).once('SIGTERM', stop)
  await stopped
  process.off('SIGINT', stop).off('SIGTERM', stop)
  await Promise.all([...legacy].map((s) => s.close().catch(() => undefined)))
  await stdio?.close()
  await modern?.close()
  await endpoint?.close()
  await shared?.close()
  await host.close()
  await launched?.close()
  endure()
}

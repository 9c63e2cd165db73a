import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { serveFolder } from '../playground/serve'
import { launchBrowser } from '../runtime/launch'
import { asyncCall, interleaved } from './stats'
import type { Figure } from './table'

const REPO = join(import.meta.dirname, '..')
const LEARNINGS = join(REPO, 'learnings')
const TOOL = 'demo-shop__read_products'

/** `site-skills mcp --http 0` on the shipped skills and a browser: its URL once it listens. */
async function startServer(cdp: string): Promise<{ url: string; child: ChildProcess }> {
  const bin = join(REPO, 'bin/site-skills.js')
  const args = [bin, 'mcp', '--http', '0', '--tools', 'all', '--root', LEARNINGS, '--cdp', cdp]
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
      const found = /listening on (\S+)/.exec(stderr)?.[1]
      if (found) resolve(found)
    })
    child.once('exit', (code) => reject(new Error(`site-skills mcp exited ${code}: ${stderr}`)))
  })
  return { url, child }
}

type Call = (name: string, args: Record<string, unknown>) => Promise<{ isError?: boolean; content: unknown }>

/** Opens the shop in a tab of the client's own, then returns its call of the browser tool in that tab. */
async function onShop(call: Call, shop: string, named: boolean): Promise<() => Promise<unknown>> {
  const opened = await call('site_skills_navigate', { url: shop })
  if (opened.isError) throw new Error(`navigate failed: ${JSON.stringify(opened.content)}`)
  const tab = (opened as unknown as { structuredContent: { tab: { id: string } } }).structuredContent.tab.id
  // Under 2026-07-28 the call names its tab; a 2025 session runs in its active tab.
  const args = named ? { tab } : {}
  return async () => {
    const result = await call(TOOL, args)
    if (result.isError) throw new Error(`${TOOL} failed: ${JSON.stringify(result.content)}`)
    return result
  }
}

/**
 * The two eras of `site-skills mcp` over HTTP, one server: a browser tool called by a client of the
 * revision 2026-07-28 (one stateless request, a server instance of its own, the tab named) against
 * the same call in a 2025 session (its active tab), interleaved call by call.
 */
export async function runErasBench({ runs, calls }: { runs: number; calls: number }): Promise<Figure[]> {
  const site = await serveFolder(join(LEARNINGS, 'demo-shop/site'))
  const browser = await launchBrowser()
  const { url, child } = await startServer(`127.0.0.1:${browser.port}`)
  // One client library for both, so that the figure compares the eras, not two SDKs: v2's client
  // negotiates a 2025 session by default (initialize, Mcp-Session-Id) and 2026-07-28 when pinned.
  const legacy = new Client({ name: 'bench-2025', version: '1' })
  const modern = new Client(
    { name: 'bench-2026', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  )
  try {
    await legacy.connect(new StreamableHTTPClientTransport(new URL(url)))
    await modern.connect(new StreamableHTTPClientTransport(new URL(url)))
    if (legacy.getProtocolEra() !== 'legacy' || modern.getProtocolEra() !== 'modern')
      throw new Error(`the clients negotiated ${legacy.getProtocolEra()} and ${modern.getProtocolEra()}`)
    const callLegacy: Call = (name, args) => legacy.callTool({ name, arguments: args }) as ReturnType<Call>
    const callModern: Call = (name, args) => modern.callTool({ name, arguments: args }) as ReturnType<Call>
    const fns = {
      legacy: asyncCall(await onShop(callLegacy, site.url, false)),
      modern: asyncCall(await onShop(callModern, site.url, true)),
    }
    await interleaved(1, calls, fns) // warm-up
    const samples = await interleaved(runs, calls, fns)
    const ratio = samples.ratio('modern', 'legacy')
    return [
      {
        bench: 'eras',
        name: `MCP tools/call of a browser tool (${TOOL}) over HTTP: 2026-07-28 request vs 2025 session`,
        subject: { label: '2026-07-28', unit: 'ms', value: samples.get('modern') },
        baseline: { label: '2025 session', unit: 'ms', value: samples.get('legacy') },
        ratio,
        ratioText: 'the time',
        goal: { text: 'within 1.1x of the same call in a 2025 session', met: ratio.median <= 1.1 },
        notes: [
          `one server, the SDK's v2 client in each era (a session of 2025-11-25; pinned to 2026-07-28), each on a tab of its own; per run ${calls} rounds of one call each, interleaved; median per call`,
        ],
      },
    ]
  } finally {
    await Promise.all([legacy.close(), modern.close()].map((p) => p.catch(() => undefined)))
    child.kill('SIGTERM')
    await browser.close()
    await site.close()
  }
}

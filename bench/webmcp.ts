import { join } from 'node:path'
import { serveFolder } from '../playground/serve'
import { type CdpClient, command, listen } from '../runtime/cdp'
import { compactText } from '../runtime/compact'
import { launchBrowser } from '../runtime/launch'
import { createSiteSkills, type SiteSkills } from '../runtime/registry'
import { createRegistryData } from '../src/codegen/meta'
import { createCompiler } from '../src/compiler/compile'
import { asyncCall, interleaved, summarize } from './stats'
import type { Figure } from './table'

const LEARNINGS = join(import.meta.dirname, '../learnings')
const SITE = 'demo-shop'
const TOOL = 'read_products'
/** The registered name of the tool (as toolDefinitions names it). */
const NAME = `${SITE}__${TOOL}`

/** A registry of the demo shop skill, its browser tools compiled as a build compiles them. */
async function demoShop(): Promise<SiteSkills> {
  const result = await createCompiler({ roots: [LEARNINGS] }).compile()
  const skills = result.skills.filter((s) => s.model.id === SITE)
  if (!skills[0]?.browser[TOOL]) throw new Error(`${SITE} -> ${TOOL} did not compile`)
  const chunk = { notes: [], nodeTools: {}, browserTools: skills[0].browser }
  return createSiteSkills(createRegistryData(skills), { [SITE]: async () => chunk }, { validateReturns: 'throw' })
}

/** A call through WebMCP as a host makes it: `WebMCP.invokeTool` on the top frame, then its `toolResponded`. */
async function webMcpCaller(client: CdpClient): Promise<(input: Record<string, unknown>) => Promise<unknown>> {
  const { frameTree } = await command(client, 'Page.getFrameTree')
  const waiting = new Map<string, (output: unknown) => void>()
  const early = new Map<string, unknown>()
  listen(client, 'WebMCP.toolResponded', (event) => {
    const output = event.status === 'Completed' ? event.output : new Error(`the call ended ${event.status}`)
    const resolve = waiting.get(event.invocationId)
    if (resolve) resolve(output)
    else early.set(event.invocationId, output)
  })
  await command(client, 'WebMCP.enable')
  return async (input) => {
    const { invocationId } = await command(client, 'WebMCP.invokeTool', {
      frameId: frameTree.frame.id,
      toolName: NAME,
      input,
    })
    const output = early.has(invocationId)
      ? early.get(invocationId)
      : await new Promise((resolve) => waiting.set(invocationId, resolve))
    early.delete(invocationId)
    waiting.delete(invocationId)
    if (output instanceof Error) throw output
    return output
  }
}

/** Milliseconds from `Page.navigate` to the page's load event. */
async function loadTime(client: CdpClient, url: string): Promise<number> {
  const loaded = new Promise((resolve) => client.once('Page.loadEventFired', resolve))
  const start = performance.now()
  await command(client, 'Page.navigate', { url })
  await loaded
  return performance.now() - start
}

/**
 * WebMCP (issue 37): a call of the demo shop's `read_products` through WebMCP (`WebMCP.invokeTool`
 * to its `toolResponded`, as a host calls a registered tool: the result checked, budgeted and made
 * compact text in the page) against `runBrowserTool` of the same tool on the same page (the plain
 * value, no encoding); and what registering the skill's tools adds to a page's load (Page.navigate
 * to the load event, a tab with exposeWebMcpTools against one without, the same page).
 */
export async function runWebMcpBench({ runs, calls }: { runs: number; calls: number }): Promise<Figure[]> {
  const api = await demoShop()
  const site = await serveFolder(join(LEARNINGS, 'demo-shop/site'))
  const browser = await launchBrowser({ args: ['--enable-features=WebMCP'] })
  try {
    const page = await browser.newPage(site.url)
    const handle = await api.exposeWebMcpTools(page.client)
    const invoke = await webMcpCaller(page.client)
    const direct = () => api.runBrowserTool(SITE, TOOL, {}, page.client)
    const [viaWebMcp, viaRuntime] = [await invoke({}), await direct()]
    // WebMCP answers with the compact text of runBrowserTool's value (what site-skills mcp sends).
    if (viaWebMcp !== compactText(viaRuntime)) throw new Error('WebMCP and runBrowserTool differ')
    const fns = { webmcp: asyncCall(() => invoke({})), runtime: asyncCall(direct) }
    await interleaved(1, calls, fns)
    const samples = await interleaved(runs, calls, fns)
    const plain = await browser.newPage(site.url)
    const loads = { exposed: [] as number[], plain: [] as number[] }
    for (let i = 0; i < runs * calls; i++) {
      // Alternating which goes first, so that neither always loads into a warmer cache.
      const order: ['exposed' | 'plain', CdpClient][] = [
        ['exposed', page.client],
        ['plain', plain.client],
      ]
      if (i % 2) order.reverse()
      for (const [which, client] of order) loads[which].push(await loadTime(client, site.url))
    }
    await handle.close()
    const [withTools, without] = [summarize(loads.exposed), summarize(loads.plain)]
    // Paired: each load with the tools against the load without them next to it.
    const added = summarize(loads.exposed.map((ms, i) => ms - loads.plain[i]!)).median
    const perRun = loads.exposed.map((ms, i) => ms / loads.plain[i]!)
    return [
      {
        bench: 'webmcp',
        name: `a call through WebMCP vs runBrowserTool, ${SITE} -> ${TOOL}`,
        subject: { label: 'WebMCP.invokeTool', unit: 'ms', value: samples.get('webmcp') },
        baseline: { label: 'runBrowserTool', unit: 'ms', value: samples.get('runtime') },
        ratio: samples.ratio('webmcp', 'runtime'),
        ratioText: 'the time',
        goal: { text: 'within 1.2x of runBrowserTool', met: samples.ratio('webmcp', 'runtime').median <= 1.2 },
        notes: [
          `per run ${calls} rounds of one call each way, interleaved, same page and tool; result ${JSON.stringify(viaRuntime).length.toLocaleString('en-US')} B of JSON, ${String(viaWebMcp).length.toLocaleString('en-US')} B of compact text`,
        ],
      },
      {
        bench: 'webmcp',
        name: `page load (navigate to load event), ${SITE} page: with its tools registered vs without`,
        subject: { label: 'registered', unit: 'ms', value: withTools },
        baseline: { label: 'none', unit: 'ms', value: without },
        ratio: summarize(perRun),
        ratioText: 'the time',
        goal: { text: 'adds at most 5 ms', met: added <= 5 },
        notes: [
          `${loads.plain.length} loads each, alternating tabs; median of the paired differences ${added.toFixed(2)} ms`,
        ],
      },
    ]
  } finally {
    await browser.close()
    await site.close()
  }
}

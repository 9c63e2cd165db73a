import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { serveFolder } from '../playground/serve'
import { callBrowserTool } from '../runtime/browser'
import { type CdpClient, command } from '../runtime/cdp'
import { launchBrowser } from '../runtime/launch'
import type { BrowserToolCode } from '../runtime/skill-data'
import { createCompiler } from '../src/compiler/compile'
import { wrapBrowserTool } from '../src/index'
import { generateSkills, skillId } from './generate'
import { asyncCall, interleaved } from './stats'
import type { Figure } from './table'

const LEARNINGS = join(import.meta.dirname, '../learnings')

interface ToolCase {
  label: string
  siteId: string
  tool: string
  code: BrowserToolCode
  /** The tool file as written, for the original's approach. */
  rawSource: string
  args: Record<string, unknown>
}

async function compiledTool(
  root: string,
  siteId: string,
  tool: string,
  args: Record<string, unknown>,
  label: string,
): Promise<ToolCase> {
  const result = await createCompiler({ roots: [root] }).compile()
  const skill = result.skills.find((s) => s.model.id === siteId)
  const code = skill?.browser[tool]
  const model = skill?.model.tools.find((t) => t.name === tool)
  if (!code || !model)
    throw new Error(`${siteId} -> ${tool} did not compile: ${JSON.stringify(result.diagnostics.slice(0, 3))}`)
  return { label, siteId, tool, code, rawSource: await readFile(model.absPath, 'utf8'), args }
}

interface Variants {
  runtime: () => Promise<unknown>
  bare: () => Promise<unknown>
  bareCall: () => Promise<unknown>
  original: () => Promise<unknown>
}

/** The objectId of the page's global object, taken once: what a bare callFunctionOn runs on. */
async function globalObject(client: CdpClient): Promise<string> {
  const { result } = await command(client, 'Runtime.evaluate', { expression: 'this' })
  if (!result.objectId) throw new Error('no global object')
  return result.objectId
}

function variants(client: CdpClient, t: ToolCase, domains: string[], global: string): Variants {
  const evaluate = async (expression: string) => {
    const response = await command(client, 'Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })
    if (response.exceptionDetails) throw new Error(`evaluate failed: ${response.exceptionDetails.text}`)
    return response.result.value
  }
  const bareExpression = `(${t.code.source})(${JSON.stringify(t.args)})`
  return {
    runtime: () =>
      callBrowserTool(client, {
        siteId: t.siteId,
        tool: t.tool,
        code: t.code,
        args: t.args,
        domains,
        timeoutMs: 30_000,
      }),
    bare: () => evaluate(bareExpression),
    // One bare Runtime.callFunctionOn of the same compiled function, as the goal puts it.
    bareCall: async () => {
      const response = await command(client, 'Runtime.callFunctionOn', {
        functionDeclaration: t.code.source,
        objectId: global,
        arguments: [{ value: t.args }],
        returnByValue: true,
        awaitPromise: true,
      })
      if (response.exceptionDetails) throw new Error(`callFunctionOn failed: ${response.exceptionDetails.text}`)
      return response.result.value
    },
    original: () => evaluate(wrapBrowserTool(t.rawSource, t.args)),
  }
}

async function measureTool(
  client: CdpClient,
  t: ToolCase,
  domains: string[],
  runs: number,
  calls: number,
): Promise<Figure[]> {
  const v = variants(client, t, domains, await globalObject(client))
  const results = [await v.runtime(), await v.bare(), await v.bareCall(), await v.original()]
  const [a, ...others] = results.map((r) => JSON.stringify(r))
  if (others.some((o) => o !== a)) throw new Error(`${t.label}: the four ways returned different results`)
  const fns = {
    runtime: asyncCall(v.runtime),
    bare: asyncCall(v.bare),
    bareCall: asyncCall(v.bareCall),
    original: asyncCall(v.original),
  }
  await interleaved(1, calls, fns) // warm-up
  const samples = await interleaved(runs, calls, fns)
  const shown = `${t.siteId} -> ${t.tool} (${t.code.source.length.toLocaleString('en-US')} B compiled, result ${(a ?? '').length.toLocaleString('en-US')} B)`
  return [
    {
      bench: 'cdp',
      name: `browser tool call, ${t.label}: runtime vs bare evaluate`,
      subject: { label: 'runtime', unit: 'ms', value: samples.get('runtime') },
      baseline: { label: 'bare', unit: 'ms', value: samples.get('bare') },
      ratio: samples.ratio('runtime', 'bare'),
      ratioText: 'the time',
      goal: { text: 'within 1.5x of a bare Runtime.evaluate', met: samples.ratio('runtime', 'bare').median <= 1.5 },
      notes: [`${shown}; per run ${calls} rounds of one call each way, interleaved; median per call`],
    },
    {
      bench: 'cdp',
      name: `browser tool call, ${t.label}: runtime vs one bare callFunctionOn`,
      subject: { label: 'runtime', unit: 'ms', value: samples.get('runtime') },
      baseline: { label: 'callFunctionOn', unit: 'ms', value: samples.get('bareCall') },
      ratio: samples.ratio('runtime', 'bareCall'),
      ratioText: 'the time',
      goal: {
        text: 'within 1.1x of one bare Runtime.callFunctionOn',
        met: samples.ratio('runtime', 'bareCall').median <= 1.1,
      },
      notes: [
        'bare: the compiled function on the same page, on an objectId of its global object taken once (returnByValue, awaitPromise); the runtime sends one callFunctionOn per call once the tool is cached in the page',
      ],
    },
    {
      bench: 'cdp',
      name: `browser tool call, ${t.label}: runtime vs original`,
      subject: { label: 'runtime', unit: 'ms', value: samples.get('runtime') },
      baseline: { label: 'original', unit: 'ms', value: samples.get('original') },
      ratio: samples.ratio('runtime', 'original'),
      ratioText: 'the time',
      notes: [
        'original: raw file pasted into an async IIFE with the args, Runtime.evaluate (returnByValue, awaitPromise)',
      ],
    },
  ]
}

/**
 * Figure 4: a browser tool call over CDP on a local page (the demo shop), three ways: the runtime's
 * callBrowserTool (domain guard + Runtime.callFunctionOn), a bare Runtime.evaluate of the same
 * compiled function, and the original's IIFE string. A real tool and a small generated one.
 */
export async function runCdpBench({ runs, calls }: { runs: number; calls: number }): Promise<Figure[]> {
  const demo = await compiledTool(LEARNINGS, 'demo-shop', 'read_products', {}, 'demo-shop read_products')
  const small = await compiledTool(
    await generateSkills(10),
    skillId(1),
    'read_list',
    { limit: 5 },
    'small generated tool',
  )
  const site = await serveFolder(join(LEARNINGS, 'demo-shop/site'))
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage(site.url)
    const domains = [new URL(site.url).hostname]
    return [
      ...(await measureTool(page.client, demo, domains, runs, calls)),
      ...(await measureTool(page.client, small, domains, runs, calls)),
    ]
  } finally {
    await browser.close()
    await site.close()
  }
}

import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { type ViteBuildResult, breakdownNote, viteConfig, writeApp } from './build'
import { TMP, generateSkills } from './generate'
import { ChildError, runChild } from './spawn'
import { servedAliases } from './served'
import { summarize } from './stats'
import { type Figure, errorSummary, formatValue } from './table'

/**
 * Vite alone building the same app on the modules a plugin build generated (written by
 * `captureModules`), with aliases instead of the plugin: what any build of that code needs.
 */
export async function viteAloneTask(args: {
  app: string
  outDir: string
  dir: string
}): Promise<{ ms: number; outputFiles: number }> {
  const { build } = await import('vite')
  await writeApp(args.app)
  const config = viteConfig(args.app, args.outDir)
  const start = performance.now()
  await build({ ...config, resolve: { alias: servedAliases(args.dir) } })
  return { ms: performance.now() - start, outputFiles: (await readdir(args.outDir)).length }
}

/** The baseline child: loads what a build loads (Vite, the plugin), builds nothing. */
export async function idleTask(): Promise<Record<string, never>> {
  await Promise.all([import('vite'), import('../src/vite')])
  return {}
}

export interface BuildPeaks {
  rssKb: number[]
  esbuildRssKb: number[]
}

const mib = (kb: number) => formatValue(kb, 'kb-rss')

async function measureSize(size: number, idleKb: number[], reuse?: BuildPeaks): Promise<Figure> {
  const n = size.toLocaleString('en-US')
  const name = `peak RSS, cold Vite build, ${n} skills`
  let peaks = reuse
  let built: ViteBuildResult | undefined
  if (!peaks?.rssKb.length) {
    const root = await generateSkills(size)
    const app = join(TMP, 'app')
    try {
      const r = await runChild<ViteBuildResult>('vite-build', { root, app, outDir: join(app, `dist-memory-${size}`) })
      peaks = { rssKb: [r.maxRssKb], esbuildRssKb: r.esbuildRssKb ? [r.esbuildRssKb] : [] }
      built = r.value
    } catch (error) {
      const at =
        error instanceof ChildError && error.maxRssKb ? ` (peak RSS when it failed: ${mib(error.maxRssKb)})` : ''
      return { bench: 'memory', name, error: `${errorSummary(error)}${at}` }
    }
  }
  const rss = summarize(peaks.rssKb)
  const idle = summarize(idleKb)
  const notes = [
    `esbuild service process peak (not in the Node figure): ${peaks.esbuildRssKb.length ? mib(summarize(peaks.esbuildRssKb).median) : 'n/a'}` +
      `; ${Math.round((rss.median - idle.median) / size).toLocaleString('en-US')} KiB per skill above the idle process${built ? `; build took ${formatValue(built.ms, 'ms')}` : ''}`,
    ...(built ? breakdownNote([built]) : []),
  ]
  return {
    bench: 'memory',
    name,
    subject: { label: 'build', unit: 'kb-rss', value: rss },
    baseline: { label: 'idle', unit: 'kb-rss', value: idle },
    ratio: summarize(peaks.rssKb.map((kb) => kb / idle.median)),
    ratioText: 'the idle process',
    notes,
  }
}

/**
 * Figure 6: peak RSS (`process.resourceUsage().maxRSS`) of a cold build in a child process, against
 * a child that only loads Vite and the plugin. `reuse` takes the build benchmark's children at 1,000.
 */
export async function runMemoryBench({
  sizes,
  reuse,
}: {
  sizes: number[]
  reuse?: Record<number, BuildPeaks>
}): Promise<Figure[]> {
  const idleKb: number[] = []
  for (let i = 0; i < 3; i++) idleKb.push((await runChild('idle')).maxRssKb)
  const figures: Figure[] = []
  for (const size of sizes) figures.push(await measureSize(size, idleKb, reuse?.[size]))
  return figures
}

import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { type ViteBuildResult, breakdownNote } from './build'
import { TMP, generateSkills } from './generate'
import { ChildError, type ChildResult, runChild } from './spawn'
import { summarize } from './stats'
import { type Figure, errorSummary, formatValue } from './table'

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

interface Measured {
  figure: Figure
  /** The build's child, when this figure ran one (rather than reusing the build benchmark's). */
  child?: ChildResult<ViteBuildResult>
}

/** A cold build against the idle process; `captureDir` also writes the generated modules (never reused). */
async function measureSize(size: number, idleKb: number[], reuse?: BuildPeaks, captureDir?: string): Promise<Measured> {
  const n = size.toLocaleString('en-US')
  const name = `peak RSS, cold Vite build, ${n} skills`
  let peaks = captureDir ? undefined : reuse
  let child: ChildResult<ViteBuildResult> | undefined
  if (!peaks?.rssKb.length) {
    const root = await generateSkills(size)
    const app = join(TMP, 'app')
    try {
      if (captureDir) await rm(captureDir, { recursive: true, force: true })
      child = await runChild<ViteBuildResult>('vite-build', {
        root,
        app,
        outDir: join(app, `dist-memory-${size}`),
        captureDir,
      })
      peaks = { rssKb: [child.maxRssKb], esbuildRssKb: child.esbuildRssKb ? [child.esbuildRssKb] : [] }
    } catch (error) {
      const at =
        error instanceof ChildError && error.maxRssKb ? ` (peak RSS when it failed: ${mib(error.maxRssKb)})` : ''
      return { figure: { bench: 'memory', name, error: `${errorSummary(error)}${at}` } }
    }
  }
  const built = child?.value
  const rss = summarize(peaks.rssKb)
  const idle = summarize(idleKb)
  const notes = [
    `esbuild service process peak (not in the Node figure): ${peaks.esbuildRssKb.length ? mib(summarize(peaks.esbuildRssKb).median) : 'n/a'}` +
      `; ${Math.round((rss.median - idle.median) / size).toLocaleString('en-US')} KiB per skill above the idle process${built ? `; build took ${formatValue(built.ms, 'ms')}${captureDir ? ' (writing out the modules it generated)' : ''}` : ''}`,
    ...(built ? breakdownNote([built]) : []),
  ]
  return {
    child,
    figure: {
      bench: 'memory',
      name,
      subject: { label: 'build', unit: 'kb-rss', value: rss },
      baseline: { label: 'idle', unit: 'kb-rss', value: idle },
      ratio: summarize(peaks.rssKb.map((kb) => kb / idle.median)),
      ratioText: 'the idle process',
      notes,
    },
  }
}

/** The plugin's build may take at most this much more than Vite alone needs for the code it generates. */
const GOAL_OVER_VITE = 1.5

/**
 * The build at `size` against Vite alone building the modules it generated (no plugin: the floor for
 * that code), and its esbuild service against esbuild alone minifying the same browser tools.
 */
async function compareAt(size: number, built: ChildResult<ViteBuildResult>, dir: string): Promise<Figure[]> {
  const n = size.toLocaleString('en-US')
  const byVite = `peak RSS, ${n} skills: Vite build with the plugin vs Vite alone on the modules it generated`
  const byEsbuild = `esbuild's peak RSS, ${n} skills: in the plugin's build vs esbuild alone on the same tools`
  const figures: Figure[] = []
  try {
    const app = join(TMP, 'app-alone')
    const alone = await runChild<{ ms: number; outputFiles: number }>('vite-alone', {
      app,
      outDir: join(app, `dist-${size}`),
      dir,
    })
    const ratio = built.maxRssKb / alone.maxRssKb
    const modules = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.js')).length
    figures.push({
      bench: 'memory',
      name: byVite,
      subject: { label: 'plugin', unit: 'kb-rss', value: summarize([built.maxRssKb]) },
      baseline: { label: 'vite', unit: 'kb-rss', value: summarize([alone.maxRssKb]) },
      ratio: summarize([ratio]),
      ratioText: 'Vite alone',
      goal: { text: `within ${GOAL_OVER_VITE}x of Vite alone on the same modules`, met: ratio <= GOAL_OVER_VITE },
      notes: [
        `Vite alone: the same app, the ${modules.toLocaleString('en-US')} generated modules written out by the build above and reached through resolve.alias (${alone.value.outputFiles.toLocaleString('en-US')} files out, ${formatValue(alone.value.ms, 'ms')}); what the plugin adds is its own heap: compiled skills, the generated code it keeps for rebuilds, garbage (see bench/RESULTS.md, "Where the memory goes")`,
      ],
    })
  } catch (error) {
    figures.push({ bench: 'memory', name: byVite, error: errorSummary(error) })
  }
  try {
    const root = await generateSkills(size)
    const esbuild = await runChild<{ tools: number }>('esbuild-only', { root, mode: 'best' })
    const own = built.esbuildRssKb ?? Number.NaN
    const alone = esbuild.esbuildRssKb ?? Number.NaN
    figures.push({
      bench: 'memory',
      name: byEsbuild,
      subject: { label: 'plugin', unit: 'kb-rss', value: summarize([own]) },
      baseline: { label: 'esbuild', unit: 'kb-rss', value: summarize([alone]) },
      ratio: summarize([own / alone]),
      ratioText: 'esbuild alone',
      goal: { text: 'no more than esbuild alone', met: own <= alone },
      notes: [
        `esbuild alone: the ${esbuild.value.tools.toLocaleString('en-US')} browser tools minified as in the build benchmark (modules in builds of 250, all at once); the plugin keeps at most 4 builds and 8 transforms (of 100 bare tools each) in flight`,
      ],
    })
  } catch (error) {
    figures.push({ bench: 'memory', name: byEsbuild, error: errorSummary(error) })
  }
  return figures
}

/**
 * Figure 6: peak RSS (`process.resourceUsage().maxRSS`) of a cold build in a child process, against
 * a child that only loads Vite and the plugin; at the largest size also against Vite alone on the
 * generated modules, and esbuild's against esbuild alone. `reuse` takes the build benchmark's
 * children at 1,000 (not at the largest size, whose build also writes out its modules).
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
  const largest = Math.max(...sizes)
  const dir = join(TMP, `served-${largest}`)
  const figures: Figure[] = []
  let compared: Figure[] = []
  for (const size of sizes) {
    const measured = await measureSize(size, idleKb, reuse?.[size], size === largest ? dir : undefined)
    figures.push(measured.figure)
    if (size === largest && measured.child) compared = await compareAt(size, measured.child, dir)
  }
  return [...figures, ...compared]
}

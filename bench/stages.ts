import { readFileSync } from 'node:fs'
import { getHeapStatistics, writeHeapSnapshot } from 'node:v8'
import type { Plugin } from 'vite'
import { viteConfig, writeApp } from './app'
import { type HookFn, wrapHook } from './hooks'
import { captureModules, servedAliases } from './served'
import { esbuildPeakKb } from './proc'

/** Memory of this process at one point of a build (KiB). */
export interface Checkpoint {
  stage: string
  /** Resident now, and the peak so far (VmHWM). */
  rssKb: number
  peakKb: number
  /** V8's heap in use, and memory outside it (Buffers, strings of external resources). */
  heapKb: number
  externalKb: number
  /** Peak of esbuild's service process so far. */
  esbuildPeakKb?: number
}

function status(): { rssKb: number; peakKb: number } {
  const text = readFileSync('/proc/self/status', 'utf8')
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(text)?.[1] ?? Number.NaN)
  return { rssKb: field('VmRSS'), peakKb: field('VmHWM') }
}

/** With `--expose-gc` (profile-memory.ts `--live`), the heap is measured after a full collection: what is live. */
const collect = (globalThis as { gc?: () => void }).gc

async function checkpoint(stage: string): Promise<Checkpoint> {
  collect?.()
  const { external } = process.memoryUsage()
  return {
    stage,
    ...status(),
    heapKb: Math.round(getHeapStatistics().used_heap_size / 1024),
    externalKb: Math.round(external / 1024),
    esbuildPeakKb: await esbuildPeakKb(),
  }
}

/**
 * A plugin that records a checkpoint at each later stage of Vite's build: when every module is loaded (buildEnd), after the chunks
 * are rendered (generateBundle) and once they are written (writeBundle).
 */
function stagesPlugin(points: Promise<Checkpoint>[]): Plugin {
  const at = (stage: string) => () => void points.push(checkpoint(stage))
  return {
    name: 'bench-memory-stages',
    buildEnd: at('modules loaded and transformed (buildEnd)'),
    generateBundle: at('chunks rendered (generateBundle)'),
    writeBundle: at('written (writeBundle)'),
  }
}

/**
 * A cold Vite build with a memory checkpoint at each stage (child task): with the plugin over
 * `root` (writing what it generates to `captureDir` when given), or Vite alone on the modules
 * written to `dir` (see served.ts).
 */
export async function memoryStagesTask(args: {
  app: string
  outDir: string
  root?: string
  captureDir?: string
  dir?: string
  /** Write a heap snapshot there after the build. */
  heapSnapshot?: string
}): Promise<Checkpoint[]> {
  const { build } = await import('vite')
  const plugin = args.root ? ((await import('../src/vite')).default({ roots: args.root }) as Plugin) : undefined
  await writeApp(args.app)
  const points: Promise<Checkpoint>[] = [checkpoint(plugin ? 'Vite and the plugin imported' : 'Vite imported')]
  const config = viteConfig(args.app, args.outDir)
  if (plugin) {
    if (args.captureDir) captureModules(plugin, args.captureDir)
    // Vite runs buildStart hooks in parallel: the checkpoint goes after the plugin's own.
    wrapHook(
      plugin,
      'buildStart',
      (buildStart: HookFn) =>
        async function (this: unknown, ...rest: unknown[]) {
          await buildStart.apply(this, rest)
          points.push(checkpoint('skills compiled (plugin buildStart)'))
        },
    )
    config.plugins = [plugin, stagesPlugin(points)]
  } else {
    config.plugins = [stagesPlugin(points)]
    config.resolve = { alias: servedAliases(args.dir ?? '') }
  }
  await build(config)
  points.push(checkpoint('after the build'))
  if (args.heapSnapshot) writeHeapSnapshot(args.heapSnapshot)
  return Promise.all(points)
}

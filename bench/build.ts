import { readFileSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { type Plugin as EsbuildPlugin, build as esbuild, transform as esbuildTransform } from 'esbuild'
import type { Plugin } from 'vite'
import { TMP, generateSkills } from './generate'
import { viteConfig, writeApp } from './app'
import { type HookTimes, timeHooks } from './hooks'
import { captureModules } from './served'
import { validateLearnings } from './original'
import { cpuMs } from './proc'
import { type ChildResult, runChild } from './spawn'
import { Samples, rounds, summarize } from './stats'
import { type Figure, formatRatio, formatValue } from './table'

export const BUILD_SKILLS = 1000

export interface ViteBuildResult {
  ms: number
  /** CPU time of the build (this process and its esbuild service). */
  cpuMs: number
  hooks: HookTimes
  /** What the compiler's bundler asked of esbuild (from the probe): calls, tools, busy wall time. */
  esbuild: { calls: number; tools: number; ms: number }
  /** buildStart in phases: until the first esbuild call, from it to the end of the last, after that. */
  phases: { beforeEsbuild: number; esbuildSpan: number; afterEsbuild: number }
  outputFiles: number
  /** V8 syntax checks of tool files made on the worker thread and on the main thread. */
  syntaxChecks: { worker: number; here: number }
}

// ---- Child tasks (run in a fresh process by spawn.ts) ----

/** A cold build: fresh process, fresh plugin instance, empty output folder. */
export async function viteBuildTask(args: {
  root: string
  app: string
  outDir: string
  /** Also write every generated module there (see served.ts). */
  captureDir?: string
  /** The plugin's persistent cache folder; none by default (a cold build). */
  cache?: string
}): Promise<ViteBuildResult> {
  const [{ build }, { default: siteSkills }, { probe, resetProbe }, { syntaxCheckCounts }] = await Promise.all([
    import('vite'),
    import('../src/vite'),
    import('./esbuild-probe'),
    import('../src/compiler/validate/v8-syntax'),
  ])
  await writeApp(args.app)
  const timed = timeHooks(siteSkills({ roots: args.root, cache: args.cache ?? false }) as Plugin)
  if (args.captureDir) captureModules(timed.plugin, args.captureDir)
  resetProbe()
  const cpu = await cpuMs()
  const start = performance.now()
  await build(viteConfig(args.app, args.outDir, timed.plugin))
  const ms = performance.now() - start
  const t = timed.times
  const phases = probe.calls
    ? {
        beforeEsbuild: probe.firstAt - t.buildStartAt,
        esbuildSpan: probe.lastAt - probe.firstAt,
        afterEsbuild: t.buildStartEnd - probe.lastAt,
      }
    : { beforeEsbuild: t.buildStart, esbuildSpan: 0, afterEsbuild: 0 }
  const { calls, tools, ms: esbuildMs } = probe
  return {
    ms,
    cpuMs: (await cpuMs()) - cpu,
    hooks: { ...t },
    esbuild: { calls, tools, ms: esbuildMs },
    phases,
    outputFiles: (await readdir(args.outDir)).length,
    syntaxChecks: syntaxCheckCounts(),
  }
}

/** Browser tool files of every skill, from the manifests (read before the clock starts). */
async function browserToolFiles(root: string): Promise<string[]> {
  const files: string[] = []
  for (const dir of (await readdir(root, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => join(root, d.name))
    .sort()) {
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as {
      browserTools?: Record<string, { path: string }>
    }
    for (const tool of Object.values(manifest.browserTools ?? {})) files.push(join(dir, tool.path))
  }
  return files
}

const MODULE_RE = /^\s*(?:import|export)\b/m

/** Bare function expressions are not modules: load each as `export default (<source>)`. */
const bareFunctionPlugin: EsbuildPlugin = {
  name: 'bare-function',
  setup(b) {
    b.onResolve({ filter: /^tool:/ }, (args) => ({ path: args.path.slice(5), namespace: 'tool' }))
    b.onLoad({ filter: /.*/, namespace: 'tool' }, async (args) => {
      const text = await readFile(args.path, 'utf8')
      return {
        contents: MODULE_RE.test(text) ? text : `export default (${text}\n)`,
        loader: 'js',
        resolveDir: dirname(args.path),
      }
    })
  },
}

/** Entry points per esbuild build: one build of thousands of entry points is superlinear. */
const ESBUILD_BATCH = 250

const MINIFY = { minify: true, format: 'esm', target: 'es2022', logLevel: 'silent' } as const

async function bundleFiles(entries: string[], plugins: EsbuildPlugin[] = []): Promise<number> {
  const out = await esbuild({
    ...MINIFY,
    entryPoints: Object.fromEntries(entries.map((f, i) => [`t${i}`, f])),
    bundle: true,
    platform: 'browser',
    write: false,
    outdir: '/bench-out',
    plugins,
  })
  return out.outputFiles.reduce((n, f) => n + f.contents.length, 0)
}

/** Bare functions per transform when batched, as the plugin compiles them (src/compiler/bundle/expressions.ts). */
const EXPRESSION_BATCH = 100

/**
 * Bare functions through `transform`, ES modules bundled in builds of ESBUILD_BATCH, all at once.
 * `batched`: the bare functions go 100 to a transform, each an exported constant (not split again).
 */
async function minifyTools(files: string[], batched = false): Promise<number> {
  // Read one by one: thousands of reads at once exhaust the file handles at 10,000 skills.
  const texts = files.map((f) => readFileSync(f, 'utf8'))
  const modules = files.filter((_, i) => MODULE_RE.test(texts[i]!))
  const batches: string[][] = []
  for (let i = 0; i < modules.length; i += ESBUILD_BATCH) batches.push(modules.slice(i, i + ESBUILD_BATCH))
  const bare = texts.filter((t) => !MODULE_RE.test(t))
  const inputs = batched
    ? Array.from({ length: Math.ceil(bare.length / EXPRESSION_BATCH) }, (_, b) =>
        bare
          .slice(b * EXPRESSION_BATCH, (b + 1) * EXPRESSION_BATCH)
          .map((t, i) => `export const t${i}=(${t}\n);`)
          .join('\n'),
      )
    : bare.map((t) => `export default (${t}\n)`)
  const sizes = await Promise.all([
    ...inputs.map(async (input) => (await esbuildTransform(input, MINIFY)).code.length),
    ...batches.map((batch) => bundleFiles(batch)),
  ])
  return sizes.reduce((a, b) => a + b, 0)
}

/**
 * The baseline: esbuild alone minifying every browser tool (local imports bundled in): `best` as
 * described at minifyTools, `one` as a single build with every tool an entry point.
 */
export async function esbuildOnlyTask(args: {
  root: string
  mode: 'best' | 'one' | 'batched'
}): Promise<{ ms: number; cpuMs: number; tools: number; bytes: number }> {
  const files = await browserToolFiles(args.root)
  const cpu = await cpuMs()
  const start = performance.now()
  const bytes =
    args.mode === 'one'
      ? await bundleFiles(
          files.map((f) => `tool:${f}`),
          [bareFunctionPlugin],
        )
      : await minifyTools(files, args.mode === 'batched')
  const ms = performance.now() - start
  return { ms, cpuMs: (await cpuMs()) - cpu, tools: files.length, bytes }
}

/** The original's separate validation step (imports, and so runs, every Node tool). */
export async function originalValidateTask(args: {
  root: string
}): Promise<{ ms: number; cpuMs: number; errors: string[] }> {
  const cpu = await cpuMs()
  const start = performance.now()
  const errors = await validateLearnings(args.root)
  const ms = performance.now() - start
  return { ms, cpuMs: (await cpuMs()) - cpu, errors: errors.slice(0, 5) }
}

// ---- The benchmark (parent process) ----

const fmt = (ms: number) => `${Math.round(ms).toLocaleString('en-US')} ms`
const mib = (kb: number[]) => formatValue(summarize(kb).median, 'kb-rss')

/** The same comparison in CPU time (Node + esbuild service), which competing load moves less. */
function cpuNote(samples: Samples, a: string, b: string): string {
  const r = samples.ratio(`${a}-cpu`, `${b}-cpu`)
  return `CPU time: ${a} ${fmt(samples.get(`${a}-cpu`).median)} vs ${b} ${fmt(samples.get(`${b}-cpu`).median)} = ${formatRatio(r.median)} (${formatRatio(r.min)} – ${formatRatio(r.max)})`
}

/** Where a cold build's time went (medians over the builds given). */
export function breakdownNote(results: ViteBuildResult[]): string[] {
  const med = (f: (r: ViteBuildResult) => number) => fmt(summarize(results.map(f)).median)
  const r = results[0]!
  return [
    `breakdown (medians): plugin buildStart ${med((x) => x.hooks.buildStart)} = scan + validate ${med((x) => x.phases.beforeEsbuild)}, ` +
      `esbuild span ${med((x) => x.phases.esbuildSpan)} (busy ${med((x) => x.esbuild.ms)}, ${r.esbuild.calls} call(s) for ${r.esbuild.tools} tools), after it ${med((x) => x.phases.afterEsbuild)}`,
    `load hooks ${med((x) => x.hooks.load)} (${r.hooks.loads} modules); rest of Vite (bundle, render, write ${r.outputFiles} files) ${med((x) => x.ms - x.hooks.buildStart - x.hooks.load)}`,
    `V8 syntax checks of tool files: ${r.syntaxChecks.worker} on the worker thread, ${r.syntaxChecks.here} on the main thread (while the worker starts)`,
  ]
}

export interface BuildBenchResult {
  figures: Figure[]
  /** Peak RSS of each cold build child (KiB), for the memory benchmark. */
  rssKb: number[]
  esbuildRssKb: number[]
}

/** Figure 2: a cold Vite build of 1,000 skills against esbuild alone and against the original's validation. */
export async function runBuildBench({ runs }: { runs: number }): Promise<BuildBenchResult> {
  const root = await generateSkills(BUILD_SKILLS)
  const bareRoot = await generateSkills(BUILD_SKILLS, `skills-${BUILD_SKILLS}-bare`, false, true)
  const app = join(TMP, 'app')
  const bareBuilds: ViteBuildResult[] = []
  const builds: ChildResult<ViteBuildResult>[] = []
  let originalErrors: string[] = []
  const peaks = { best: [] as number[], one: [] as number[] }
  const samples = new Samples()
  await rounds(
    runs,
    {
      vite: async () => {
        const r = await runChild<ViteBuildResult>('vite-build', { root, app, outDir: join(app, 'dist-cold') })
        builds.push(r)
        samples.add('compile', r.value.hooks.buildStart)
        samples.add('vite-cpu', r.value.cpuMs)
        return r.value.ms
      },
      esbuild: async () => {
        const r = await runChild<{ ms: number; cpuMs: number }>('esbuild-only', { root, mode: 'best' })
        samples.add('esbuild-cpu', r.value.cpuMs)
        if (r.esbuildRssKb) peaks.best.push(r.esbuildRssKb)
        return r.value.ms
      },
      viteBare: async () => {
        const r = await runChild<ViteBuildResult>('vite-build', { root: bareRoot, app, outDir: join(app, 'dist-cold') })
        bareBuilds.push(r.value)
        samples.add('viteBare-cpu', r.value.cpuMs)
        return r.value.ms
      },
      esbuildBare: async () => {
        const r = await runChild<{ ms: number; cpuMs: number }>('esbuild-only', { root: bareRoot, mode: 'best' })
        samples.add('esbuildBare-cpu', r.value.cpuMs)
        return r.value.ms
      },
      esbuildBatched: async () => {
        const r = await runChild<{ ms: number; cpuMs: number }>('esbuild-only', { root: bareRoot, mode: 'batched' })
        samples.add('esbuildBatched-cpu', r.value.cpuMs)
        return r.value.ms
      },
      esbuildOne: async () => {
        const r = await runChild<{ ms: number; cpuMs: number }>('esbuild-only', { root, mode: 'one' })
        samples.add('esbuildOne-cpu', r.value.cpuMs)
        if (r.esbuildRssKb) peaks.one.push(r.esbuildRssKb)
        return r.value.ms
      },
      original: async () => {
        const r = await runChild<{ ms: number; cpuMs: number; errors: string[] }>('original-validate', { root })
        originalErrors = r.value.errors
        samples.add('original-cpu', r.value.cpuMs)
        return r.value.ms
      },
    },
    samples,
  )
  const originalSamples = samples.get('original')
  const n = BUILD_SKILLS.toLocaleString('en-US')
  const tools = (BUILD_SKILLS * 2).toLocaleString('en-US')
  const viteMeasure = { label: 'vite', unit: 'ms' as const, value: samples.get('vite') }
  const pluginEsbuildKb = builds.flatMap((b) => (b.esbuildRssKb ? [b.esbuildRssKb] : []))
  const figures: Figure[] = [
    {
      bench: 'build',
      name: `cold Vite build, ${n} skills (half the browser tools ES modules) vs esbuild alone`,
      subject: viteMeasure,
      baseline: { label: 'esbuild', unit: 'ms', value: samples.get('esbuild') },
      ratio: samples.ratio('vite', 'esbuild'),
      ratioText: 'the time',
      goal: { text: 'within 1.5x of esbuild alone', met: samples.ratio('vite', 'esbuild').median <= 1.5 },
      notes: [
        ...breakdownNote(builds.map((b) => b.value)),
        `esbuild alone: the ${tools} browser tools minified, bare functions by transform, ES modules bundled in builds of ${ESBUILD_BATCH}, all concurrently, no source maps`,
        cpuNote(samples, 'vite', 'esbuild'),
        `esbuild service peak RSS: ${mib(pluginEsbuildKb)} in the Vite build, ${mib(peaks.best)} for esbuild alone`,
      ],
    },
    {
      bench: 'build',
      name: `cold Vite build, ${n} skills (bare-function browser tools only) vs esbuild alone`,
      subject: { label: 'vite', unit: 'ms', value: samples.get('viteBare') },
      baseline: { label: 'esbuild', unit: 'ms', value: samples.get('esbuildBare') },
      ratio: samples.ratio('viteBare', 'esbuildBare'),
      ratioText: 'the time',
      goal: { text: 'within 1.5x of esbuild alone', met: samples.ratio('viteBare', 'esbuildBare').median <= 1.5 },
      notes: [
        ...breakdownNote(bareBuilds),
        cpuNote(samples, 'viteBare', 'esbuildBare'),
        `esbuild alone with the bare tools ${EXPRESSION_BATCH} to a transform, as the plugin compiles them (not split again): ${fmt(samples.get('esbuildBatched').median)}, ${formatRatio(samples.ratio('esbuildBatched', 'esbuildBare').median)} the time of the baseline; the build's cost beyond it is validation and Vite`,
      ],
    },
    {
      bench: 'build',
      name: `cold Vite build vs esbuild alone, all tools in one build`,
      subject: viteMeasure,
      baseline: { label: 'esbuild', unit: 'ms', value: samples.get('esbuildOne') },
      ratio: samples.ratio('vite', 'esbuildOne'),
      ratioText: 'the time',
      notes: [
        `one esbuild build with ${tools} entry points: ${formatRatio(samples.ratio('esbuildOne', 'esbuild').median)} the time of the baseline above, esbuild peak RSS ${mib(peaks.one)}`,
        cpuNote(samples, 'vite', 'esbuildOne'),
      ],
    },
    {
      bench: 'build',
      name: `cold Vite build vs original's validation step`,
      subject: viteMeasure,
      baseline: { label: 'original', unit: 'ms', value: originalSamples },
      ratio: samples.ratio('vite', 'original'),
      ratioText: 'the time',
      notes: [
        `original: validateLearnings() reimplemented from the reference, sequential, imports (runs) ${BUILD_SKILLS * 2} Node tools; ${originalErrors.length ? `reported ${originalErrors.join('; ')}` : 'no errors'}`,
        cpuNote(samples, 'vite', 'original'),
      ],
    },
    {
      bench: 'build',
      name: `plugin compile (validate + bundle) vs original's validation`,
      subject: { label: 'compile', unit: 'ms', value: samples.get('compile') },
      baseline: { label: 'original', unit: 'ms', value: originalSamples },
      ratio: samples.ratio('compile', 'original'),
      ratioText: 'the time',
    },
  ]
  return { figures, rssKb: builds.map((b) => b.maxRssKb), esbuildRssKb: pluginEsbuildKb }
}

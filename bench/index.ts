/**
 * `npm run bench [-- --quick] [-- --only lookup,build,cached,small,rebuild,idle,cdp,size,types,memory,branches,validate,hostile,examples,tokens,eras,webmcp]`: runs the
 * benchmarks, prints one table and writes bench/results.json. Every figure is a ratio against a
 * baseline measured in the same run (median of the runs, with min and max).
 */
import { execFileSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { runBranchesBench } from './branches'
import { runBuildBench } from './build'
import { runCachedBench } from './cached'
import { runCdpBench } from './cdp'
import { runErasBench } from './eras'
import { HOSTILE_FULL, runHostileBench } from './hostile'
import { runExamplesBench } from './examples'
import { runIdleBench } from './idle'
import { runLookupBench } from './lookup'
import { type BuildPeaks, runMemoryBench } from './memory'
import { runRebuildBench } from './rebuild'
import { runSizeBench } from './size'
import { runSmallBench } from './small'
import { runTypesBench } from './types'
import { runTokensBench } from './tokens'
import { runValidateBench } from './validate'
import { runWebMcpBench } from './webmcp'
import { type Figure, errorSummary, renderTable } from './table'

const BENCHES = [
  'lookup',
  'build',
  'cached',
  'small',
  'rebuild',
  'idle',
  'cdp',
  'size',
  'types',
  'memory',
  'branches',
  'validate',
  'hostile',
  'examples',
  'tokens',
  'eras',
  'webmcp',
] as const
type BenchName = (typeof BENCHES)[number]

const FULL = {
  lookup: { sizes: [10, 1000, 10_000], runs: 5 },
  build: { runs: 5 },
  cached: { runs: 5 },
  small: { runs: 5 },
  rebuild: { sessions: 1, cycles: 3 },
  idle: { runs: 3 },
  cdp: { runs: 7, calls: 30 },
  types: { runs: 5 },
  memory: { sizes: [1000, 10_000] },
  branches: { runs: 5 },
  validate: { size: 50_000, runs: 3 },
  hostile: HOSTILE_FULL,
  examples: { runs: 3 },
  tokens: { runs: 5 },
  eras: { runs: 7, calls: 30 },
  webmcp: { runs: 7, calls: 30 },
}

const QUICK: typeof FULL = {
  lookup: { sizes: [10, 1000], runs: 3 },
  build: { runs: 2 },
  cached: { runs: 2 },
  small: { runs: 3 },
  rebuild: { sessions: 1, cycles: 1 },
  idle: { runs: 1 },
  cdp: { runs: 3, calls: 10 },
  types: { runs: 2 },
  memory: { sizes: [1000] },
  branches: { runs: 3 },
  validate: { size: 50_000, runs: 1 },
  hostile: { ...HOSTILE_FULL, runs: 2 },
  examples: { runs: 1 },
  tokens: { runs: 2 },
  eras: { runs: 3, calls: 10 },
  webmcp: { runs: 3, calls: 10 },
}

function options() {
  const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } } })
  const only = values.only
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const unknown = only?.filter((name) => !(BENCHES as readonly string[]).includes(name)) ?? []
  if (unknown.length) throw new Error(`unknown benchmark ${unknown.join(', ')}; choose from ${BENCHES.join(', ')}`)
  return { quick: values.quick, selected: (only ?? [...BENCHES]) as BenchName[] }
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, {
      cwd: import.meta.dirname,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim()
  } catch {
    return ''
  }
}

function machine(quick: boolean) {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    date: new Date().toISOString(),
    loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
    commit: git(['rev-parse', '--short', 'HEAD']),
    dirty: git(['status', '--porcelain', '--untracked-files=no']) !== '',
    mode: quick ? 'quick' : 'full',
  }
}

async function main(): Promise<void> {
  const { quick, selected } = options()
  const config = quick ? QUICK : FULL
  const info = machine(quick)
  const started = performance.now()
  const figures: Figure[] = []
  let buildPeaks: BuildPeaks | undefined
  const benches: Record<BenchName, () => Promise<Figure[]>> = {
    lookup: () => runLookupBench(config.lookup),
    build: async () => {
      const result = await runBuildBench(config.build)
      buildPeaks = { rssKb: result.rssKb, esbuildRssKb: result.esbuildRssKb }
      return result.figures
    },
    cached: () => runCachedBench(config.cached),
    small: () => runSmallBench(config.small),
    rebuild: () => runRebuildBench(config.rebuild),
    idle: () => runIdleBench(config.idle),
    cdp: () => runCdpBench(config.cdp),
    size: () => runSizeBench(),
    types: () => runTypesBench(config.types),
    memory: () => runMemoryBench({ sizes: config.memory.sizes, reuse: buildPeaks ? { 1000: buildPeaks } : undefined }),
    branches: () => runBranchesBench(config.branches),
    validate: () => runValidateBench(config.validate),
    hostile: () => runHostileBench(config.hostile),
    examples: () => runExamplesBench(config.examples),
    tokens: () => runTokensBench(config.tokens),
    eras: () => runErasBench(config.eras),
    webmcp: () => runWebMcpBench(config.webmcp),
  }
  console.log(
    `site-skills benchmarks (${info.mode}): ${info.cpu}, ${info.cores} cores, Node ${info.node}, load ${info.loadAverageAtStart.join(' ')}`,
  )
  for (const name of selected) {
    const t0 = performance.now()
    process.stdout.write(`  ${name}...`)
    try {
      figures.push(...(await benches[name]()))
    } catch (error) {
      figures.push({ bench: name, name: `${name} benchmark`, error: errorSummary(error) })
    }
    process.stdout.write(` ${((performance.now() - t0) / 1000).toFixed(1)} s\n`)
  }
  const durationMs = performance.now() - started
  console.log(`\n${renderTable(figures)}\n`)
  const missed = figures.filter((f) => f.goal && !f.goal.met).length
  const goals = figures.filter((f) => f.goal).length
  console.log(
    `${goals - missed} of ${goals} goals met; ${figures.filter((f) => f.error).length} figures failed; ${(durationMs / 1000).toFixed(0)} s in all`,
  )
  const results = {
    machine: {
      ...info,
      loadAverageAtEnd: loadavg().map((l) => Math.round(l * 100) / 100),
      durationMs: Math.round(durationMs),
    },
    figures,
  }
  await writeFile(join(import.meta.dirname, 'results.json'), `${JSON.stringify(results, null, 2)}\n`)
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error)
  process.exitCode = 1
})

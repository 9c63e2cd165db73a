import { join } from 'node:path'
import type { Plugin } from 'vite'
import { writeApp } from './app'
import { BUILD_SKILLS } from './build'
import { generateSkills } from './generate'
import { cpuMs } from './proc'
import { runChild } from './spawn'
import { Samples, rounds } from './stats'
import { type Figure, formatValue } from './table'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The watcher's first scan of 1,000 skills takes seconds (8 s on a loaded 2-core machine), its
 * folder count standing still for seconds in between: the scan is over at the first second that
 * uses less CPU time than this.
 */
const QUIET_SECOND_MS = 25
const SCAN_TIMEOUT_MS = 120_000
/** How long it is measured, idle. */
const WINDOW_MS = 10_000
/** The goal: what the plugin may add to an idle dev server's CPU time over the window (0.5% of a core). */
const GOAL_EXTRA_MS = 50

interface IdleResult {
  /** CPU time of the window: this process and esbuild's service. */
  cpuMs: number
  /** CPU time of the window: this process alone (the plugin's JavaScript runs here). */
  ownMs: number
}

interface IdleArgs {
  root: string
  app: string
  plugin: boolean
  windowMs: number
}

/**
 * Child task: a Vite dev server over the skills, left idle, and the CPU time it used (this
 * process and esbuild's service) over `windowMs`. With `plugin`, the module is served once first;
 * without, the same server watches the same learnings, so only what the plugin does differs.
 */
export async function devIdleTask(args: IdleArgs): Promise<IdleResult> {
  const { createServer } = await import('vite')
  const plugins = args.plugin ? [(await import('../src/vite')).default({ roots: args.root, dts: false }) as Plugin] : []
  await writeApp(args.app)
  const server = await createServer({
    root: args.app,
    configFile: false,
    logLevel: 'silent',
    plugins,
    server: { port: 0, host: '127.0.0.1', hmr: false },
  })
  try {
    await server.listen()
    server.watcher.add(args.root)
    if (args.plugin) await server.environments.ssr.transformRequest('virtual:site-skills')
    await quiet()
    const before = await cpuMs()
    const own = process.cpuUsage()
    await sleep(args.windowMs)
    const { user, system } = process.cpuUsage(own)
    return { cpuMs: (await cpuMs()) - before, ownMs: (user + system) / 1000 }
  } finally {
    await server.close()
  }
}

/** Resolves after the first second that used less than QUIET_SECOND_MS of CPU time (see there). */
async function quiet(): Promise<void> {
  for (const start = performance.now(); performance.now() - start < SCAN_TIMEOUT_MS; ) {
    const before = await cpuMs()
    await sleep(1000)
    if ((await cpuMs()) - before < QUIET_SECOND_MS) return
  }
  throw new Error('the dev server never went quiet')
}

/** Figure: an idle dev server at 1,000 skills, with the plugin against Vite alone watching the same files. */
export async function runIdleBench({
  runs,
  skills = BUILD_SKILLS,
  windowMs = WINDOW_MS,
}: {
  runs: number
  skills?: number
  windowMs?: number
}): Promise<Figure[]> {
  const root = await generateSkills(skills)
  const app = join(root, '..', 'app-idle')
  const samples = new Samples()
  const measure = (plugin: boolean) => async () => {
    const { value } = await runChild<IdleResult>('dev-idle', { root, app, plugin, windowMs } satisfies IdleArgs)
    samples.add(plugin ? 'plugin-own' : 'alone-own', value.ownMs)
    return value.cpuMs
  }
  await rounds(runs, { plugin: measure(true), alone: measure(false) }, samples)
  const extra = samples.get('plugin').median - samples.get('alone').median
  const ms = (v: number) => formatValue(v, 'ms')
  return [
    {
      bench: 'idle',
      name: `Vite dev server, ${skills.toLocaleString('en-US')} skills, idle ${windowMs / 1000} s: CPU time with the plugin vs Vite alone`,
      subject: { label: 'plugin', unit: 'ms', value: samples.get('plugin') },
      baseline: { label: 'vite', unit: 'ms', value: samples.get('alone') },
      ratio: samples.ratio('plugin', 'alone'),
      ratioText: 'the CPU time',
      goal: { text: `the plugin adds under ${ms(GOAL_EXTRA_MS)}`, met: extra < GOAL_EXTRA_MS },
      notes: [
        `the plugin adds ${ms(extra)} (medians) over ${windowMs / 1000} s, measured from the first quiet second (under ${QUIET_SECOND_MS} ms CPU) after the module was served and the watcher scanned the learnings (both servers watch them); CPU of the process and esbuild's service`,
        `the Node process alone: ${ms(samples.get('plugin-own').median)} with the plugin, ${ms(samples.get('alone-own').median)} without (the rest: esbuild's service process, which only the plugin's compile starts)`,
      ],
    },
  ]
}

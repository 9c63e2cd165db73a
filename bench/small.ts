import { readdir, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { TMP } from './generate'
import type { SmallBuildArgs, SmallBuildResult } from './small-task'
import { runChild } from './spawn'
import { Samples, rounds } from './stats'
import { type Figure, formatRatio, formatValue } from './table'

const REPO = resolve(import.meta.dirname, '..')
const WORK = join(TMP, 'small')

/** The goal: what the plugin adds to a small agent's `vite build`, as its user waits for it. */
const GOAL_EXTRA_MS = 100

const ms = (v: number) => formatValue(v, 'ms')

function args(mode: SmallBuildArgs['mode'], extra: Partial<SmallBuildArgs> = {}): SmallBuildArgs {
  return {
    mode,
    playground: join(REPO, 'playground'),
    learnings: join(REPO, 'learnings'),
    outDir: join(WORK, `dist-${mode}`),
    dts: join(WORK, 'site-skills.d.ts'),
    dir: join(WORK, 'served'),
    ...extra,
  }
}

/**
 * Figure 7, what most users feel: the playground agent over the six shipped skills, built as
 * `npm start` builds it, with the plugin against Vite building the same agent without it: the
 * modules the plugin generates written out once beforehand and reached through Vite's aliases.
 * Each build in a fresh process, timed from its start (loading Vite, and the plugin, included).
 */
export async function runSmallBench({ runs }: { runs: number }): Promise<Figure[]> {
  const dir = join(WORK, 'served')
  await rm(dir, { recursive: true, force: true })
  // Writes the modules for the builds without the plugin (and warms the disk cache); not counted.
  await runChild<SmallBuildResult>('small-build', args('plugin', { captureDir: dir }))
  // A user's second build: the persistent cache written by one build before, not counted.
  const cache = join(WORK, 'cache')
  await rm(cache, { recursive: true, force: true })
  await runChild<SmallBuildResult>('small-build', args('plugin', { cache }))
  const modules = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.js')).length
  const samples = new Samples()
  const bytes: Record<string, number> = {}
  const measure =
    (mode: SmallBuildArgs['mode'], key: string = mode, extra: Partial<SmallBuildArgs> = {}) =>
    async () => {
      const r = (await runChild<SmallBuildResult>('small-build', args(mode, extra))).value
      samples.add(`${key}-cpu`, r.cpuMs)
      samples.add(`${key}-build`, r.buildMs)
      if (mode === 'plugin') samples.add(`${key}-compile`, r.compileMs)
      bytes[key] = r.bytes
      return r.ms
    }
  const tasks = { plugin: measure('plugin'), cached: measure('plugin', 'cached', { cache }), alone: measure('alone') }
  await rounds(runs, tasks, samples)
  const skills = (await readdir(join(REPO, 'learnings'), { withFileTypes: true })).filter((d) => d.isDirectory())
  /** A build (`plugin` or `cached`) against Vite alone, with what the plugin adds in the medians. */
  const againstAlone = (key: string, name: string, notes: (extra: number) => string[]): Figure => {
    const extra = samples.get(key).median - samples.get('alone').median
    return {
      bench: 'small',
      name,
      subject: { label: key, unit: 'ms', value: samples.get(key) },
      baseline: { label: 'vite', unit: 'ms', value: samples.get('alone') },
      ratio: samples.ratio(key, 'alone'),
      ratioText: 'the time',
      goal: { text: `the plugin adds under ${ms(GOAL_EXTRA_MS)}`, met: extra < GOAL_EXTRA_MS },
      notes: notes(extra),
    }
  }
  return [
    againstAlone(
      'plugin',
      `small project: the playground agent (${skills.length} shipped skills), Vite build with the plugin vs without`,
      (extra) => [
        `the plugin adds ${ms(extra)} (medians); build() ${ms(samples.get('plugin-build').median)} vs ${ms(samples.get('alone-build').median)}, of which the plugin's buildStart (validate, bundle the browser tools, write the .d.ts) ${ms(samples.get('plugin-compile').median)}; the rest is starting Node and loading Vite (and the plugin)`,
        `without it: the same agent.ts, the ${modules} modules the plugin generated written out beforehand and reached through Vite's resolve.alias; output ${formatValue(bytes.plugin ?? 0, 'bytes')} with the plugin, ${formatValue(bytes.alone ?? 0, 'bytes')} without`,
        `CPU time (process and esbuild's service): ${ms(samples.get('plugin-cpu').median)} vs ${ms(samples.get('alone-cpu').median)} = ${formatRatio(samples.ratio('plugin-cpu', 'alone-cpu').median)}`,
      ],
    ),
    againstAlone(
      'cached',
      'small project: the same build with the persistent cache one build wrote vs without the plugin',
      (extra) => [
        `the plugin adds ${ms(extra)} (medians); build() ${ms(samples.get('cached-build').median)}, of which the plugin's buildStart (read the cache, check every input's stamp, the cross-skill rules) ${ms(samples.get('cached-compile').median)}; output ${formatValue(bytes.cached ?? 0, 'bytes')}`,
        `CPU time: ${ms(samples.get('cached-cpu').median)} vs ${ms(samples.get('alone-cpu').median)} = ${formatRatio(samples.ratio('cached-cpu', 'alone-cpu').median)}`,
      ],
    ),
  ]
}

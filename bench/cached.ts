import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { BUILD_SKILLS, type ViteBuildResult, breakdownNote } from './build'
import { TMP, generateSkills } from './generate'
import { runChild } from './spawn'
import { Samples, rounds } from './stats'
import { type Figure, formatRatio, formatValue } from './table'

/** The goal: a build in a new process with unchanged skills within this of Vite alone on the generated modules. */
const GOAL_OVER_VITE = 1.2

/**
 * Goal 2: builds in new processes over 1,000 unchanged skills with the persistent cache (`cache`
 * option), against Vite alone building the modules the plugin generated (written out once by a
 * capture build) and against the same build without the cache. Each round first builds with an
 * emptied cache (the first build a user makes, which writes it), then with the cache it wrote.
 */
export async function runCachedBench({
  runs,
  skills = BUILD_SKILLS,
}: {
  runs: number
  skills?: number
}): Promise<Figure[]> {
  const root = await generateSkills(skills)
  const app = join(TMP, 'app-cached')
  const cache = join(TMP, `cache-${skills}`)
  const served = join(TMP, `served-cached-${skills}`)
  await rm(cache, { recursive: true, force: true })
  await rm(served, { recursive: true, force: true })
  await runChild<ViteBuildResult>('vite-build', { root, app, outDir: join(app, 'dist'), cache, captureDir: served })
  const samples = new Samples()
  const cachedBuilds: ViteBuildResult[] = []
  const build = async (withCache: boolean) =>
    (
      await runChild<ViteBuildResult>('vite-build', {
        root,
        app,
        outDir: join(app, 'dist'),
        ...(withCache ? { cache } : {}),
      })
    ).value
  await rounds(
    runs,
    {
      cached: async () => {
        await rm(cache, { recursive: true, force: true })
        const first = await build(true)
        samples.add('first', first.ms)
        const cached = await build(true)
        cachedBuilds.push(cached)
        samples.add('cached-buildStart', cached.hooks.buildStart)
        return cached.ms
      },
      uncached: async () => (await build(false)).ms,
      alone: async () =>
        (
          await runChild<{ ms: number }>('vite-alone', {
            app: join(TMP, 'app-alone-cached'),
            outDir: join(TMP, 'app-alone-cached', 'dist'),
            dir: served,
          })
        ).value.ms,
    },
    samples,
  )
  const n = skills.toLocaleString('en-US')
  const ratio = samples.ratio('cached', 'alone')
  const ms = (name: string) => formatValue(samples.get(name).median, 'ms')
  return [
    {
      bench: 'cached',
      name: `Vite build in a new process, ${n} unchanged skills, persistent cache vs Vite alone on the generated modules`,
      subject: { label: 'cached', unit: 'ms', value: samples.get('cached') },
      baseline: { label: 'vite', unit: 'ms', value: samples.get('alone') },
      ratio,
      ratioText: 'Vite alone',
      goal: { text: `within ${GOAL_OVER_VITE}x of Vite alone`, met: ratio.median <= GOAL_OVER_VITE },
      notes: [
        ...breakdownNote(cachedBuilds).slice(0, 2),
        `Vite alone: the same app on the modules a build with the plugin generated, written out once and reached through resolve.alias`,
      ],
    },
    {
      bench: 'cached',
      name: `Vite build in a new process, ${n} unchanged skills: persistent cache vs none`,
      subject: { label: 'cached', unit: 'ms', value: samples.get('cached') },
      baseline: { label: 'no cache', unit: 'ms', value: samples.get('uncached') },
      ratio: samples.ratio('cached', 'uncached'),
      ratioText: 'the build without the cache',
      notes: [
        `the first build with an empty cache (which writes it): ${ms('first')}, ${formatRatio(samples.ratio('first', 'uncached').median)} the build without the cache`,
      ],
    },
  ]
}

import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Plugin } from 'vite'
import { BUILD_SKILLS } from './build'
import { generateSkills, skillId } from './generate'
import { runChild } from './spawn'
import { Samples } from './stats'
import type { Figure } from './table'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const UPDATE_TIMEOUT_MS = 30_000

/**
 * Child task: a Vite dev server over the skills; each round edits one browser tool and times how
 * long until the dev server serves the updated skill chunk (what an edit costs in `vite dev`).
 */
export async function devUpdateTask(args: {
  root: string
  app: string
  rounds: number
}): Promise<{ startMs: number; updates: number[] }> {
  const [{ createServer }, { default: siteSkills }] = await Promise.all([import('vite'), import('../src/vite')])
  const started = performance.now()
  const server = await createServer({
    root: args.app,
    configFile: false,
    logLevel: 'silent',
    plugins: [siteSkills({ roots: args.root, dts: false, cache: false }) as Plugin],
    server: { port: 0, host: '127.0.0.1', hmr: false, watch: {} },
  })
  await server.listen()
  const env = server.environments.ssr
  await env.transformRequest('virtual:site-skills')
  const startMs = performance.now() - started
  const updates: number[] = []
  try {
    for (let round = 0; round < args.rounds; round++) {
      const id = skillId(500 + round)
      const file = join(args.root, id, 'browser-tools/read-list.js')
      const marker = `dev-edit-${round}-${Date.now()}`
      await env.transformRequest(`virtual:site-skills/skill/${id}`)
      const text = await readFile(file, 'utf8')
      const t0 = performance.now()
      // A branch the minifier must keep, carrying the marker.
      await writeFile(file, text.replace('{', `{ if (args && args.__devEdit) return ${JSON.stringify(marker)};`))
      for (;;) {
        const code = (await env.transformRequest(`virtual:site-skills/skill/${id}`))?.code ?? ''
        if (code.includes(marker)) break
        if (performance.now() - t0 > UPDATE_TIMEOUT_MS) throw new Error(`the dev server never served the edit of ${id}`)
        await sleep(5)
      }
      updates.push(performance.now() - t0)
      await sleep(200)
    }
  } finally {
    await server.close()
  }
  return { startMs, updates }
}

/** Figure: the dev loop's warm update after one browser tool edit, against the cold build of this run. */
export async function runDevBench({ rounds, coldMs }: { rounds: number; coldMs: number[] }): Promise<Figure> {
  const root = await generateSkills(BUILD_SKILLS, 'dev-1000', true)
  const { value } = await runChild<{ startMs: number; updates: number[] }>('dev-update', {
    root,
    app: join(root, '..', 'app-dev'),
    rounds,
  })
  const samples = new Samples()
  value.updates.forEach((ms, i) => {
    samples.add('update', ms)
    samples.add('cold', coldMs[i % coldMs.length]!)
  })
  const ratio = samples.ratio('update', 'cold')
  return {
    bench: 'rebuild',
    name: 'Vite dev server: one browser tool edited, until the updated chunk is served',
    subject: { label: 'update', unit: 'ms', value: samples.get('update') },
    baseline: { label: 'cold build', unit: 'ms', value: samples.get('cold') },
    ratio,
    ratioText: 'the cold build',
    goal: { text: 'under 5% of the cold build (dev loop)', met: ratio.median < 0.05 },
    notes: [
      `dev server start with the module loaded: ${Math.round(value.startMs)} ms; debounce 30 ms, then only that skill revalidated and its tool recompiled`,
    ],
  }
}

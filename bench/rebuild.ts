import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Plugin } from 'vite'
import { viteConfig, writeApp } from './app'
import { BUILD_SKILLS } from './build'
import { type HookTimes, handlerOf, onLoaded, timeHooks } from './hooks'
import { TMP, TOOL_MARKER, generateSkills, skillId, writeSkill } from './generate'
import { runDevBench } from './dev'
import { cpuMs } from './proc'
import { runChild } from './spawn'
import { Samples, summarize } from './stats'
import { type Figure, formatRatio, formatValue } from './table'

type EditKind = 'tool' | 'manifest' | 'add'

interface EditSample {
  kind: EditKind
  /** From the write to the end of the rebuild (output written). */
  ms: number
  /** CPU time over the same span (this process and its esbuild service). */
  cpuMs: number
  /** Browser tools esbuild compiled for this rebuild. */
  esbuildTools: number
  hooks: HookTimes
  /** Rebuilds the edit caused (more than 1 when the watcher fired again). */
  rebuilds: number
  /** The edit is in the written output. */
  seen: boolean
  failed: boolean
}

interface WatchEvent {
  code: string
  result?: { close?: () => Promise<void> | void }
  error?: Error
}

interface RollupLikeWatcher {
  on(event: 'event', listener: (e: WatchEvent) => void): void
  close(): Promise<void>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const REBUILD_TIMEOUT_MS = 60_000
const SETTLE_MS = 400

/** Follows the watcher: waits for the end of the next build and counts builds started. */
function followBuilds(watcher: RollupLikeWatcher) {
  let starts = 0
  let ends = 0
  let waiting: ((e: { code: string; at: number }) => void)[] = []
  watcher.on('event', (e) => {
    if (e.code === 'START') starts++
    if (e.code === 'BUNDLE_END') void Promise.resolve(e.result?.close?.()).catch(() => undefined)
    if (e.code === 'END' || e.code === 'ERROR') {
      ends++
      const done = waiting
      waiting = []
      for (const w of done) w({ code: e.code, at: performance.now() })
    }
  })
  return {
    get starts() {
      return starts
    },
    /** Resolves once no build is running (or one never ends). */
    async idle(): Promise<void> {
      while (ends < starts) if ((await this.next()).code === 'TIMEOUT') return
    },
    next(timeoutMs = REBUILD_TIMEOUT_MS): Promise<{ code: string; at: number }> {
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ code: 'TIMEOUT', at: performance.now() }), timeoutMs)
        waiting.push((e) => {
          clearTimeout(timer)
          resolve(e)
        })
      })
    },
  }
}

/** Whether some output chunk has the text (a skill's data is in its own chunk, or its group's). */
async function outputHas(outDir: string, text: string): Promise<boolean> {
  const files = (await readdir(outDir)).filter((f) => f.endsWith('.js'))
  for (const file of files) if ((await readFile(join(outDir, file), 'utf8')).includes(text)) return true
  return false
}

/** The three edits of cycle `c`; each returns how to check that the output has it. */
function edits(
  root: string,
  outDir: string,
  skills: number,
  c: number,
): [EditKind, () => Promise<() => Promise<boolean>>][] {
  // At 1,000 skills: skill 100 + c has its tool edited, 300 + c its manifest; 1,001 + c is added.
  const [toolSkill, manifestSkill] = [Math.floor(skills / 10) + c, Math.floor((skills * 3) / 10) + c]
  const entry = () => readFile(join(outDir, 'entry.js'), 'utf8')
  return [
    [
      'tool',
      async () => {
        // Alternates an ES-module tool (even skill) and a bare function (odd skill).
        const id = skillId(toolSkill)
        const file = join(root, id, 'browser-tools/fill-search.js')
        await writeFile(file, (await readFile(file, 'utf8')).replace(`(${TOOL_MARKER})`, `(${TOOL_MARKER} edit ${c})`))
        return () => outputHas(outDir, `${TOOL_MARKER} edit ${c}`)
      },
    ],
    [
      'manifest',
      async () => {
        const file = join(root, skillId(manifestSkill), 'manifest.json')
        const manifest = JSON.parse(await readFile(file, 'utf8'))
        manifest.browserTools.read_list.description += ` (edited ${c})`
        await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`)
        return async () => (await entry()).includes(`(edited ${c})`)
      },
    ],
    [
      'add',
      async () => {
        // Written aside and moved in, so the watcher sees a complete skill at once.
        const index = skills + 1 + c
        const stage = join(TMP, `stage-${process.pid}-${c}`)
        await writeSkill(stage, index)
        await rename(join(stage, skillId(index)), join(root, skillId(index)))
        await rm(stage, { recursive: true, force: true })
        return async () => (await entry()).includes(skillId(index))
      },
    ],
  ]
}

export interface WatchSession {
  coldMs: number
  coldCpuMs: number
  edits: EditSample[]
  /** Rebuilds by Vite alone of the same generated modules, served from memory (one after each edit). */
  floorMs: number[]
  /** Modules the plugin served and their total size. */
  served: { modules: number; bytes: number }
}

/** Keeps the last code the plugin's load hook returned for each id. */
function captureLoads(plugin: Plugin): Map<string, string> {
  const codes = new Map<string, string>()
  onLoaded(plugin, (id, code) => codes.set(id, code))
  return codes
}

/**
 * The floor under any warm rebuild: a second watch build of the modules the plugin generated, served
 * as they are from memory by a plugin that does nothing else; a touch of its own entry rebuilds it.
 */
async function startFloor(app: string, plugin: Plugin, codes: Map<string, string>) {
  const { build } = await import('vite')
  const entry = await writeApp(app)
  const resolveId = handlerOf(plugin, 'resolveId') as unknown as (id: string) => string | undefined
  const served: Plugin = {
    name: 'bench-served',
    enforce: 'pre',
    resolveId: (id) => resolveId(id),
    load: (id) => codes.get(id),
  }
  const watcher = (await build(viteConfig(app, join(app, 'dist'), served, true))) as unknown as RollupLikeWatcher
  const builds = followBuilds(watcher)
  const first = await builds.next()
  if (first.code !== 'END') throw new Error(`the floor's first watch build ended with ${first.code}`)
  let touches = 0
  return {
    async rebuild(): Promise<number> {
      await sleep(SETTLE_MS)
      const t0 = performance.now()
      const ended = builds.next()
      await writeFile(entry, `${await readFile(entry, 'utf8')}// ${touches++}\n`)
      const end = await ended
      // A floor that did not rebuild is no floor: the row fails instead of reporting the timeout.
      if (end.code !== 'END') throw new Error(`a floor rebuild ended with ${end.code}`)
      return end.at - t0
    },
    close: () => watcher.close(),
  }
}

/** One watch session: the cold first build, then `cycles` rounds of the three edits. */
export async function rebuildTask(args: {
  root: string
  app: string
  outDir: string
  cycles: number
  /** The skills in `root` (BUILD_SKILLS unless said). */
  skills?: number
}): Promise<WatchSession> {
  const [{ build }, { default: siteSkills }, { probe, resetProbe }] = await Promise.all([
    import('vite'),
    import('../src/vite'),
    import('./esbuild-probe'),
  ])
  await writeApp(args.app)
  const timed = timeHooks(siteSkills({ roots: args.root, cache: false }) as Plugin)
  const codes = captureLoads(timed.plugin)
  const cpuStart = await cpuMs()
  const start = performance.now()
  const watcher = (await build(viteConfig(args.app, args.outDir, timed.plugin, true))) as unknown as RollupLikeWatcher
  const builds = followBuilds(watcher)
  const first = await builds.next()
  if (first.code !== 'END') throw new Error(`the first watch build ended with ${first.code}`)
  const coldMs = first.at - start
  const coldCpuMs = (await cpuMs()) - cpuStart
  const samples: EditSample[] = []
  const floorMs: number[] = []
  // Started after the cold build; one floor rebuild follows each edit, so both see the same load.
  const floor = await startFloor(`${args.app}-floor`, timed.plugin, codes)
  try {
    for (let c = 0; c < args.cycles; c++) {
      for (const [kind, edit] of edits(args.root, args.outDir, args.skills ?? BUILD_SKILLS, c)) {
        await sleep(SETTLE_MS)
        timed.reset()
        resetProbe()
        const startsBefore = builds.starts
        const cpu = await cpuMs()
        const t0 = performance.now()
        const ended = builds.next()
        const check = await edit()
        const end = await ended
        const sample = {
          kind,
          ms: end.at - t0,
          cpuMs: (await cpuMs()) - cpu,
          esbuildTools: probe.tools,
          hooks: { ...timed.times },
          failed: end.code !== 'END',
          seen: await check(),
        }
        // A second event for the same edit starts another build: wait for it too, untimed.
        await sleep(SETTLE_MS)
        await builds.idle()
        samples.push({ ...sample, rebuilds: builds.starts - startsBefore })
        floorMs.push(await floor.rebuild())
      }
    }
  } finally {
    await Promise.all([watcher.close(), floor.close()])
  }
  const served = { modules: codes.size, bytes: [...codes.values()].reduce((n, code) => n + Buffer.byteLength(code), 0) }
  return { coldMs, coldCpuMs, edits: samples, floorMs, served }
}

// ---- The benchmark (parent process) ----

const LABELS: Record<EditKind, string> = {
  tool: 'one browser tool edited',
  manifest: 'one manifest edited',
  add: 'one skill added',
}
const ms = (v: number) => `${Math.round(v).toLocaleString('en-US')} ms`

/** The generated modules of a build at BUILD_SKILLS skills and at FEWER_SKILLS (both above the grouping threshold). */
interface ModuleCounts {
  many: number
  fewer: number
}
const FEWER_SKILLS = 200

/**
 * The goal for a tool edit: under 10% of the cold build, or, as a watch build re-bundles
 * every module (the floor row), a module count that does not grow with the number of skills.
 */
function toolGoal(ratio: number, modules: ModuleCounts): { text: string; met: boolean } {
  return {
    text: 'under 10% of the cold build, or a module count that does not grow with the skills',
    met: ratio < 0.1 || modules.many === modules.fewer,
  }
}

function kindFigure(kind: EditKind, sessions: WatchSession[], modules: ModuleCounts): Figure {
  const samples = new Samples()
  const picked: EditSample[] = []
  for (const s of sessions) {
    for (const e of s.edits.filter((x) => x.kind === kind)) {
      picked.push(e)
      samples.add('warm', e.ms)
      samples.add('cold', s.coldMs)
      samples.add('warm-cpu', e.cpuMs)
      samples.add('cold-cpu', s.coldCpuMs)
    }
  }
  const med = (f: (e: EditSample) => number) => summarize(picked.map(f)).median
  const entries = [...new Set(picked.map((e) => e.esbuildTools))].sort((a, b) => a - b)
  const problems = [
    picked.some((e) => e.failed) ? 'a rebuild failed or timed out' : '',
    picked.some((e) => !e.seen) ? 'the edit was missing from the output after the rebuild' : '',
    picked.some((e) => e.rebuilds !== 1) ? `rebuilds per edit: ${picked.map((e) => e.rebuilds).join(', ')}` : '',
  ].filter(Boolean)
  const ratio = samples.ratio('warm', 'cold')
  const cpu = samples.ratio('warm-cpu', 'cold-cpu')
  return {
    bench: 'rebuild',
    name: `warm rebuild (Vite watch), ${LABELS[kind]}`,
    subject: { label: 'warm', unit: 'ms', value: samples.get('warm') },
    baseline: { label: 'cold', unit: 'ms', value: samples.get('cold') },
    ratio,
    ratioText: 'the cold build',
    ...(kind === 'tool' ? { goal: toolGoal(ratio.median, modules) } : {}),
    notes: [
      ...(kind === 'tool'
        ? [
            `generated modules: ${modules.many} at ${BUILD_SKILLS.toLocaleString('en-US')} skills, ${modules.fewer} at ${FEWER_SKILLS} (cold builds of the same app): what a watch rebuild re-bundles does not grow with the skills`,
          ]
        : []),
      `esbuild recompiled ${entries.join(' or ')} browser tool(s); breakdown (medians): plugin buildStart ${ms(med((e) => e.hooks.buildStart))}, ` +
        `load hooks ${ms(med((e) => e.hooks.load))} (${med((e) => e.hooks.loads)} modules), rest of Vite ${ms(med((e) => e.ms - e.hooks.buildStart - e.hooks.load))}`,
      `CPU time: warm ${ms(samples.get('warm-cpu').median)} vs cold ${ms(samples.get('cold-cpu').median)} = ${formatRatio(cpu.median)} (${formatRatio(cpu.min)} – ${formatRatio(cpu.max)})`,
      ...problems.map((p) => `PROBLEM: ${p}`),
    ],
  }
}

function floorFigure(sessions: WatchSession[]): Figure {
  const samples = new Samples()
  for (const s of sessions) {
    for (const f of s.floorMs) {
      samples.add('floor', f)
      samples.add('cold', s.coldMs)
    }
  }
  const { modules, bytes } = sessions[0]!.served
  return {
    bench: 'rebuild',
    name: 'floor: Vite alone rebuilding the same generated modules',
    subject: { label: 'floor', unit: 'ms', value: samples.get('floor') },
    baseline: { label: 'cold', unit: 'ms', value: samples.get('cold') },
    ratio: samples.ratio('floor', 'cold'),
    ratioText: 'the cold build',
    notes: [
      `the ${modules.toLocaleString('en-US')} modules the plugin generated (${formatValue(bytes, 'bytes')}) served from memory by a plugin that does nothing else; a touch of the entry triggers the rebuild`,
    ],
  }
}

/** Figure 3: warm rebuilds in Vite's watch mode after three kinds of edit, against the session's cold build. */
export async function runRebuildBench({ sessions, cycles }: { sessions: number; cycles: number }): Promise<Figure[]> {
  const results: WatchSession[] = []
  const app = join(TMP, 'app-watch')
  await mkdir(app, { recursive: true })
  for (let s = 0; s < sessions; s++) {
    const root = await generateSkills(BUILD_SKILLS, 'rebuild-1000', true)
    results.push((await runChild<WatchSession>('rebuild', { root, app, outDir: join(app, 'dist'), cycles })).value)
  }
  const dev = await runDevBench({ rounds: Math.max(3, cycles * 3), coldMs: results.map((r) => r.coldMs) })
  const fewerRoot = await generateSkills(FEWER_SKILLS)
  const fewer = await runChild<{ hooks: HookTimes }>('vite-build', {
    root: fewerRoot,
    app: join(TMP, 'app-modules'),
    outDir: join(TMP, 'app-modules', 'dist'),
  })
  const modules = { many: results[0]!.served.modules, fewer: fewer.value.hooks.loads }
  return [
    ...(['tool', 'manifest', 'add'] as const).map((kind) => kindFigure(kind, results, modules)),
    floorFigure(results),
    dev,
  ]
}

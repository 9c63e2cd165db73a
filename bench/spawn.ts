import { fork } from 'node:child_process'
import { readdir, readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { type Plugin, build } from 'esbuild'
import { TMP } from './generate'

const BENCH = import.meta.dirname
/** The compiler's browser-tool bundler: its esbuild calls are the ones counted. */
const BUNDLER = resolve(BENCH, '../src/compiler/bundle.ts')
/** Must sit directly in bench/.tmp: the compiler finds `runtime/` relative to its own file. */
const CHILD_FILE = join(TMP, 'child.mjs')
const CHILD_TIMEOUT_MS = 10 * 60_000

/** The bundler's `esbuild` import goes to the probe, which counts the tools it is asked to compile. */
const probePlugin: Plugin = {
  name: 'bench-esbuild-probe',
  setup(b) {
    b.onResolve({ filter: /^esbuild$/ }, (args) =>
      args.importer === BUNDLER ? { path: join(BENCH, 'esbuild-probe.ts') } : undefined,
    )
  },
}

let bundled: Promise<void> | undefined

/**
 * Child processes run plain `node` on a bundle of bench/child.ts (packages left external), so no
 * TypeScript loader hooks sit in the way of imports (the original's validation imports 2,000 files).
 */
function bundleChild(): Promise<void> {
  bundled ??= build({
    entryPoints: [join(BENCH, 'child.ts')],
    outfile: CHILD_FILE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
    plugins: [probePlugin],
  }).then(() => undefined)
  return bundled
}

/** What a child reports besides its task's result. */
export interface ChildResult<T> {
  value: T
  /** Peak resident set size of the child (KiB). */
  maxRssKb: number
  /** Peak resident set size of esbuild's service process, when one ran (KiB). */
  esbuildRssKb?: number
}

/** Runs a task of bench/child.ts in a fresh Node process and resolves with what it reports. */
export async function runChild<T>(task: string, args: object = {}): Promise<ChildResult<T>> {
  await bundleChild()
  const child = fork(CHILD_FILE, [task, JSON.stringify(args)], {
    execArgv: [],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  let output = ''
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000))
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  let message: { ok: true; result: ChildResult<T> } | { ok: false; error: string; maxRssKb: number } | undefined
  child.on('message', (m) => (message = m as typeof message))
  const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS)
  const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)))
  clearTimeout(timer)
  if (message?.ok) return message.result
  const why = message ? message.error : `exited with ${code} without a result`
  throw new ChildError(`${why}${output.trim() ? `\n${output.trim()}` : ''}`, message?.maxRssKb)
}

/** A task that failed in its child, with the child's peak RSS when it reported one. */
export class ChildError extends Error {
  constructor(
    message: string,
    readonly maxRssKb?: number,
  ) {
    super(message)
  }
}

/** Pids of this process's esbuild service processes (Linux /proc). */
async function esbuildPids(): Promise<string[]> {
  const tasks = await readdir('/proc/self/task').catch(() => [] as string[])
  const pids: string[] = []
  for (const task of tasks) {
    const children = (await readFile(`/proc/self/task/${task}/children`, 'utf8').catch(() => ''))
      .split(' ')
      .filter(Boolean)
    for (const pid of children)
      if ((await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim() === 'esbuild') pids.push(pid)
  }
  return pids
}

/** Peak RSS (KiB) of this process's esbuild service. */
export async function esbuildPeakKb(): Promise<number | undefined> {
  let peak: number | undefined
  for (const pid of await esbuildPids()) {
    const hwm = /VmHWM:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''))
    if (hwm) peak = Math.max(peak ?? 0, Number(hwm[1]))
  }
  return peak
}

const TICK_MS = 10

/**
 * CPU time (user + system, ms) used so far by this process and its esbuild service. On a shared
 * machine it moves far less than wall time when other work competes for the cores.
 */
export async function cpuMs(): Promise<number> {
  const own = process.cpuUsage()
  let ticks = 0
  for (const pid of await esbuildPids()) {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')).split(') ')[1]?.split(' ') ?? []
    ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0)
  }
  return (own.user + own.system) / 1000 + ticks * TICK_MS
}

import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { resolve } from 'node:path'
import { summarize } from './stats'
import { type Figure, errorSummary, formatValue } from './table'

const BIN = resolve(import.meta.dirname, '../bin/site-skills.js')
const LEARNINGS = resolve(import.meta.dirname, '../learnings')
/** Issue 38: `site-skills test` of learnings/ with 4 workers within 1/3 of the serial time. */
const GOAL_RATIO = 1 / 3
const WORKERS = 4

interface TestRun {
  ms: number
  /** CPU of the process and of the children it waited for (the browser), from /usr/bin/time. */
  cpuMs: number
  /**
   * The share of all cores busy during the run (every process, /proc/stat): unlike /usr/bin/time it
   * counts the renderer processes, which Chromium's zygote starts and reaps. Undefined off Linux.
   */
  busy?: number
  stdout: string
}

/** Busy and total jiffies of all cores since boot (the first line of /proc/stat), or undefined. */
function machineTicks(): { busy: number; total: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
    const total = fields.reduce((a, b) => a + b, 0)
    // idle and iowait are the 4th and 5th fields.
    return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total }
  } catch {
    return undefined
  }
}

/** `site-skills test --root learnings --json --workers N` in a fresh process, timed from spawn to exit. */
async function runTest(workers: number): Promise<TestRun> {
  const t0 = performance.now()
  const before = machineTicks()
  const args = [
    '-f',
    '%U %S',
    process.execPath,
    BIN,
    'test',
    '--root',
    LEARNINGS,
    '--json',
    '--workers',
    String(workers),
  ]
  const child = spawn('/usr/bin/time', args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)))
  const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)))
  const ms = performance.now() - t0
  const after = machineTicks()
  const busy = before && after ? (after.busy - before.busy) / (after.total - before.total) : undefined
  if (code !== 0) throw new Error(`site-skills test --workers ${workers} exited with ${code}: ${stderr.trim()}`)
  const [user, system] = stderr.trim().split('\n').pop()!.split(' ').map(Number)
  return { ms, cpuMs: ((user ?? 0) + (system ?? 0)) * 1000, stdout, ...(busy === undefined ? {} : { busy }) }
}

/**
 * `site-skills test` of the shipped skills with WORKERS workers against the same run serial
 * (`--workers 1`), alternating, `runs` times each; both must give the same JSON.
 */
export async function runExamplesBench(opts: { runs: number }): Promise<Figure[]> {
  const name = `site-skills test of learnings/: --workers ${WORKERS} vs --workers 1 (serial)`
  try {
    const serial: TestRun[] = []
    const parallel: TestRun[] = []
    for (let run = 0; run < opts.runs; run++) {
      serial.push(await runTest(1))
      parallel.push(await runTest(WORKERS))
      if (parallel.at(-1)!.stdout !== serial.at(-1)!.stdout)
        throw new Error(`--workers ${WORKERS} printed other results than --workers 1`)
    }
    const ratio = summarize(parallel.map((p, i) => p.ms / serial[i]!.ms))
    const examples = (JSON.parse(serial[0]!.stdout) as { results: unknown[] }).results.length
    const cpu = (runs: TestRun[]) => formatValue(summarize(runs.map((r) => r.cpuMs)).median, 'ms')
    const busyOf = (runs: TestRun[]) =>
      runs.every((r) => r.busy !== undefined) ? summarize(runs.map((r) => r.busy!)).median : undefined
    const [busySerial, busyParallel] = [busyOf(serial), busyOf(parallel)]
    const cores = availableParallelism()
    // Once the cores are full, workers only share them: the ratio cannot go below the serial run's
    // share of the machine over the share the workers reach.
    const busyNote =
      busySerial === undefined || busyParallel === undefined
        ? []
        : [
            `cores busy (every process, /proc/stat): serial ${(busySerial * 100).toFixed(0)}% of ${cores}, ` +
              `${WORKERS} workers ${(busyParallel * 100).toFixed(0)}%; with the cores full the ratio is at ` +
              `least ${busySerial.toFixed(2)}x here, and ${GOAL_RATIO.toFixed(2)}x needs ` +
              `${Math.ceil((busySerial * cores) / GOAL_RATIO)} cores`,
          ]
    return [
      {
        bench: 'examples',
        name,
        subject: { label: `${WORKERS} workers`, unit: 'ms', value: summarize(parallel.map((r) => r.ms)) },
        baseline: { label: 'serial', unit: 'ms', value: summarize(serial.map((r) => r.ms)) },
        ratio,
        ratioText: 'the serial time',
        goal: { text: `within ${GOAL_RATIO.toFixed(2)}x of the serial time`, met: ratio.median <= GOAL_RATIO },
        notes: [
          `${examples} examples, the same JSON both ways; ${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(1)} at the end`,
          `CPU (process and browser, /usr/bin/time): serial ${cpu(serial)}, ${WORKERS} workers ${cpu(parallel)}`,
          ...busyNote,
        ],
      },
    ]
  } catch (error) {
    return [{ bench: 'examples', name, error: errorSummary(error) }]
  }
}

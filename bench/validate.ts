import { spawn } from 'node:child_process'
import { readFile, readdir, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { TMP, generateSkills } from './generate'
import { bundleChild, runChild } from './spawn'
import { summarize } from './stats'
import { type Figure, errorSummary, formatValue } from './table'

const BIN = resolve(import.meta.dirname, '../bin/site-skills.js')
/** Goal 9 of issue 29: under these at 50,000 skills, or within 2x of the floor. */
const GOAL_MS = 5000
const GOAL_RSS_KB = 500 * 1024
const GOAL_OVER_FLOOR = 2
/** Files read at once by the floor (enough to keep the disk and the thread pool busy). */
const FLOOR_BATCH = 256

export interface FloorResult {
  files: number
  bytes: number
  manifests: number
}

/**
 * The floor of `validate`, in a child process: read every file of every skill folder under `root`
 * and parse every manifest with plain `JSON.parse` (no schema, no checks, no output).
 */
export async function validateFloorTask(args: { root: string }): Promise<FloorResult> {
  const result: FloorResult = { files: 0, bytes: 0, manifests: 0 }
  const skills = (await readdir(args.root, { withFileTypes: true })).filter((d) => d.isDirectory())
  const files: string[] = []
  for (const skill of skills) {
    const dir = join(args.root, skill.name)
    for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }))
      if (entry.isFile()) files.push(join(entry.parentPath, entry.name))
  }
  for (let i = 0; i < files.length; i += FLOOR_BATCH) {
    const batch = files.slice(i, i + FLOOR_BATCH)
    const texts = await Promise.all(batch.map((f) => readFile(f, 'utf8')))
    texts.forEach((text, k) => {
      result.files++
      result.bytes += text.length
      if (batch[k]!.endsWith('/manifest.json')) {
        JSON.parse(text)
        result.manifests++
      }
    })
  }
  return result
}

interface CliRun {
  ms: number
  maxRssKb: number
  code: number | null
  stdout: string
}

/**
 * `site-skills validate --root <root>` in a fresh process under /usr/bin/time, which reports the
 * child's peak RSS (getrusage, the same figure as the floor's `process.resourceUsage().maxRSS`).
 */
async function runCli(root: string, rssFile: string): Promise<CliRun> {
  await rm(rssFile, { force: true })
  const t0 = performance.now()
  const child = spawn('/usr/bin/time', ['-f', '%M', '-o', rssFile, process.execPath, BIN, 'validate', '--root', root], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  })
  let stdout = ''
  child.stdout.on('data', (c: Buffer) => (stdout = (stdout + c.toString()).slice(-4000)))
  child.stderr.on('data', (c: Buffer) => (stdout = (stdout + c.toString()).slice(-4000)))
  const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)))
  const ms = performance.now() - t0
  const maxRssKb = Number((await readFile(rssFile, 'utf8')).trim().split('\n').pop())
  return { ms, maxRssKb, code, stdout }
}

/**
 * `site-skills validate` of `size` generated skills against the floor measured in the same run.
 * Both sides are fresh processes timed from spawn to exit, alternating, `runs` times each.
 */
export async function runValidateBench(opts: { size: number; runs: number }): Promise<Figure[]> {
  const n = opts.size.toLocaleString('en-US')
  const timeName = `validate, ${n} skills: site-skills validate vs reading every file + JSON.parse of each manifest`
  const rssName = `peak RSS, validate, ${n} skills: site-skills validate vs the same floor`
  try {
    const root = await generateSkills(opts.size)
    await bundleChild()
    const rssFile = join(TMP, 'validate-rss.txt')
    const floorMs: number[] = []
    const floorKb: number[] = []
    const cliMs: number[] = []
    const cliKb: number[] = []
    let floor: FloorResult | undefined
    let cli: CliRun | undefined
    for (let run = 0; run < opts.runs; run++) {
      const t0 = performance.now()
      const f = await runChild<FloorResult>('validate-floor', { root })
      floorMs.push(performance.now() - t0)
      floorKb.push(f.maxRssKb)
      floor = f.value
      cli = await runCli(root, rssFile)
      if (cli.code !== 0) throw new Error(`site-skills validate exited with ${cli.code}: ${cli.stdout.trim()}`)
      cliMs.push(cli.ms)
      cliKb.push(cli.maxRssKb)
    }
    const ms = summarize(cliMs)
    const kb = summarize(cliKb)
    const timeRatio = summarize(cliMs.map((v, i) => v / floorMs[i]!))
    const rssRatio = summarize(cliKb.map((v, i) => v / floorKb[i]!))
    const read = `floor: ${floor!.files.toLocaleString('en-US')} files (${formatValue(floor!.bytes, 'bytes')}) read, ${floor!.manifests.toLocaleString('en-US')} manifests parsed, ${FLOOR_BATCH} reads at once; both sides fresh processes timed from spawn to exit`
    const said = `validate printed: ${cli!.stdout.trim().split('\n').pop() ?? ''}`
    return [
      {
        bench: 'validate',
        name: timeName,
        subject: { label: 'validate', unit: 'ms', value: ms },
        baseline: { label: 'floor', unit: 'ms', value: summarize(floorMs) },
        ratio: timeRatio,
        ratioText: 'the floor',
        goal: {
          text: `under ${formatValue(GOAL_MS, 'ms')}, or within ${GOAL_OVER_FLOOR}x of the floor`,
          met: ms.median < GOAL_MS || timeRatio.median <= GOAL_OVER_FLOOR,
        },
        notes: [read, said],
      },
      {
        bench: 'validate',
        name: rssName,
        subject: { label: 'validate', unit: 'kb-rss', value: kb },
        baseline: { label: 'floor', unit: 'kb-rss', value: summarize(floorKb) },
        ratio: rssRatio,
        ratioText: 'the floor',
        goal: {
          text: `under ${formatValue(GOAL_RSS_KB, 'kb-rss')}, or within ${GOAL_OVER_FLOOR}x of the floor`,
          met: kb.median < GOAL_RSS_KB || rssRatio.median <= GOAL_OVER_FLOOR,
        },
      },
    ]
  } catch (error) {
    return [
      { bench: 'validate', name: timeName, error: errorSummary(error) },
      { bench: 'validate', name: rssName, error: errorSummary(error) },
    ]
  }
}

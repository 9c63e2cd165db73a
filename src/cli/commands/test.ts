import type { SiteSkills } from '../../../runtime/index'
import type { CompileResult } from '../../compiler/compile'
import { type BrowserSpec, resolveBrowser } from '../../cdp/endpoint'
import { current, oneShot } from '../../nobuild/api'
import { type TestBrowser, openTestBrowser } from '../../examples/test-browser'
import { runLive } from '../../examples/live'
import { collectCases, resultOf, runOffline } from '../../examples/run-example'
import { type Shard, defaultWorkers, runInOrder, shardOf } from '../../examples/schedule'
import type { ExampleCase, ExampleResult } from '../../examples/example-case'
import { type CliIO, UsageError } from '../io'
import { browserChoice, cdpChoice } from '../cdp-choice'
import { compatOf } from '../roots'
import { reportFailure } from '../failure'
import { checkSkillIds, existingRoots } from '../compile-roots'
import { ownManifest } from '../../own/version'
import { changedFiles, createRecord, skillDigests, writeRecord } from '../../verification/record'
import { type Diagnostic, type DiagnosticInit, createDiagnostic } from '../../compiler/diagnostics/catalog'
import { isWriteFailure } from '../../compiler/fs/write-inside'
import { VERIFICATION_FILE } from '../../compiler/verification'
import type { Args } from '../command-table'
import { type Reporter, type Scope, printLine, printReport, scopeOf } from './test-report'

const USAGE = 'site-skills test [SITE...] [--live] [--cdp HOST:PORT|ws(s)://... [--cdp-header NAME:VALUE]...]'
const SHARD_RE = /^(\d+)\/(\d+)$/
/** More at once than this only queues: a browser has a few hundred connections' worth of tabs at most. */
const MOST_WORKERS = 64

/** How a run is carried out, from its options. */
interface RunPlan {
  workers: number
  shard?: Shard
  reporter: Reporter
  browser?: BrowserSpec
}

function workersOf(text: string | undefined): number {
  if (text === undefined) return defaultWorkers()
  const workers = Number(text)
  if (!/^\d+$/.test(text) || workers < 1 || workers > MOST_WORKERS)
    throw new UsageError(`--workers takes a number from 1 to ${MOST_WORKERS}, not ${JSON.stringify(text)}`)
  return workers
}

function shardOption(text: string | undefined): Shard | undefined {
  if (text === undefined) return undefined
  const match = SHARD_RE.exec(text)
  const [index, count] = match ? [Number(match[1]), Number(match[2])] : [0, 0]
  if (!match || count < 1 || index < 1 || index > count)
    throw new UsageError(
      `--shard takes I/N with 1 <= I <= N (--shard 2/3: the second of three parts), not ${JSON.stringify(text)}`,
    )
  return { index, count }
}

function reporterOf(args: Args<'test'>): Reporter {
  if (args.json && args.reporter !== undefined && args.reporter !== 'json')
    throw new UsageError(`--json is --reporter json: give one of them, not --json with --reporter ${args.reporter}`)
  return args.json ? 'json' : ((args.reporter as Reporter | undefined) ?? 'text')
}

function planOf(args: Args<'test'>): RunPlan {
  const shard = shardOption(args.shard)
  if (shard && args.record) throw new UsageError("--record writes each skill's whole record: run it without --shard")
  const choice = cdpChoice(args)
  return {
    workers: workersOf(args.workers),
    reporter: reporterOf(args),
    ...(shard ? { shard } : {}),
    ...(choice ? { browser: browserChoice(choice, USAGE) } : {}),
  }
}

/**
 * Runs the cases, `plan.workers` at a time, each browser example in a browser context of its own
 * in one browser; results come to `each` in the cases' order. An example that ran into a drop of
 * the browser's connection runs once more on the new one: its failure said nothing of the skill.
 */
async function runCases(
  cases: ExampleCase[],
  args: Args<'test'>,
  api: SiteSkills,
  plan: RunPlan,
  each: (r: ExampleResult) => void,
) {
  let opening: Promise<TestBrowser> | undefined
  const browserFor = async (c: ExampleCase) => {
    if (c.tool.kind !== 'browser') return undefined
    opening ??= (async () => openTestBrowser(plan.browser && (await resolveBrowser(plan.browser))))()
    return opening
  }
  const run = (c: ExampleCase, browser: TestBrowser | undefined) =>
    args.live ? runLive(c, api, browser!) : runOffline(c, api, browser)
  const one = async (c: ExampleCase) => {
    const browser = await browserFor(c)
    const drops = browser?.drops() ?? 0
    const dropped = async () => browser !== undefined && (await browser.droppedSince(drops))
    // Its tab could not even be opened (the connection went meanwhile): that too is the drop's.
    const first = await run(c, browser).catch(async (error: unknown) => {
      if (await dropped()) return undefined
      throw error
    })
    if (first && !(first.failure && (await dropped()))) return resultOf(c, first)
    return resultOf(c, await run(c, browser))
  }
  try {
    // Node examples first: with no browser alive yet, a call that nothing can settle is found.
    return await runInOrder(cases, plan.workers, one, each, (c) => (c.tool.kind === 'browser' ? 1 : 0))
  } finally {
    await (await opening?.catch(() => undefined))?.close()
  }
}

/**
 * `--record`, before the run: the digests of each skill whose examples run, by id. What the record
 * says held is what these files held; a file that changes during the run keeps it from being written.
 */
function digestsBefore(result: CompileResult, cases: readonly ExampleCase[]): Map<string, Record<string, string>> {
  const ids = new Set(cases.map((c) => c.siteId))
  return new Map(
    result.skills.filter(({ model }) => ids.has(model.id)).map(({ model }) => [model.id, skillDigests(model.realDir)]),
  )
}

/**
 * `--record`, after the run: each skill whose examples ran gets its verification.json (failures
 * included: the record says what held and what did not, and when), unless one of its files changed
 * since `before` or the record cannot be written there (`verification-unwritten`, for that skill alone).
 */
function recordSkills(
  result: CompileResult,
  results: readonly ExampleResult[],
  live: boolean,
  before: ReadonlyMap<string, Record<string, string>>,
) {
  const { name, version } = ownManifest()
  const written: string[] = []
  const refused: Diagnostic[] = []
  for (const { model } of result.skills) {
    const own = results.filter((r) => r.siteId === model.id)
    const files = before.get(model.id)
    if (own.length === 0 || !files) continue
    const refuse = (data: Extract<DiagnosticInit, { code: 'verification-unwritten' }>['data']) =>
      refused.push(
        createDiagnostic(model, `${model.id}/${VERIFICATION_FILE}`, { code: 'verification-unwritten', data }),
      )
    const changed = changedFiles(files, skillDigests(model.realDir))
    if (changed.length) {
      refuse({ problem: 'changed', files: changed })
      continue
    }
    const record = createRecord({
      siteId: model.id,
      dir: model.realDir,
      results: own,
      live,
      package: { name, version },
      files,
    })
    const path = writeRecord(model.realDir, record)
    if (isWriteFailure(path)) refuse({ problem: 'write', reason: path.message })
    else written.push(path)
  }
  return { written, refused }
}

/** The skills' errors and the skills without examples belong to one shard: the first. */
const NOTHING: Scope = { diagnostics: [], noExamples: [] }

/**
 * `site-skills test [SITE...]`: runs every example of the chosen skills (all by default) on its
 * fixture (`--live`: on the live page too), `--workers` at a time, one line per example (in the
 * examples' order, however they end) and a summary; `--shard I/N` runs the I-th of N parts. Exit 0
 * when every example passed; 1 when one failed, when a chosen skill has errors (its examples cannot
 * run), or when no example ran at all (as test runners do when they find no test; a shard left
 * empty is fine); 2 on bad usage. Only the chosen skills decide: a broken skill that was not named
 * does not.
 */
export async function testCommand(args: Args<'test'>, io: CliIO): Promise<number> {
  const roots = await existingRoots(args, io)
  const options = oneShot(roots, compatOf(args))
  const plan = planOf(args)
  try {
    const { result, api } = await current(options)
    checkSkillIds(
      args.positionals,
      result.records.map((r) => r.folder.id),
    )
    const scope = plan.shard && plan.shard.index > 1 ? NOTHING : scopeOf(result, args.positionals, io.cwd)
    const all = collectCases(result, args.positionals)
    const cases = plan.shard ? shardOf(all, plan.shard) : all
    const before = args.record ? digestsBefore(result, cases) : new Map()
    const results = await runCases(cases, args, api, plan, plan.reporter === 'text' ? printLine(io) : () => {})
    const failed = results.some((r) => r.status === 'fail')
    const ran = results.length > 0 || (plan.shard !== undefined && all.length > 0)
    const recorded = args.record ? recordSkills(result, results, args.live, before) : undefined
    const ok = !failed && scope.diagnostics.length === 0 && ran && !recorded?.refused.length
    printReport(io, plan.reporter, { ok, results, scope, roots, ...(recorded ? { recorded } : {}) })
    return ok ? 0 : 1
  } catch (error) {
    return reportFailure(io, error)
  }
}

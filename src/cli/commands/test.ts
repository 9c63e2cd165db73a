import type { SiteSkills } from '../../../runtime/index'
import type { CompileResult } from '../../compiler/compile'
import { current } from '../../nobuild/api'
import { type TestBrowser, openTestBrowser } from '../../examples/browser'
import { runLive } from '../../examples/live'
import { collectCases, resultOf, runOffline } from '../../examples/run'
import type { ExampleCase, ExampleResult } from '../../examples/types'
import { type CliIO, UsageError, writeLine } from '../args'
import { displayRoot } from '../roots'
import { compatOf } from '../roots'
import { reportFailure } from '../failure'
import { type Style, createStyle, plural } from '../format'
import { checkSkillIds, existingRoots } from '../session'
import { jsonReport } from './validate'
import { ownManifest } from '../../package/version'
import { createRecord, writeRecord } from '../../verification/record'
import type { Args } from '../registry'

const CDP_RE = /^(?:(?:\[[^\]]+\]|[^:/\s]+):\d+|wss?:\/\/[^/]+\/devtools\/browser\/\S+)$/

function line(result: ExampleResult, style: Style): string {
  const tokens = result.tokens === undefined ? '' : style.dim(`  ~${result.tokens.toLocaleString('en-US')} tokens`)
  const name = `${result.siteId} › ${result.tool} › ${result.example}${tokens}`
  if (result.status === 'pass') return `${style.bold('✔')} ${name}`
  return `${style.red('✖')} ${name}  ${style.red(result.kind ?? 'fail')}: ${result.message ?? ''}`
}

async function runCases(cases: ExampleCase[], args: Args<'test'>, api: SiteSkills, each: (r: ExampleResult) => void) {
  let browser: TestBrowser | undefined
  try {
    for (const c of cases) {
      if (c.tool.kind === 'browser') browser ??= await openTestBrowser(args.cdp)
      const verdict = args.live ? await runLive(c, api, browser!) : await runOffline(c, api, browser)
      each(resultOf(c, verdict))
    }
  } finally {
    await browser?.close()
  }
}

/**
 * `--record`: each skill whose examples ran gets its verification.json (failures included: the
 * record says what held and what did not, and when).
 */
async function recordSkills(result: CompileResult, results: readonly ExampleResult[], live: boolean) {
  const { name, version } = ownManifest()
  const written: string[] = []
  for (const { model } of result.skills) {
    const own = results.filter((r) => r.siteId === model.id)
    if (own.length === 0) continue
    const record = await createRecord({
      siteId: model.id,
      dir: model.realDir,
      results: own,
      live,
      package: { name, version },
    })
    written.push(await writeRecord(model.realDir, record))
  }
  return written
}

/** What decides the run besides the examples: the chosen skills' errors, and the chosen skills without examples. */
interface Scope {
  /** The errors of the chosen skills (of every skill when none is named), as `validate --json` lists them. */
  diagnostics: ReturnType<typeof jsonReport>['diagnostics']
  /** Chosen valid skills that have no example, with where their manifest is. */
  noExamples: { id: string; manifest: string }[]
}

function scopeOf(result: CompileResult, chosen: readonly string[], cwd: string): Scope {
  const counts = (id: string) => chosen.length === 0 || chosen.includes(id)
  const diagnostics = jsonReport(result, cwd).diagnostics.filter((d) => d.severity === 'error' && counts(d.siteId))
  const noExamples = result.skills
    .filter(({ model }) => counts(model.id) && !model.tools.some((t) => t.examples?.length))
    .map(({ model }) => ({ id: model.id, manifest: `${displayRoot(model.dir, cwd)}/manifest.json` }))
  return { diagnostics, noExamples }
}

/** The lines that say why the run failed although no example did, or what it left untested (stderr). */
function scopeLines(scope: Scope): string[] {
  const out: string[] = []
  const bySkill = new Map<string, number>()
  for (const d of scope.diagnostics) bySkill.set(d.siteId, (bySkill.get(d.siteId) ?? 0) + 1)
  for (const [id, n] of bySkill)
    out.push(
      id
        ? `site-skills: ${id} has ${plural(n, 'error')}, so its examples did not run; see site-skills validate`
        : `site-skills: ${plural(n, 'error')} in the roots; see site-skills validate`,
    )
  const [one, ...more] = scope.noExamples
  if (one && more.length === 0)
    out.push(
      `site-skills: ${one.id} has no examples: add "examples" to a tool in ${one.manifest} ` +
        `(site-skills snapshot URL --site ${one.id} --cdp HOST:PORT saves the page an example runs on)`,
    )
  else if (one)
    out.push(
      `site-skills: no examples in ${scope.noExamples.map((s) => s.id).join(', ')}: add "examples" to their tools ` +
        '(site-skills snapshot URL --site ID --cdp HOST:PORT saves the page an example runs on)',
    )
  return out
}

/**
 * `site-skills test [SITE...]`: runs every example of the chosen skills (all by default) on its
 * fixture (`--live`: on the live page too), one line per example and a summary. Exit 0 when every
 * example passed; 1 when one failed, when a chosen skill has errors (its examples cannot run), or
 * when no example ran at all (as test runners do when they find no test); 2 on bad usage. Only the
 * chosen skills decide: a broken skill that was not named does not.
 */
export async function testCommand(args: Args<'test'>, io: CliIO): Promise<number> {
  const roots = await existingRoots(args, io)
  const options = { roots, compat: compatOf(args), watch: false }
  if (args.cdp && !CDP_RE.test(args.cdp))
    throw new UsageError(
      `--cdp must be HOST:PORT or ws://HOST:PORT/devtools/browser/..., not ${JSON.stringify(args.cdp)}`,
    )
  try {
    const { result, api } = await current(options)
    checkSkillIds(
      args.positionals,
      result.records.map((r) => r.folder.id),
    )
    const scope = scopeOf(result, args.positionals, io.cwd)
    const style = createStyle(io.stdout as NodeJS.WriteStream)
    const results: ExampleResult[] = []
    await runCases(collectCases(result, args.positionals), args, api, (r) => {
      results.push(r)
      if (!args.json) writeLine(io.stdout, line(r, style))
    })
    const failed = results.filter((r) => r.status === 'fail').length
    const ok = failed === 0 && scope.diagnostics.length === 0 && results.length > 0
    const recorded = args.record ? await recordSkills(result, results, args.live) : []
    if (args.json) {
      // The keys beyond { ok, results } are there when they say why ok is false or what was left out.
      const extra = {
        ...(scope.diagnostics.length ? { diagnostics: scope.diagnostics } : {}),
        ...(scope.noExamples.length ? { noExamples: scope.noExamples.map((s) => s.id) } : {}),
        ...(args.record ? { recorded: recorded.map((path) => displayRoot(path, io.cwd)) } : {}),
      }
      writeLine(io.stdout, JSON.stringify({ ok, results, ...extra }, null, 2))
    } else {
      const summary = `${results.length - failed} passed, ${failed} failed (${plural(results.length, 'example')})`
      writeLine(io.stdout, ok ? summary : style.red(summary))
      for (const path of recorded) writeLine(io.stdout, style.dim(`recorded ${displayRoot(path, io.cwd)}`))
      for (const text of scopeLines(scope)) writeLine(io.stderr, text)
    }
    return ok ? 0 : 1
  } catch (error) {
    return reportFailure(io, error)
  }
}

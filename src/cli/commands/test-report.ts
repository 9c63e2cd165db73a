import { join } from 'node:path'
import { displayPath } from '../../compiler/diagnostics/report'
import type { CompileResult } from '../../compiler/compile'
import type { Diagnostic } from '../../compiler/diagnostics/catalog'
import { junitReport } from '../../examples/junit'
import type { ExampleResult } from '../../examples/example-case'
import { type CliIO, writeLine } from '../io'
import { type Style, createStyle, plural } from '../format'
import type { TEST_REPORTERS } from '../command-table'
import { givenRoots } from '../roots'
import type { Root } from '../../compiler/discover/roots'
import { jsonDiagnostic, jsonReport } from './validate'

/** What `test` prints on stdout (see TEST_REPORTERS). */
export type Reporter = (typeof TEST_REPORTERS)[number]

function line(result: ExampleResult, style: Style): string {
  const tokens = result.tokens === undefined ? '' : style.dim(`  ~${result.tokens.toLocaleString('en-US')} tokens`)
  const name = `${result.siteId} › ${result.tool} › ${result.example}${tokens}`
  if (result.status === 'pass') return `${style.bold('✔')} ${name}`
  return `${style.red('✖')} ${name}  ${style.red(result.kind ?? 'fail')}: ${result.message ?? ''}`
}

/** What decides the run besides the examples: the chosen skills' errors, and the chosen skills without examples. */
export interface Scope {
  /** The errors of the chosen skills (of every skill when none is named), as `validate --json` lists them. */
  diagnostics: ReturnType<typeof jsonReport>['diagnostics']
  /** Chosen valid skills that have no example, with where their manifest is. */
  noExamples: { id: string; manifest: string }[]
}

export function scopeOf(result: CompileResult, chosen: readonly string[], cwd: string): Scope {
  const counts = (id: string) => chosen.length === 0 || chosen.includes(id)
  const diagnostics = jsonReport(result, cwd).diagnostics.filter((d) => d.severity === 'error' && counts(d.siteId))
  const noExamples = result.skills
    .filter(({ model }) => counts(model.id) && !model.tools.some((t) => t.examples?.length))
    .map(({ model }) => ({
      id: model.id,
      manifest: `${displayPath(model.dir, cwd, givenRoots(result))}/manifest.json`,
    }))
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

/** A run's outcome, as the reporters print it. */
export interface RunReport {
  ok: boolean
  results: readonly ExampleResult[]
  scope: Scope
  /** The roots of the run, as given: how their files are shown. */
  roots: readonly Root[]
  /**
   * `--record` (undefined without it): the verification records written, and the records refused
   * (a file changed during the run, or the record could not be written).
   */
  recorded?: { written: readonly string[]; refused: readonly Diagnostic[] }
}

/** A record not written, on stderr: `site-skills: CODE: file: message`, then its hint. */
function refusalLine(d: Diagnostic, cwd: string, roots: readonly Root[]): string {
  return `site-skills: ${d.code}: ${displayPath(join(d.root, d.file), cwd, roots)}: ${d.message}\n  hint: ${d.hint}`
}

/** Prints the end of a run: the JSON or the XML (the text reporter printed its lines as they came). */
export function printReport(io: CliIO, reporter: Reporter, report: RunReport): void {
  const { ok, results, scope, recorded, roots } = report
  const diagnostics = [...scope.diagnostics, ...(recorded?.refused ?? []).map((d) => jsonDiagnostic(d, io.cwd, roots))]
  if (reporter === 'json') {
    // The keys beyond { ok, results } are there when they say why ok is false or what was left out.
    const extra = {
      ...(diagnostics.length ? { diagnostics } : {}),
      ...(scope.noExamples.length ? { noExamples: scope.noExamples.map((s) => s.id) } : {}),
      ...(recorded ? { recorded: recorded.written.map((path) => displayPath(path, io.cwd, roots)) } : {}),
    }
    writeLine(io.stdout, JSON.stringify({ ok, results, ...extra }, null, 2))
    return
  }
  if (reporter === 'junit') {
    const noExamples = scope.noExamples.map((s) => s.id)
    writeLine(io.stdout, junitReport({ results, errors: diagnostics, noExamples }))
    return
  }
  const style = createStyle(io.stdout as NodeJS.WriteStream)
  const failed = results.filter((r) => r.status === 'fail').length
  const summary = `${results.length - failed} passed, ${failed} failed (${plural(results.length, 'example')})`
  writeLine(io.stdout, ok ? summary : style.red(summary))
  for (const path of recorded?.written ?? [])
    writeLine(io.stdout, style.dim(`recorded ${displayPath(path, io.cwd, roots)}`))
  for (const text of scopeLines(scope)) writeLine(io.stderr, text)
  for (const d of recorded?.refused ?? []) writeLine(io.stderr, refusalLine(d, io.cwd, roots))
}

/** The text reporter's line for each result, as it comes (in the examples' order). */
export function printLine(io: CliIO): (result: ExampleResult) => void {
  const style: Style = createStyle(io.stdout as NodeJS.WriteStream)
  return (result) => writeLine(io.stdout, line(result, style))
}

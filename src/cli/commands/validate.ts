import type { CompileResult } from '../../compiler/compile'
import type { Diagnostic } from '../../compiler/diagnostics/catalog'
import { type CliIO, writeLine } from '../io'
import { givenRoots } from '../roots'
import type { Root } from '../../compiler/discover/roots'
import { createStyle, formatDiagnostic, plural } from '../format'
import { compileRoots } from '../compile-roots'
import type { Args } from '../command-table'
import { withVerification } from '../../verification/stale'
import { createFramer, displayPath } from '../../compiler/diagnostics/report'

/** `site-skills validate [DIR...]`: exit 0 without errors, 1 with any. */
export async function validateCommand(args: Args<'validate'>, io: CliIO): Promise<number> {
  const result = await withVerification(await compileRoots(args, io, args.positionals))
  if (args.json) {
    writeLine(io.stdout, JSON.stringify(jsonReport(result, io.cwd), null, 2))
    return result.errors === 0 ? 0 : 1
  }
  printReports(result, io)
  const style = createStyle(io.stdout as NodeJS.WriteStream)
  for (const scan of result.roots.filter((r) => r.skillFolder)) {
    const [folder] = scan.folders
    const shown = displayPath(scan.root, io.cwd, givenRoots(result))
    writeLine(io.stdout, style.dim(`${shown}/${folder?.id} is a skill folder: checked as the skill of root ${shown}`))
  }
  const counts = `${plural(result.errors, 'error')}, ${plural(result.warnings, 'warning')}`
  const summary = `${counts} in ${plural(result.records.length, 'skill')}`
  writeLine(io.stdout, result.errors ? style.red(summary) : `${style.bold('✔')} ${summary}`)
  return result.errors === 0 ? 0 : 1
}

/** Every skill's findings, grouped by skill, with code frames (skills without findings are not shown). */
export function printReports(result: CompileResult, io: CliIO): void {
  const style = createStyle(io.stdout as NodeJS.WriteStream)
  const roots = givenRoots(result)
  for (const report of result.reports) {
    if (report.diagnostics.length === 0) continue
    const shown = report.id ? displayPath(report.root, io.cwd, roots) : ''
    const bad = report.diagnostics.some((d) => d.severity === 'error')
    const title = report.id ? `${style.bold(report.id)}${style.dim(`  ${shown}/${report.id}`)}` : style.bold('roots')
    writeLine(io.stdout, `${bad ? style.red('✖') : style.yellow('!')} ${title}`)
    const framer = createFramer()
    for (const d of report.diagnostics) writeLine(io.stdout, formatDiagnostic(d, io.cwd, roots, style, framer))
    writeLine(io.stdout)
  }
}

/**
 * `--json`: `{ ok, skills, diagnostics }`. A diagnostic's `file` is relative to its `root`, which
 * is shown like the text output does (relative to the working directory when inside it); `data`
 * is what its code's message is made from (docs/codes.md), for programs to read instead of it.
 */
export function jsonReport(result: CompileResult, cwd: string) {
  const roots = givenRoots(result)
  const diagnostics = result.diagnostics.map((d) => jsonDiagnostic(d, cwd, roots))
  return { ok: result.errors === 0, skills: result.records.length, diagnostics }
}

/** One diagnostic as `--json` prints it (see jsonReport). */
export function jsonDiagnostic(d: Diagnostic, cwd: string, roots: readonly Root[]) {
  const { code, severity, data, siteId, file, line, column, message, hint } = d
  const root = displayPath(d.root, cwd, roots)
  return { code, severity, siteId, root, file, line, column, message, ...(hint ? { hint } : {}), data }
}

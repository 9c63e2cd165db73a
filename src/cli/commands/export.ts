import { join, resolve } from 'node:path'
import { createFramer, formatReport, displayPath } from '../../compiler/diagnostics/report'
import type { Diagnostic } from '../../compiler/diagnostics/catalog'
import { planAgentSkills } from '../../export/plan'
import { folderDrift } from '../../export/read'
import { ExportConflictError, writeAgentSkills } from '../../export/write'
import { packageVersion } from '../../own/version'
import { type CliIO, UsageError, writeLine } from '../io'
import { givenRoots } from '../roots'
import type { Root } from '../../compiler/discover/roots'
import type { Args } from '../command-table'
import { createStyle, formatDiagnostic, plural } from '../format'
import { checkSkillIds, compileRoots } from '../compile-roots'
import { exportWebMcp } from './export-webmcp'

const EXPORT_USAGE = 'site-skills export [SITE...] --agent-skills|--webmcp --out DIR [--check]'

function usageOf(args: Args<'export'>): { format: 'agent-skills' | 'webmcp'; out: string } {
  if (args['agent-skills'] && args.webmcp)
    throw new UsageError(`export writes one format, --agent-skills or --webmcp: ${EXPORT_USAGE}`)
  if (!args['agent-skills'] && !args.webmcp)
    throw new UsageError(`export needs a format, --agent-skills or --webmcp: ${EXPORT_USAGE}`)
  const format = args.webmcp ? 'webmcp' : 'agent-skills'
  if (!args.out) throw new UsageError(`export --${format} needs --out DIR: ${EXPORT_USAGE}`)
  if (args.check && args.webmcp) throw new UsageError(`--check is for --agent-skills: ${EXPORT_USAGE}`)
  return { format, out: args.out }
}

/**
 * `site-skills export [SITE...] --agent-skills --out DIR`: one Agent Skills folder per skill in DIR
 * (every valid skill, or the SITEs named). `--check` writes nothing: exit 1 when DIR's folders differ
 * from what the export writes (for CI, like `types` before `tsc`). `--webmcp`: a browser extension
 * in DIR (export-webmcp.ts).
 */
export async function exportCommand(args: Args<'export'>, io: CliIO): Promise<number> {
  const usage = usageOf(args)
  const out = resolve(io.cwd, usage.out)
  const result = await compileRoots(args, io, [], usage.format === 'webmcp')
  checkSkillIds(
    args.positionals,
    result.records.map((r) => r.folder.id),
  )
  // Only the chosen skills decide (as with `test SITE`): an unrelated broken skill does not stop the export.
  const chosen = (r: { id: string }) => !args.positionals.length || r.id === '' || args.positionals.includes(r.id)
  const reports = result.reports.filter(chosen)
  const errors = reports.flatMap((r) => r.diagnostics).filter((d) => d.severity === 'error').length
  if (errors > 0) {
    writeLine(
      io.stderr,
      formatReport(
        reports.flatMap((r) => r.diagnostics),
        io.cwd,
        givenRoots(result),
      ),
    )
    return 1
  }
  if (usage.format === 'webmcp') return exportWebMcp(result, out, args, io)
  const plan = await planAgentSkills(result, packageVersion(), args.positionals)
  printFindings(plan.diagnostics, io, givenRoots(result))
  if (plan.diagnostics.some((d) => d.severity === 'error')) return 1
  const shown = displayPath(out, io.cwd, givenRoots(result))
  if (args.check) {
    const drift = (await Promise.all(plan.folders.map((f) => folderDrift(join(out, f.name), f)))).flat()
    if (args.json) writeLine(io.stdout, JSON.stringify({ out: shown, ok: drift.length === 0, drift }, null, 2))
    else if (drift.length)
      writeLine(io.stderr, `site-skills: ${shown} is not what export writes:\n  ${drift.join('\n  ')}`)
    else writeLine(io.stdout, `${shown} is up to date (${plural(plan.folders.length, 'skill')})`)
    return drift.length ? 1 : 0
  }
  try {
    const replaced = await writeAgentSkills(out, plan.folders)
    const skills = plan.folders.map((f) => ({ id: f.id, name: f.name, files: f.files.length }))
    if (args.json) writeLine(io.stdout, JSON.stringify({ out: shown, skills, replaced }, null, 2))
    else
      writeLine(
        io.stdout,
        `wrote ${plural(skills.length, 'Agent Skills folder')} to ${shown}: ${skills.map((s) => s.name).join(', ')}`,
      )
    return 0
  } catch (error) {
    if (!(error instanceof ExportConflictError)) throw error
    writeLine(io.stderr, `site-skills: ${error.message}`)
    return 1
  }
}

/** The export's own findings (names), on stderr with their places. */
function printFindings(diagnostics: readonly Diagnostic[], io: CliIO, roots: readonly Root[]) {
  const style = createStyle(io.stderr as NodeJS.WriteStream)
  const framer = createFramer()
  for (const d of diagnostics) writeLine(io.stderr, formatDiagnostic(d, io.cwd, roots, style, framer))
}

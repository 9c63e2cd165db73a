import { basename, dirname } from 'node:path'
import { displayPath } from '../../compiler/diagnostics/report'
import type { CompileResult } from '../../compiler/compile'
import { planWebMcpExtension } from '../../export/webmcp-extension'
import { ExportConflictError, writeAgentSkills } from '../../export/write'
import { packageVersion } from '../../own/version'
import { type CliIO, writeLine } from '../io'
import { plural } from '../format'
import type { Args } from '../command-table'
import { givenRoots } from '../roots'

/**
 * `site-skills export [SITE...] --webmcp --out DIR`: the extension of export/webmcp-extension.ts written as
 * DIR (replacing only an earlier export's), and what it left out: Node tools, and skills without a
 * browser tool. Exit 1 when nothing is left to register, or DIR is not an earlier export's.
 */
export async function exportWebMcp(
  result: CompileResult,
  out: string,
  args: Args<'export'>,
  io: CliIO,
): Promise<number> {
  const plan = planWebMcpExtension(result, packageVersion(), args.positionals)
  const shown = displayPath(out, io.cwd, givenRoots(result))
  if (!plan.skills.length) {
    writeLine(io.stderr, 'site-skills: no browser tools to export: WebMCP tools run in the page, Node tools cannot')
    return 1
  }
  try {
    await writeAgentSkills(dirname(out), [{ ...plan.folder, name: basename(out) }])
  } catch (error) {
    if (!(error instanceof ExportConflictError)) throw error
    writeLine(io.stderr, `site-skills: ${error.message}`)
    return 1
  }
  const skills = plan.skills.map(({ id, tools, matches }) => ({ id, tools, matches }))
  if (args.json) {
    const report = { out: shown, skills, leftOut: { nodeTools: plan.nodeTools, skills: plan.empty } }
    writeLine(io.stdout, JSON.stringify(report, null, 2))
    return 0
  }
  const tools = skills.reduce((n, s) => n + s.tools.length, 0)
  const lines = [
    `wrote a WebMCP extension to ${shown}: ${plural(tools, 'browser tool')} of ${skills.map((s) => s.id).join(', ')}`,
  ]
  if (plan.nodeTools.length)
    lines.push(
      `left out ${plural(plan.nodeTools.length, 'Node tool')} (WebMCP tools run in the page): ` +
        `${plan.nodeTools.join(', ')}`,
    )
  if (plan.empty.length) lines.push(`left out skills without browser tools: ${plan.empty.join(', ')}`)
  lines.push(`load it with: chromium --enable-features=WebMCP --load-extension=${shown}`)
  writeLine(io.stdout, lines.join('\n'))
  return 0
}

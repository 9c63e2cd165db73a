import { isSiteToolError } from '../../../runtime/index'
import type { SiteSkills } from '../../../runtime/index'
import { current } from '../../nobuild/api'
import { type TestBrowser, openTestBrowser } from '../../testing/browser'
import { runLive } from '../../testing/live'
import { collectCases, resultOf, runOffline } from '../../testing/run'
import type { ExampleCase, ExampleResult } from '../../testing/types'
import { type CliIO, type ParsedArgs, UsageError, writeLine } from '../args'
import { type Style, createStyle, plural } from '../format'
import { existingRoots } from '../session'
import { compatOf } from '../args'

const CDP_RE = /^(?:(?:\[[^\]]+\]|[^:/\s]+):\d+|wss?:\/\/[^/]+\/devtools\/browser\/\S+)$/

function line(result: ExampleResult, style: Style): string {
  const name = `${result.siteId} › ${result.tool} › ${result.example}`
  if (result.status === 'pass') return `${style.bold('✔')} ${name}`
  return `${style.red('✖')} ${name}  ${style.red(result.kind ?? 'fail')}: ${result.message ?? ''}`
}

async function runCases(cases: ExampleCase[], args: ParsedArgs, api: SiteSkills, each: (r: ExampleResult) => void) {
  let browser: TestBrowser | undefined
  try {
    for (const c of cases) {
      if (c.tool.kind === 'browser') browser ??= await openTestBrowser(args.cdp)
      const failure = args.live ? await runLive(c, api, browser!) : await runOffline(c, api, browser)
      each(resultOf(c, failure))
    }
  } finally {
    await browser?.close()
  }
}

/**
 * `site-skills test [SITE...]`: runs every example of the chosen skills (all by default) on its
 * fixture (`--live`: on the live page too), one line per example and a summary; exit 1 on any
 * failure or a skill that does not compile.
 */
export async function testCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const roots = await existingRoots(args, io)
  const options = { roots, compat: compatOf(args), watch: false }
  if (args.cdp && !CDP_RE.test(args.cdp))
    throw new UsageError(
      `--cdp must be HOST:PORT or ws://HOST:PORT/devtools/browser/..., not ${JSON.stringify(args.cdp)}`,
    )
  const { result, api } = await current(options)
  const known = new Set(result.records.map((r) => r.folder.id))
  const unknown = args.positionals.filter((id) => !known.has(id))
  if (unknown.length)
    throw new UsageError(`no skill ${unknown.map((id) => JSON.stringify(id)).join(', ')} in the roots`)
  const cases = collectCases(result, args.positionals)
  const style = createStyle(io.stdout as NodeJS.WriteStream)
  const results: ExampleResult[] = []
  try {
    await runCases(cases, args, api, (r) => {
      results.push(r)
      if (!args.json) writeLine(io.stdout, line(r, style))
    })
  } catch (error) {
    // The browser could not be started or reached: no example can run.
    if (!isSiteToolError(error)) throw error
    writeLine(io.stderr, `site-skills: ${error.code}: ${error.message}`)
    return 1
  }
  const failed = results.filter((r) => r.status === 'fail').length
  const ok = failed === 0 && result.errors === 0
  if (args.json) writeLine(io.stdout, JSON.stringify({ ok, results }, null, 2))
  else {
    const summary = `${results.length - failed} passed, ${failed} failed (${plural(results.length, 'example')})`
    writeLine(io.stdout, failed ? style.red(summary) : summary)
  }
  if (result.errors)
    writeLine(io.stderr, `site-skills: ${plural(result.errors, 'error')} in the skills; see site-skills validate`)
  return ok ? 0 : 1
}

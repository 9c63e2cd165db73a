import type { CallToolResult } from '@modelcontextprotocol/server'
import { runLive } from '../../examples/live'
import { collectCases, resultOf, runOffline } from '../../examples/run-example'
import type { ExampleResult } from '../../examples/example-case'
import { AUTHOR } from './defs'
import { sandboxedTools } from './sandbox/sandboxed-tools'
import { stageSkill } from './stage'
import type { AuthorContext } from './author-context'
import { jsonResult, Refusal, shownDiagnostic, optionalText, textArg } from './author-results'

/** A drifted example's way back: open its page, save it again over its fixture, write the tool again. */
function repairOf(siteId: string, url: string | undefined, fixture: string | undefined) {
  const name = fixture?.replace(/^fixtures\//, '').replace(/\.html$/, '')
  return {
    steps: [
      ...(url ? [{ tool: 'site_skills_navigate', arguments: { url } }] : []),
      { tool: AUTHOR.snapshot, arguments: { site: siteId, ...(name ? { name } : {}) } },
      { tool: AUTHOR.writeTool, note: 'write the tool again against the fresh fixture; its example then runs on it' },
    ],
  }
}

/** `site_skills_test`: the examples of a served skill, on their fixtures and (`live`) on their live pages. */
export async function testSkill(
  context: AuthorContext,
  args: Record<string, unknown> | undefined,
): Promise<CallToolResult> {
  const siteId = textArg(args, 'site')
  const tool = optionalText(args, 'tool')
  const live = args?.live === true
  const state = await context.skills.current()
  const skill = state.skills.find((s) => s.model.id === siteId)
  const errors = state.errors.filter((d) => d.siteId === siteId).map(shownDiagnostic)
  if (!skill)
    throw new Refusal(
      'skill-not-found',
      `this server serves no skill ` +
        `${JSON.stringify(siteId)}${errors.length ? ` (${errors.length} error(s): see site-skills://problems)` : ''}`,
    )
  const cases = collectCases({ skills: [skill] }, [siteId]).filter((c) => tool === undefined || c.tool.name === tool)
  const results: (ExampleResult & { repair?: ReturnType<typeof repairOf> })[] = []
  const browser = cases.some((c) => c.tool.kind === 'browser') ? await context.browser() : undefined
  // Node tools run sandboxed, from a copy of the skill that holds no link out of it.
  const stage = cases.some((c) => c.tool.kind === 'node')
    ? stageSkill(context.dir, siteId, skill.model.realDir)
    : undefined
  try {
    const api = stage ? context.skills.apiOf([skill], sandboxedTools(stage.grants, skill.model.realDir)) : state.api
    for (const c of cases) {
      const verdict = live ? await runLive(c, api, browser!) : await runOffline(c, api, browser)
      const result = resultOf(c, verdict)
      results.push(
        result.kind === 'selector-drift'
          ? { ...result, repair: repairOf(siteId, c.example.url, c.example.fixture) }
          : result,
      )
    }
  } finally {
    stage?.remove()
  }
  const failed = results.filter((r) => r.status === 'fail').length
  const ok = failed === 0 && results.length > 0 && !state.kept.includes(siteId)
  return jsonResult({
    ok,
    live,
    results,
    passed: results.length - failed,
    failed,
    ...(state.kept.includes(siteId)
      ? { kept: 'the skill is invalid on disk; served as it last compiled', errors }
      : {}),
  })
}

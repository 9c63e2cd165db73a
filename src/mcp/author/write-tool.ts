import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { CallToolResult } from '@modelcontextprotocol/server'
import { isFixtureHeaderProblem, parseFixtureHeader } from '../../compiler/fixture-format/header'
import { FILE_LIMITS, isReadFailure, readRegularFile } from '../../compiler/fs/files'
import { collectCases } from '../../examples/run-example'
import { currentTab } from '../calls'
import type { AuthorContext, Caller } from './author-context'
import { type ExampleRun, runExample } from './examples'
import { locateSkill } from './skill-place'
import { jsonResult, objectArg, Refusal, shownDiagnostic, optionalText, textArg } from './author-results'
import { keepStaged } from './cross'
import type { TabInfo } from '../tabs'
import { type Change, commitChanges, type Stage, type StagedCompile, stageSkill } from './stage'

const TOOL_RE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/
const KIND_MAPS = { browser: 'browserTools', node: 'nodeTools' } as const

interface WriteToolInput {
  site: string
  tool: string
  kind: 'browser' | 'node'
  code: string
  description: string
  args: Record<string, unknown>
  returns: Record<string, unknown>
  example: Record<string, unknown>
  callable?: string
  tab?: string
}

function parseInput(args: Record<string, unknown> | undefined): WriteToolInput {
  const tool = textArg(args, 'tool')
  if (!TOOL_RE.test(tool))
    throw new Refusal(
      'invalid-args',
      `"tool" must be letters, digits and "_", starting with a letter, not ${JSON.stringify(tool)}`,
    )
  const kind = args?.kind
  if (kind !== 'browser' && kind !== 'node') throw new Refusal('invalid-args', '"kind" must be "browser" or "node"')
  const callable = optionalText(args, 'callable')
  const tab = optionalText(args, 'tab')
  return {
    site: textArg(args, 'site'),
    tool,
    kind,
    code: textArg(args, 'code'),
    description: textArg(args, 'description'),
    args: objectArg(args, 'args'),
    returns: objectArg(args, 'returns'),
    example: objectArg(args, 'example'),
    ...(callable ? { callable } : {}),
    ...(tab ? { tab } : {}),
  }
}

/** The newest fixtures/*.html of the staged skill, and the URL its header names. */
function newestFixture(skillDir: string): { fixture: string; url?: string } | undefined {
  let names: string[]
  try {
    names = readdirSync(join(skillDir, 'fixtures')).filter((n) => n.endsWith('.html'))
  } catch {
    return undefined
  }
  const newest = names
    .map((n) => ({ n, at: statSync(join(skillDir, 'fixtures', n)).mtimeMs }))
    .sort((a, b) => b.at - a.at || a.n.localeCompare(b.n))[0]
  return newest && fixtureOf(skillDir, `fixtures/${newest.n}`)
}

function fixtureOf(skillDir: string, fixture: string): { fixture: string; url?: string } {
  let url: string | undefined
  // Through the file guard: a fixture that is a FIFO or a link to /dev/zero is read as no fixture.
  const read = readRegularFile(join(skillDir, fixture), FILE_LIMITS.fixture)
  const header = isReadFailure(read) ? undefined : parseFixtureHeader(read.toString('utf8'))
  if (header && !isFixtureHeaderProblem(header)) url = header.header.url
  return { fixture, ...(url ? { url } : {}) }
}

/** The example as the manifest holds it, its fixture and URL filled in from the newest snapshot when absent. */
function exampleEntry(stage: Stage, input: WriteToolInput): Record<string, unknown> {
  const example: Record<string, unknown> = { args: {}, ...input.example }
  if (input.kind === 'node' && example.fixture === undefined) return example
  const found =
    typeof example.fixture === 'string' ? fixtureOf(stage.skillDir, example.fixture) : newestFixture(stage.skillDir)
  if (!found) return example
  return { ...example, fixture: found.fixture, ...(example.url === undefined && found.url ? { url: found.url } : {}) }
}

/** The tool file and the manifest with the tool's entry (the entry's other keys, like annotations, kept). */
function changesFor(stage: Stage, input: WriteToolInput): { changes: Change[]; file: string } {
  let manifest: Record<string, Record<string, Record<string, unknown>> | unknown>
  const read = readRegularFile(join(stage.skillDir, 'manifest.json'), FILE_LIMITS.manifest)
  if (isReadFailure(read)) throw new Refusal('manifest-unreadable', `${input.site}/manifest.json ${read.message}`)
  try {
    manifest = JSON.parse(read.toString('utf8'))
  } catch (error) {
    throw new Refusal(
      'manifest-unreadable',
      `${input.site}/manifest.json does not parse (${(error as Error).message}): fix it first`,
    )
  }
  const key = KIND_MAPS[input.kind]
  const other = KIND_MAPS[input.kind === 'browser' ? 'node' : 'browser']
  const tools = (manifest[key] ?? {}) as Record<string, Record<string, unknown>>
  const before = tools[input.tool]
  const dash = input.tool.replace(/_/g, '-')
  const file =
    typeof before?.path === 'string'
      ? before.path
      : `${input.kind === 'browser' ? 'browser-tools' : 'tools'}/${dash}.js`
  const entry: Record<string, unknown> = {
    ...before,
    description: input.description,
    path: file,
    ...(input.kind === 'node' ? { callable: input.callable ?? (before?.callable as string) ?? input.tool } : {}),
    args: input.args,
    returns: input.returns,
    examples: [exampleEntry(stage, input)],
  }
  const otherTools = manifest[other] as Record<string, unknown> | undefined
  if (otherTools && Object.hasOwn(otherTools, input.tool)) delete otherTools[input.tool]
  manifest[key] = { ...tools, [input.tool]: entry }
  const code = input.code.endsWith('\n') ? input.code : `${input.code}\n`
  const text = `${JSON.stringify(manifest, null, 2)}\n`
  return {
    changes: [
      { rel: file, data: code },
      { rel: 'manifest.json', data: text },
    ],
    file,
  }
}

/** The example runs of the written tool on the staged copy: on its fixture, then on the caller's tab. */
async function runExamples(
  context: AuthorContext,
  caller: Caller & { tab: TabInfo | undefined },
  stage: Stage,
  compiled: StagedCompile,
  input: WriteToolInput,
) {
  const { tab } = caller
  const cases = collectCases(compiled.result, [input.site]).filter((c) => c.tool.name === input.tool)
  const live = { tab, client: caller.client, tabs: context.tabs, signal: caller.signal }
  const runs: ExampleRun[] = []
  for (const c of cases) runs.push(...(await runExample(c, compiled.api, context.browser, live)))
  const shown = runs.map((r) => (r.message ? { ...r, message: stage.unstage(r.message) } : r))
  const failed = shown.filter((r) => r.status === 'fail').length
  const why = cases.length === 0 ? 'the example did not run (see diagnostics)' : failed ? `${failed} run(s) failed` : ''
  return { runs: shown, why }
}

/** `site_skills_write_tool`: the change is checked on a copy and written only when all of it passed. */
export async function writeTool(
  context: AuthorContext,
  caller: Caller,
  args: Record<string, unknown> | undefined,
): Promise<CallToolResult> {
  const input = parseInput(args)
  const place = locateSkill(context.dir, context.roots, input.site)
  if (!place.exists)
    throw new Refusal(
      'skill-not-found',
      `no skill ${input.site} in ${context.dir}: site_skills_snapshot makes one from your tab`,
    )
  const tab = await currentTab(caller.client, context.tabs, input.tab)
  return context.locked(input.site, async () => {
    const started = performance.now()
    const stage = stageSkill(context.dir, input.site, place.real)
    try {
      const { changes } = changesFor(stage, input)
      const refused = stage.apply(changes)
      if (refused) throw new Refusal(refused.code, refused.message)
      const compiled = await stage.compile(context.compat)
      const diagnostics = compiled.diagnostics.map(shownDiagnostic)
      const files = changes.map((c) => `${input.site}/${c.rel}`)
      const errors = diagnostics.filter((d) => d.severity === 'error')
      const refuse = (why: string, runs: unknown[] = [], more = diagnostics) =>
        jsonResult({ kept: false, files, diagnostics: more, runs, why: `${why}: nothing was written` }, true)
      if (errors.length) return refuse(`${errors.length} error(s)`)
      const { runs, why } = await runExamples(context, { ...caller, tab }, stage, compiled, input)
      if (why) return refuse(why, runs)
      const records = compiled.result.records
      const kept = await keepStaged(context, { records, siteId: input.site, real: place.real }, () => {
        const committed = commitChanges(context.dir, input.site, true, changes)
        if (committed) throw new Refusal(committed.code, committed.message)
      })
      const all = [...diagnostics, ...kept.findings]
      if (!kept.kept) return refuse(`${kept.errors} error(s) in the skills of every root together`, runs, all)
      const served = await context.servedName(input.site, input.tool)
      return jsonResult({
        kept: true,
        files,
        tool: served ?? null,
        ...(served ? {} : { note: `${input.site} is not served by this server (--allow/--deny)` }),
        diagnostics: all,
        runs,
        ms: Math.round(performance.now() - started),
      })
    } finally {
      stage.remove()
    }
  })
}

import { loadUrlPattern, type ValueSchema } from '../../../runtime/index'
import {
  type ArgsValidator,
  DEFAULT_RESULT_BUDGET,
  argsProblem,
  urlMatchesDomains,
  urlMatchesPaths,
  isRecord,
} from '../../../runtime/internal'
import type { ExampleModel } from '../model'
import type { JsonPath } from '../parse'
import { unsafeRelativePath } from '../fs/paths'
import { FILE_LIMITS, READ_FAILURE_CODES, inspectRegularFile } from '../fs/files'
import { type FolderValidation, report, reportAt, resolveSkillFile } from './folder-validation'
import { type FixtureUse, checkFixtureHeaders } from './fixture-headers'
import type { RecordedTokens } from '../verification'
import { checkExampleBudget, resultBudgetOf } from './result-budget'
import { type SchemaFinding, TOOL_KINDS, type ToolMapKey } from './schema'

type Json = Record<string, unknown>

const BROWSER_FIXTURE_RE = /^fixtures\/[^/]+\.html$/
const NODE_FIXTURE_RE = /^fixtures\/[^/]+\.(?:html|json|txt|xml)$/

/** One tool's examples, where they are and what the tool declares. */
interface ToolExamples {
  mapKey: ToolMapKey
  name: string
  schema: Json
  /** The skill's normalized domain patterns. */
  domains: readonly string[]
  /** Schema findings of the manifest: an example (or args) with one is not looked at further. */
  broken: (path: JsonPath) => boolean
  /** Where the skill's valid examples use a fixture, collected for the header check. */
  uses: FixtureUse[]
  /** The skill's and the tool's `urls` lists, as written: an example's url must match each. */
  scopes: string[][]
  /** The tool's result budget; absent when the runtime does not page its results (its own `cursor`). */
  budget?: number
  /** The result tokens `test --record` recorded for the skill's examples. */
  recorded?: RecordedTokens
}

/** A tool's result budget: its own, its skill's, else the runtime's default. */
const budgetOf = (schema: Json, manifest: Json) =>
  resultBudgetOf(schema.resultBudget).resultBudget ??
  resultBudgetOf(manifest.resultBudget).resultBudget ??
  DEFAULT_RESULT_BUDGET

/** Whether the runtime pages the tool's results: not when it declares its own `cursor` argument. */
const pagesResults = (schema: Json) => !isRecord(schema.args) || !Object.hasOwn(schema.args, 'cursor')

/** The example as messages name it: `browserTools.read.examples[0]`. */
const labelOf = (tool: ToolExamples, at: JsonPath) => `${tool.mapKey}.${tool.name}.examples[${at.at(-1)}]`

/** The tool's argument check (the runtime's), when its args schema is valid. */
function argsValidator(tool: ToolExamples): ArgsValidator | undefined {
  if (tool.broken([tool.mapKey, tool.name, 'args'])) return undefined
  const args = isRecord(tool.schema.args) ? (tool.schema.args as Record<string, ValueSchema>) : {}
  return (value) => argsProblem(args, value)
}

/** Checks `url`: an http(s) address on one of the skill's domains; required for browser tools. */
function checkUrl(check: FolderValidation, tool: ToolExamples, at: JsonPath, example: Json): boolean {
  const url = example.url
  if (url === undefined) {
    if (tool.mapKey === 'nodeTools' && example.fixture === undefined) return true
    const kind = tool.mapKey === 'browserTools' ? 'browser' : 'fixture'
    reportAt(check, at, { code: 'example-url', data: { example: labelOf(tool, at), problem: 'required', kind } })
    return false
  }
  if (typeof url !== 'string') return false
  if (!urlMatchesDomains(url, tool.domains)) {
    const data = { example: labelOf(tool, at), problem: 'domain', url, domains: tool.domains } as const
    reportAt(check, [...at, 'url'], { code: 'example-url', data })
    return false
  }
  const scopes = tool.scopes.filter((s) => !pathsAdmit(url, s))
  if (scopes.length === 0) return true
  const data = { example: labelOf(tool, at), problem: 'path', url, urls: scopes.flat() } as const
  reportAt(check, [...at, 'url'], { code: 'example-url', data })
  return false
}

/** A `urls` list as written, when it is a list of strings (whether they compile is checkUrls' question). */
const urlsList = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.length && value.every((p) => typeof p === 'string' && p !== '') ? value : undefined

/** Whether `url`'s path matches a list; a list holding an invalid pattern (reported as url-pattern) admits all. */
function pathsAdmit(url: string, list: readonly string[]): boolean {
  try {
    return urlMatchesPaths(url, [list])
  } catch {
    return true
  }
}

/** Checks `fixture`: fixtures/<name>.html inside the skill, existing; required for browser tools. */
async function checkFixture(check: FolderValidation, tool: ToolExamples, at: JsonPath, example: Json) {
  const label = labelOf(tool, at)
  const fixture = example.fixture
  if (fixture === undefined) {
    if (tool.mapKey === 'nodeTools') return { ok: true }
    reportAt(check, at, { code: 'example-fixture', data: { example: label, problem: 'required' } })
    return { ok: false }
  }
  if (typeof fixture !== 'string') return { ok: false }
  const where = [...at, 'fixture']
  if (unsafeRelativePath(fixture) === 'escape') {
    reportAt(check, where, { code: 'path-escape', data: { via: 'fixture', example: label } })
    return { ok: false }
  }
  const shape = tool.mapKey === 'browserTools' ? BROWSER_FIXTURE_RE : NODE_FIXTURE_RE
  if (unsafeRelativePath(fixture) || !shape.test(fixture)) {
    const kind = tool.mapKey === 'browserTools' ? 'browser' : 'node'
    reportAt(check, where, { code: 'example-fixture', data: { example: label, problem: 'shape', kind } })
    return { ok: false }
  }
  const real = await resolveSkillFile(check, fixture, (directory) => ({
    code: 'example-fixture',
    data: { example: label, problem: 'not-found', fixture, directory },
  }))
  if (typeof real !== 'string') {
    reportAt(check, where, real)
    return { ok: false }
  }
  // `test` serves it whole: a regular file within its limit, as every file of a skill (a pipe would hang it).
  const failure = inspectRegularFile(real, FILE_LIMITS.fixture)
  if (failure) {
    const data = { subject: { kind: 'fixture', name: fixture } as const, reason: failure.message }
    // A fixture used by several examples is reported once.
    const code = READ_FAILURE_CODES[failure.problem]
    if (!check.diagnostics.some((d) => d.code === code && d.file === `${check.folder.id}/${fixture}`))
      report(check, fixture, { code, data })
    return { ok: false }
  }
  return { ok: true, fixture, fixturePath: real }
}

async function checkExample(
  check: FolderValidation,
  tool: ToolExamples,
  index: number,
  example: Json,
  validate: ArgsValidator | undefined,
): Promise<ExampleModel | undefined> {
  const at: JsonPath = [tool.mapKey, tool.name, 'examples', index]
  const args = example.args as Json
  const problem = validate?.(args)
  if (problem) {
    const [argument, expected, given] = problem
    const data = { example: labelOf(tool, at), argument, expected, given }
    reportAt(check, [...at, 'args'], { code: 'example-args', data })
  }
  const urlOk = checkUrl(check, tool, at, example)
  const fixture = await checkFixture(check, tool, at, example)
  if (problem || !urlOk || !fixture.ok) return undefined
  if (tool.budget !== undefined) checkExampleBudget(check, at, example, tool)
  if (fixture.fixture && typeof example.url === 'string')
    tool.uses.push({
      example: labelOf(tool, at),
      url: example.url,
      fixture: fixture.fixture,
      real: fixture.fixturePath,
    })
  return {
    name: typeof example.name === 'string' ? example.name : `#${index + 1}`,
    args,
    ...(typeof example.url === 'string' ? { url: example.url } : {}),
    ...(fixture.fixture ? { fixture: fixture.fixture, fixturePath: fixture.fixturePath } : {}),
    ...(Object.hasOwn(example, 'expect') ? { expect: { value: example.expect } } : {}),
  }
}

/** Names must be unique within a tool (they name results of `site-skills test`). */
function checkNames(check: FolderValidation, tool: ToolExamples, list: unknown[]): void {
  const seen = new Set<string>()
  list.forEach((example, index) => {
    if (!isRecord(example) || typeof example.name !== 'string') return
    if (seen.has(example.name)) {
      const at = [tool.mapKey, tool.name, 'examples', index]
      const data = { example: labelOf(tool, at), problem: 'duplicate-name', name: example.name } as const
      reportAt(check, [...at, 'name'], { code: 'example-invalid', data })
    }
    seen.add(example.name)
  })
}

async function checkToolExamples(check: FolderValidation, tool: ToolExamples): Promise<ExampleModel[]> {
  const list = tool.schema.examples
  if (!Array.isArray(list)) return []
  checkNames(check, tool, list)
  const validate = argsValidator(tool)
  const found = await Promise.all(
    list.map((example, index) =>
      isRecord(example) && isRecord(example.args) && !tool.broken([tool.mapKey, tool.name, 'examples', index])
        ? checkExample(check, tool, index, example, validate)
        : undefined,
    ),
  )
  return found.filter((e): e is ExampleModel => e !== undefined)
}

/**
 * Checks every tool's `examples` (their shape was checked by the schema): args against the
 * tool's generated validator, `url` against the skill's domains, `fixture` a file of the skill.
 * Tools in `badTools` (`mapKey\0name`: a bad name or path) are skipped. Returns the valid
 * examples by `mapKey\0name`.
 */
export async function checkExamples(
  check: FolderValidation,
  manifest: Json,
  skill: { domains: readonly string[]; recorded?: RecordedTokens },
  findings: readonly SchemaFinding[],
  badTools: ReadonlySet<string>,
): Promise<Map<string, ExampleModel[]>> {
  const { domains } = skill
  // A finding at or below `path`.
  const broken = (path: JsonPath) => findings.some((f) => path.every((key, i) => String(f.path[i]) === String(key)))
  const out = new Map<string, ExampleModel[]>()
  const uses: FixtureUse[] = []
  const skillUrls = urlsList(manifest.urls)
  let loaded = false
  for (const mapKey of TOOL_KINDS) {
    const map = manifest[mapKey]
    if (!isRecord(map)) continue
    for (const [name, schema] of Object.entries(map)) {
      if (!isRecord(schema) || badTools.has(`${mapKey}\0${name}`)) continue
      const scopes = [skillUrls, urlsList(schema.urls)].filter((u): u is string[] => u !== undefined)
      if (scopes.length && !loaded) await loadUrlPattern().then(() => (loaded = true))
      const budget = pagesResults(schema) ? { budget: budgetOf(schema, manifest), recorded: skill.recorded } : {}
      const examples = await checkToolExamples(check, {
        mapKey,
        name,
        schema,
        domains,
        broken,
        uses,
        scopes,
        ...budget,
      })
      if (examples.length) out.set(`${mapKey}\0${name}`, examples)
    }
  }
  checkFixtureHeaders(check, uses)
  return out
}

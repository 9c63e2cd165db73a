import type { SiteSkills } from '../../runtime/index'
import { type ArgsValidator, DEFAULT_RESULT_BUDGET, resultProblem } from '../../runtime/internal'
import type { CompileResult } from '../compiler/compile'
import { FILE_LIMITS, isReadFailure, readRegularFile } from '../compiler/fs/files'
import { isFixtureHeaderProblem } from '../compiler/fixture-format/header'
import { parseRecording } from '../compiler/fixture-format/recording'
import type { TestBrowser } from './test-browser'
import { callFailure, judge } from './judge'
import { type ExampleNetwork, withoutNetwork } from './node-network'
import { fixtureRule, navigate } from './fixture-page'
import type { ExampleCase, ExampleResult, Outcome, Verdict } from './example-case'

const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  json: 'application/json',
  txt: 'text/plain; charset=utf-8',
  xml: 'application/xml',
}

const contentTypeOf = (file: string) => CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1)] ?? 'text/plain'

/** Every example of the chosen skills (all when `sites` is empty), Node tools first, in manifest order. */
export function collectCases(result: Pick<CompileResult, 'skills'>, sites: readonly string[]): ExampleCase[] {
  const cases: ExampleCase[] = []
  for (const { model } of result.skills) {
    if (sites.length && !sites.includes(model.id)) continue
    for (const tool of model.tools) {
      if (!tool.examples?.length) continue
      // A tool without a usable returns (served by the no-build API as the original ran it) has no contract.
      const returns = tool.returns
      const checkReturns: ArgsValidator = returns?.type ? (value) => resultProblem(returns, value) : () => undefined
      const budget = Object.hasOwn(tool.args, 'cursor')
        ? {}
        : { budget: tool.resultBudget ?? model.resultBudget ?? DEFAULT_RESULT_BUDGET }
      for (const example of tool.examples)
        cases.push({ siteId: model.id, domains: model.domains, tool, example, checkReturns, ...budget })
    }
  }
  return cases
}

/**
 * A fixture's bytes, read by the rules validation read it with: a file swapped since for a named
 * pipe, a device or a huge one fails the example at once instead of hanging `test`.
 */
export function readFixture(path: string): Buffer<ArrayBuffer> {
  const read = readRegularFile(path, FILE_LIMITS.fixture)
  if (isReadFailure(read)) throw new Error(`fixture ${JSON.stringify(path)} ${read.message}`)
  // Node's buffers are views of ArrayBuffers (never shared memory): a fetch body, as readFile's is.
  return read as Buffer<ArrayBuffer>
}

/** What `ctx.fetch` answers: request URL -> body and its content type. */
type Served = Map<string, { body: BodyInit; type: string }>

/**
 * A recording (a `.json` fixture with a `"site-skills fixture"` header) answers each of its
 * `responses`: JSON bodies serialized (application/json), strings as they are (text/plain). Any
 * other fixture file answers `url`, typed by its extension.
 */
async function servedBy(fixture: string, path: string, url: string | undefined): Promise<Served> {
  const raw = readFixture(path)
  const recording = fixture.endsWith('.json') ? parseRecording(raw.toString('utf8')) : undefined
  if (!recording || isFixtureHeaderProblem(recording))
    return new Map(url ? [[new URL(url).href, { body: raw, type: contentTypeOf(fixture) }]] : [])
  const answer = (body: unknown) =>
    typeof body === 'string'
      ? { body, type: CONTENT_TYPES.txt! }
      : { body: JSON.stringify(body), type: CONTENT_TYPES.json! }
  return new Map(recording.responses.map((r) => [new URL(r.url).href, answer(r.body)]))
}

/**
 * What a Node tool example reaches: `fetch` answers what the fixture serves and fails every other
 * request (no network); the process's own `fetch`, `http` and `https` do the same while the
 * example runs, and every other way out is refused (see `withoutNetwork`).
 */
async function exampleNetwork(c: ExampleCase): Promise<ExampleNetwork> {
  const { url, fixture, fixturePath } = c.example
  const served: Served = fixture && fixturePath ? await servedBy(fixture, fixturePath, url) : new Map()
  const known = served.size ? [...served.keys()].join(', ') : 'nothing'
  const refuse = (asked: string) =>
    new TypeError(`fetch failed: site-skills test serves only ${known} (no network; asked for ${asked})`)
  const answer = (asked: string) => served.get(asked)
  const fetch = async (input: string | URL | Request) => {
    const asked = input instanceof Request ? input.url : new URL(String(input), url).href
    const found = answer(asked)
    if (found) return new Response(found.body, { status: 200, headers: { 'Content-Type': found.type } })
    throw refuse(asked)
  }
  return { fetch, answer, refuse }
}

/** Runs a Node example with `ctx.fetch` answering from its fixture (and no network). */
export async function callNode(c: ExampleCase, api: SiteSkills): Promise<Outcome> {
  const network = await exampleNetwork(c)
  const { url } = c.example
  // `url` and `baseUrl` (its origin) tell the tool where it is.
  const ctx = { fetch: network.fetch, ...(url ? { url, baseUrl: new URL(url).origin } : {}) }
  try {
    return { value: await withoutNetwork(network, () => api.runTool(c.siteId, c.tool.name, c.example.args, ctx)) }
  } catch (error) {
    return { failure: callFailure(error) }
  }
}

/** Runs a browser example in a tab of its own, on its fixture served under its `url` (and nothing else). */
export async function callOnFixture(c: ExampleCase, api: SiteSkills, browser: TestBrowser): Promise<Outcome> {
  const url = c.example.url!
  const tab = await browser.openTab(fixtureRule(url, readFixture(c.example.fixturePath!)))
  try {
    const loaded = await navigate(tab.client, url)
    if (loaded.errorText || loaded.timedOut) {
      const why = loaded.errorText ?? 'it did not load in time'
      return { failure: { kind: loaded.timedOut ? 'timeout' : 'tool-error', message: `fixture not served: ${why}` } }
    }
    return { value: await api.runBrowserTool(c.siteId, c.tool.name, c.example.args, tab.client) }
  } catch (error) {
    return { failure: callFailure(error) }
  } finally {
    await tab.close()
  }
}

/** The outcome of one example on its fixture (Node examples get the fixture through `ctx.fetch`). */
export async function runOffline(c: ExampleCase, api: SiteSkills, browser?: TestBrowser): Promise<Verdict> {
  const outcome = c.tool.kind === 'node' ? await callNode(c, api) : await callOnFixture(c, api, browser!)
  return 'failure' in outcome ? { failure: outcome.failure } : judge(c, outcome.value)
}

/** The result line of one example. */
export function resultOf(c: ExampleCase, { failure, tokens }: Verdict): ExampleResult {
  const base = { siteId: c.siteId, tool: c.tool.name, example: c.example.name }
  const counted = tokens === undefined ? {} : { tokens }
  return failure ? { ...base, status: 'fail', ...failure, ...counted } : { ...base, status: 'pass', ...counted }
}

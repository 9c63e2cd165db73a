import type { SiteSkills } from '../../../runtime/index'
import { urlMatchesDomains } from '../../../runtime/internal'
import type { TestBrowser } from '../../examples/test-browser'
import { findDrift } from '../../examples/expect'
import { callFailure, checkContract, judge } from '../../examples/judge'
import { callNode, callOnFixture } from '../../examples/run-example'
import type { ExampleCase, Failure, Outcome } from '../../examples/example-case'
import { nodeContext } from '../calls'
import type { ClientTabs } from '../clients'
import type { TabInfo, Tabs } from '../tabs'

/** One run of an example: on its fixture, or on the client's tab (`live`). */
export interface ExampleRun {
  example: string
  on: 'fixture' | 'live'
  status: 'pass' | 'fail' | 'skipped'
  kind?: Failure['kind']
  message?: string
  fields?: string[]
  /** What the tool returned (a pass). */
  result?: unknown
}

/** Where the live run goes: the client's tab, when it is a page of the skill. */
export interface LiveTab {
  tab: TabInfo | undefined
  client: ClientTabs
  tabs: Tabs
  signal: AbortSignal
}

async function onFixture(c: ExampleCase, api: SiteSkills, browser: () => Promise<TestBrowser>): Promise<Outcome> {
  const outcome = c.tool.kind === 'node' ? await callNode(c, api) : await callOnFixture(c, api, await browser())
  if ('failure' in outcome) return outcome
  const { failure } = judge(c, outcome.value)
  return failure ? { failure } : outcome
}

/**
 * The `fetch` of a Node example on a tab: the skill's own site only (its domains), and no redirect
 * followed (one could lead elsewhere); the tool sees the 3xx answer.
 */
function siteFetch(domains: readonly string[]): typeof fetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (!urlMatchesDomains(url, domains))
      return Promise.reject(
        new TypeError(
          `fetch failed: an example on a tab reaches only its skill's site (${domains.join(', ')}), not ${url}`,
        ),
      )
    return fetch(input, { ...init, redirect: 'manual' })
  }
}

async function onTab(c: ExampleCase, api: SiteSkills, live: LiveTab & { tab: TabInfo }): Promise<unknown> {
  const session = await live.tabs.session(live.tab.id)
  if (c.tool.kind === 'browser') return api.runBrowserTool(c.siteId, c.tool.name, c.example.args, session)
  const ctx = {
    ...nodeContext(live.tab, live.client.view(live.tab), session, live.signal),
    fetch: siteFetch(c.domains),
  }
  return api.runTool(c.siteId, c.tool.name, c.example.args, ctx)
}

/**
 * An example on its fixture, then (when it passed there) on the client's tab: there the result
 * must fit `returns` and hold something wherever the fixture's did (`expect` is not checked: a
 * live page's content changes). The live run is skipped when the tab is not a page of the skill.
 */
export async function runExample(
  c: ExampleCase,
  api: SiteSkills,
  browser: () => Promise<TestBrowser>,
  live: LiveTab,
): Promise<ExampleRun[]> {
  const base = { example: c.example.name }
  const fixture = await onFixture(c, api, browser)
  if ('failure' in fixture) return [{ ...base, on: 'fixture', status: 'fail', ...fixture.failure }]
  const runs: ExampleRun[] = [{ ...base, on: 'fixture', status: 'pass', result: fixture.value }]
  const { tab } = live
  const here = tab && api.siteSkillsForUrl(tab.url).some((s) => s.id === c.siteId)
  if (!tab || !here) {
    const where = tab ? `your tab (${tab.url}) is not a page of ${c.siteId}` : 'you have no tab'
    return [...runs, { ...base, on: 'live', status: 'skipped', message: where }]
  }
  let value: unknown
  try {
    value = await onTab(c, api, { ...live, tab })
  } catch (error) {
    const failure = callFailure(error)
    return [...runs, { ...base, on: 'live', status: 'fail', ...failure, message: `on ${tab.url}: ${failure.message}` }]
  }
  const contract = checkContract(c, value)
  if (contract) return [...runs, { ...base, on: 'live', status: 'fail', ...contract }]
  const drift = c.tool.kind === 'browser' ? findDrift(fixture.value, value, c.tool.returns) : []
  if (drift.length)
    return [
      ...runs,
      {
        ...base,
        on: 'live',
        status: 'fail',
        kind: 'selector-drift',
        message: `full on the fixture, empty or missing on ${tab.url}: ${drift.join(', ')}`,
        fields: drift,
      },
    ]
  return [...runs, { ...base, on: 'live', status: 'pass', result: value }]
}

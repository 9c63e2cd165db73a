import { isSiteToolError } from '../../runtime/index'
import { urlMatchesDomains } from '../../runtime/internal'
import type { SiteSkills } from '../../runtime/index'
import type { TestBrowser } from './test-browser'
import { findDrift } from './expect'
import { callFailure, checkContract, judge } from './judge'
import { type Loaded, navigate } from './fixture-page'
import { callOnFixture, runOffline } from './run-example'
import type { ExampleCase, Failure, Verdict } from './example-case'

const LOGIN_RE = /(?:^|[/._-])(?:log-?in|sign-?in|auth|sso|session|account\/?login)(?:$|[/._?-])/i

/** Why the live page cannot be judged: it did not load, or it is not the page the example names. */
function loadFailure(c: ExampleCase, loaded: Loaded): Failure | undefined {
  const url = c.example.url!
  if (loaded.timedOut) return { kind: 'timeout', message: `${url} did not load in time` }
  if (loaded.errorText) return { kind: 'unreachable', message: `${url}: ${loaded.errorText}` }
  const status = loaded.status ?? 200
  if (status === 401 || status === 403) return { kind: 'auth-wall', message: `${url} answered HTTP ${status}` }
  if (status >= 400) return { kind: 'unreachable', message: `${url} answered HTTP ${status}` }
  const final = loaded.url ?? url
  if (!urlMatchesDomains(final, c.domains))
    return { kind: 'auth-wall', message: `${url} redirected to ${final}, outside ${c.domains.join(', ')}` }
  if (LOGIN_RE.test(new URL(final).pathname) && !LOGIN_RE.test(new URL(url).pathname))
    return { kind: 'auth-wall', message: `${url} redirected to a login page: ${final}` }
  return undefined
}

/** A failed live call: the guard's refusal means the page moved elsewhere; a throw means the page changed. */
function liveCallFailure(error: unknown): Failure {
  if (isSiteToolError(error, 'domain-mismatch')) return { kind: 'auth-wall', message: error.message }
  const failure = callFailure(error)
  if (failure.kind === 'timeout') return failure
  return { kind: 'selector-drift', message: `passes on the fixture, fails live: ${failure.message}` }
}

/** Runs the example on the live page and compares with the fixture's result. */
async function runLivePage(c: ExampleCase, api: SiteSkills, browser: TestBrowser, fixtureValue: unknown) {
  const tab = await browser.openTab()
  try {
    const problem = loadFailure(c, await navigate(tab.client, c.example.url!))
    if (problem) return problem
    let value: unknown
    try {
      value = await api.runBrowserTool(c.siteId, c.tool.name, c.example.args, tab.client)
    } catch (error) {
      return liveCallFailure(error)
    }
    const contract = checkContract(c, value)
    if (contract) return contract
    const drift = findDrift(fixtureValue, value, c.tool.returns)
    if (drift.length)
      return {
        kind: 'selector-drift',
        message: `full on the fixture, empty or missing live: ${drift.join(', ')}`,
        fields: drift,
      } as const
    return undefined
  } finally {
    await tab.close()
  }
}

/**
 * `--live`: the example runs on its fixture first (a failure there is the skill's own, reported
 * as offline), then on the live `url`. Live, the result must fit `returns` and hold something
 * wherever the fixture's result did; `expect` is not checked (live content changes). Node
 * examples run as offline.
 */
export async function runLive(c: ExampleCase, api: SiteSkills, browser: TestBrowser): Promise<Verdict> {
  if (c.tool.kind === 'node') return runOffline(c, api)
  const fixture = await callOnFixture(c, api, browser)
  if ('failure' in fixture) return { failure: onFixture(fixture.failure) }
  const { failure, tokens } = judge(c, fixture.value)
  if (failure) return { failure: onFixture(failure), tokens }
  return { failure: await runLivePage(c, api, browser, fixture.value), tokens }
}

const onFixture = (failure: Failure): Failure => ({ ...failure, message: `on the fixture: ${failure.message}` })

import { getDomain } from 'tldts'
import { FIXTURE_HEADER_LIMIT, isFixtureHeaderProblem, parseFixtureHeader } from '../fixture-header'
import type { ParsedFixtureHeader } from '../fixture-header'
import { readFileHead } from '../files'
import { type SkillCheck, report } from './context'

/** An example whose fixture is an HTML page of the skill. */
export interface FixtureUse {
  /** The example as a manifest path: `browserTools.read.examples[0]`. */
  example: string
  url: string
  /** Relative to the skill folder: `fixtures/list.html`. */
  fixture: string
  /** Real path of the fixture file. */
  real: string
}

const LOOPBACK_RE = /^(?:localhost|.+\.localhost|127(?:\.\d{1,3}){3}|\[::1\])$/

/**
 * The site a URL is on: its registrable domain (`www.shop.example.com` -> `example.com`), its
 * host where it has none (an IP address), and `loopback` for this machine under any name.
 */
function domainOf(url: string): string {
  if (!URL.canParse(url)) return url
  const host = new URL(url).hostname
  if (LOOPBACK_RE.test(host)) return 'loopback'
  return getDomain(host, { allowPrivateDomains: true }) ?? host
}

/**
 * Checks the header of every HTML fixture the examples use (warnings, `fixture-header`): each
 * file once for a missing or malformed header, and each example whose url is on another domain
 * (registrable domain; loopback names are one) than the url the header records. Reads only the head
 * of each file.
 */
export function checkFixtureHeaders(check: SkillCheck, uses: readonly FixtureUse[]): void {
  const headers = new Map<string, ParsedFixtureHeader | undefined>()
  const reported = new Set<string>()
  for (const use of uses) {
    if (!use.fixture.endsWith('.html')) continue
    if (!headers.has(use.real)) headers.set(use.real, readHeader(check, use))
    const parsed = headers.get(use.real)
    if (!parsed) continue
    const recorded = parsed.header.url
    const [recordedDomain, domain] = [domainOf(recorded), domainOf(use.url)]
    if (recordedDomain === domain || reported.has(`${use.real}\0${domain}`)) continue
    reported.add(`${use.real}\0${domain}`)
    const data = {
      fixture: use.fixture,
      problem: 'domain',
      recorded,
      recordedDomain,
      example: use.example,
      url: use.url,
      domain,
    } as const
    report(check, use.fixture, { code: 'fixture-header', data, ...parsed.locate(['url']) })
  }
}

/** The fixture's header, or undefined after reporting why it has none (nothing when the file cannot be read). */
function readHeader(check: SkillCheck, use: FixtureUse): ParsedFixtureHeader | undefined {
  const head = readFileHead(use.real, FIXTURE_HEADER_LIMIT)
  if (!head) return undefined
  const parsed = parseFixtureHeader(head.toString('utf8'))
  if (!isFixtureHeaderProblem(parsed)) return parsed
  const { problem, reason, position } = parsed
  report(check, use.fixture, { code: 'fixture-header', data: { fixture: use.fixture, problem, reason }, ...position })
  return undefined
}

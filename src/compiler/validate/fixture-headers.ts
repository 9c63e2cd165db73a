import { getDomain } from 'tldts'
import { FIXTURE_HEADER_LIMIT, isFixtureHeaderProblem, parseFixtureHeader } from '../fixture-format/header'
import type { ParsedFixtureHeader } from '../fixture-format/header'
import { readFileHead } from '../fs/files'
import { type ParsedRecording, RECORDING_LIMIT, parseRecording } from '../fixture-format/recording'
import type { Position } from '../parse'
import { type FolderValidation, report } from './folder-validation'

/** An example whose fixture is a file of the skill. */
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
 * Checks the header of every HTML fixture (a comment first in the page) and JSON fixture (a
 * recording: see fixture-recording.ts) the examples use (warnings, `fixture-header`): each file
 * once for a missing or malformed header; for a page, each example whose url is on another domain
 * (registrable domain; loopback names are one) than the url the header records; for a recording
 * (an API may live on another domain than the site), each response whose url is. Reads only the
 * head of each page, and at most RECORDING_LIMIT bytes of a recording. `.txt` and `.xml` fixtures
 * carry no header.
 */
export function checkFixtureHeaders(check: FolderValidation, uses: readonly FixtureUse[]): void {
  const headers = new Map<string, ParsedFixtureHeader | ParsedRecording | undefined>()
  const reported = new Set<string>()
  for (const use of uses) {
    if (!use.fixture.endsWith('.html') && !use.fixture.endsWith('.json')) continue
    const known = headers.has(use.real)
    if (!known) headers.set(use.real, readHeader(check, use))
    const parsed = headers.get(use.real)
    if (!parsed) continue
    if ('responses' in parsed) {
      if (known) continue
      for (const [i, response] of parsed.responses.entries())
        checkDomain(
          check,
          use.fixture,
          parsed,
          `responses[${i}]`,
          response.url,
          parsed.locateInFile(['responses', i, 'url']),
        )
      continue
    }
    if (reported.has(`${use.real}\0${domainOf(use.url)}`)) continue
    if (checkDomain(check, use.fixture, parsed, use.example, use.url, parsed.locate(['url'])))
      reported.add(`${use.real}\0${domainOf(use.url)}`)
  }
}

/** Reports (and says so) when `url`, where `example` serves the fixture, is on another domain than its header's url. */
function checkDomain(
  check: FolderValidation,
  fixture: string,
  parsed: ParsedFixtureHeader,
  example: string,
  url: string,
  at: Position,
): boolean {
  const recorded = parsed.header.url
  const [recordedDomain, domain] = [domainOf(recorded), domainOf(url)]
  if (recordedDomain === domain) return false
  const data = { fixture, problem: 'domain', recorded, recordedDomain, example, url, domain } as const
  report(check, fixture, { code: 'fixture-header', data, ...at })
  return true
}

/** The fixture's header, or undefined after reporting why it has none (nothing when the file cannot be read). */
function readHeader(check: FolderValidation, use: FixtureUse): ParsedFixtureHeader | ParsedRecording | undefined {
  const json = use.fixture.endsWith('.json')
  const head = readFileHead(use.real, json ? RECORDING_LIMIT : FIXTURE_HEADER_LIMIT)
  if (!head) return undefined
  const parsed = json ? parseRecording(head.toString('utf8')) : parseFixtureHeader(head.toString('utf8'))
  if (!isFixtureHeaderProblem(parsed)) return parsed
  const { problem, reason, position } = parsed
  report(check, use.fixture, { code: 'fixture-header', data: { fixture: use.fixture, problem, reason }, ...position })
  return undefined
}

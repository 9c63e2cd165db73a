/**
 * The header of a page fixture (`fixtures/<name>.html`): one HTML comment, first in the file,
 * holding a JSON object that says where the page was captured, when, and (for a page saved by
 * someone else) where it was taken from. `site-skills snapshot` writes it; validation reads it.
 *
 * ```html
 * <!-- site-skills fixture
 * {
 *   "url": "https://news.ycombinator.com/item?id=1",
 *   "captured": "2026-05-01T12:00:00.000Z",
 *   "source": { "repo": "owner/name", "path": "a/page.html", "commit": "0123abc", "license": "MIT" },
 *   "changes": "scripts and styles removed"
 * }
 * -->
 * ```
 */
import { type JsonPath, type Position, createLineIndex, isJsonFailure, parseJsonDocument, stripBom } from './parse'

/** Where a page saved by someone else came from. Every field is optional. */
interface FixtureSource {
  /** The repository that holds the saved page, `owner/name`. */
  repo?: string
  /** The file in that repository. */
  path?: string
  /** The commit the file was taken at. */
  commit?: string
  /** Its licence (of the repository, and of the page's content where that differs). */
  license?: string
}

/** What a fixture header records. */
export interface FixtureHeader {
  /** The http(s) address the page was captured at. */
  url: string
  /** When: an ISO 8601 time (what `snapshot` writes), or what is known of the date of a page saved elsewhere. */
  captured: string
  source?: FixtureSource
  /** What was removed or changed after capture (scripts, styles, ...). */
  changes?: string
}

/** A header that was read, and where its members are in the file (for diagnostics). */
export interface ParsedFixtureHeader {
  header: FixtureHeader
  /** 1-based position of a member's key in the fixture file. */
  locate: (path: JsonPath) => Position
}

/** Why a fixture has no usable header: `missing` (no header comment first), or `malformed`. */
export interface FixtureHeaderProblem {
  problem: 'missing' | 'malformed'
  reason: string
  position: Position
}

const MARKER = '<!-- site-skills fixture'
const TOP_KEYS = ['url', 'captured', 'source', 'changes']
const SOURCE_KEYS = ['repo', 'path', 'commit', 'license']
/** The header must end within the first 16 KiB of the file (validation reads no more of it). */
export const FIXTURE_HEADER_LIMIT = 16 * 1024

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim() !== ''

/** A header's JSON, with `<` and `>` escaped so that no value can close the comment early. */
function headerJson(header: FixtureHeader): string {
  const ordered: FixtureHeader = { url: header.url, captured: header.captured }
  if (header.source) ordered.source = header.source
  if (header.changes) ordered.changes = header.changes
  return JSON.stringify(ordered, null, 2).replace(/</g, '\\u003c').replace(/>/g, '\\u003e')
}

/** The fixture text: the header comment, then the page. */
export function formatFixture(header: FixtureHeader, html: string): string {
  return `${MARKER}\n${headerJson(header)}\n-->\n${html}${html.endsWith('\n') ? '' : '\n'}`
}

/** The first thing wrong with a header's value, as [member path, reason], or undefined when it is valid. */
export function findHeaderProblem(value: unknown): [JsonPath, string] | undefined {
  if (!isRecord(value)) return [[], 'the header must be a JSON object']
  const unknown = Object.keys(value).find((key) => !TOP_KEYS.includes(key))
  if (unknown !== undefined)
    return [[unknown], `unknown key ${JSON.stringify(unknown)} (known: ${TOP_KEYS.join(', ')})`]
  if (!nonEmpty(value.url) || !/^https?:\/\//i.test(value.url) || !URL.canParse(value.url))
    return [value.url === undefined ? [] : ['url'], 'url must be the http(s) address the page was captured at']
  if (!nonEmpty(value.captured))
    return [value.captured === undefined ? [] : ['captured'], 'captured must say when the page was captured']
  if (value.changes !== undefined && typeof value.changes !== 'string') return [['changes'], 'changes must be a string']
  if (value.source === undefined) return undefined
  if (!isRecord(value.source)) return [['source'], `source must be an object of ${SOURCE_KEYS.join(', ')}`]
  for (const [key, item] of Object.entries(value.source)) {
    if (!SOURCE_KEYS.includes(key))
      return [['source', key], `unknown key "source.${key}" (known: ${SOURCE_KEYS.join(', ')})`]
    if (!nonEmpty(item)) return [['source', key], `source.${key} must be a non-empty string`]
  }
  return undefined
}

/**
 * Reads the header at the start of a fixture's text (a BOM is skipped; positions count from the
 * first character after it). Only the first FIXTURE_HEADER_LIMIT characters are looked at.
 */
export function parseFixtureHeader(source: string): ParsedFixtureHeader | FixtureHeaderProblem {
  const text = stripBom(source).slice(0, FIXTURE_HEADER_LIMIT)
  const toPosition = createLineIndex(text)
  if (!text.startsWith(MARKER) || !/^\s/.test(text.charAt(MARKER.length))) {
    const reason = text.startsWith('<!-- site-skills fixture:')
      ? 'it starts with the one-line header of earlier versions (url=... captured=...); write the JSON header instead'
      : `the file does not start with "${MARKER}"`
    return { problem: 'missing', reason, position: { line: 1, column: 1 } }
  }
  const end = text.indexOf('-->', MARKER.length)
  if (end < 0)
    return {
      problem: 'malformed',
      reason: 'the header comment does not end (no "-->" in the first 16 KiB)',
      position: toPosition(0),
    }
  // The JSON parsed in place: the marker blanked out (newlines kept), so positions are the file's.
  const padded = text.slice(0, MARKER.length).replace(/[^\n]/g, ' ') + text.slice(MARKER.length, end)
  const doc = parseJsonDocument(padded)
  if (isJsonFailure(doc))
    return { problem: 'malformed', reason: `invalid JSON: ${doc.message}`, position: doc.position }
  const problem = findHeaderProblem(doc.value)
  if (problem) {
    const [path, reason] = problem
    return { problem: 'malformed', reason, position: doc.locate(path) }
  }
  return { header: doc.value as FixtureHeader, locate: doc.locate }
}

export function isFixtureHeaderProblem(
  result: ParsedFixtureHeader | FixtureHeaderProblem,
): result is FixtureHeaderProblem {
  return 'problem' in result
}

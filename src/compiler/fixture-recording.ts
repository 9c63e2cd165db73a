/**
 * A recording (`fixtures/<name>.json` of a Node tool example): recorded API responses with their
 * provenance. One JSON object: `"site-skills fixture"` is the fixture header (the keys of a page
 * fixture's header; `url` is where the responses were captured), and `responses` lists what
 * `ctx.fetch` answers: each `{ url, body }`, the request URL the tool makes and the JSON body
 * served for it (a string body is served as it is).
 *
 * ```json
 * {
 *   "site-skills fixture": {
 *     "url": "https://api.github.com/repos/octokit-fixture-org/hello-world",
 *     "captured": "2022-07-19",
 *     "source": { "repo": "octokit/fixtures", "path": "...", "commit": "...", "license": "MIT" }
 *   },
 *   "responses": [
 *     { "url": "https://api.github.com/repos/octokit-fixture-org/hello-world", "body": { "full_name": "..." } }
 *   ]
 * }
 * ```
 */
import { type FixtureHeaderProblem, type ParsedFixtureHeader, findHeaderProblem } from './fixture-header'
import { type JsonPath, type Position, isJsonFailure, parseJsonDocument } from './parse'

/** The member that holds the header. */
const RECORDING_KEY = 'site-skills fixture'
/** Validation reads at most this much of a JSON fixture (it must parse as a whole). */
export const RECORDING_LIMIT = 1024 * 1024

/** One recorded response: the request URL it answers and its body. */
interface RecordedResponse {
  url: string
  body: unknown
}

/** A recording that was read: its header (positions as for a page fixture) and its responses. */
export interface ParsedRecording extends ParsedFixtureHeader {
  responses: RecordedResponse[]
  /** 1-based position of any member of the file (`['responses', 0, 'url']`). */
  locateInFile: (path: JsonPath) => Position
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const isHttpUrl = (value: unknown): value is string =>
  typeof value === 'string' && /^https?:\/\//i.test(value) && URL.canParse(value)

/** The first thing wrong with the responses, as [member path, reason]. */
function findResponsesProblem(value: unknown): [JsonPath, string] | undefined {
  if (!Array.isArray(value) || value.length === 0)
    return [['responses'], 'responses must be a non-empty array of { url, body }']
  for (const [i, item] of value.entries()) {
    if (!isRecord(item)) return [['responses', i], 'each response is { url, body }']
    const extra = Object.keys(item).find((key) => key !== 'url' && key !== 'body')
    if (extra !== undefined) return [['responses', i, extra], `unknown key ${JSON.stringify(extra)} (known: url, body)`]
    if (!isHttpUrl(item.url))
      return [
        ['responses', i, ...(item.url === undefined ? [] : ['url'])],
        'url must be the absolute http(s) request URL',
      ]
    if (!Object.hasOwn(item, 'body')) return [['responses', i], 'body (the recorded response body) is missing']
  }
  return undefined
}

/** The first thing wrong with a recording's members, as [member path, reason]. */
function findRecordingProblem(value: Record<string, unknown>): [JsonPath, string] | undefined {
  const extra = Object.keys(value).find((key) => key !== RECORDING_KEY && key !== 'responses')
  if (extra !== undefined)
    return [[extra], `unknown key ${JSON.stringify(extra)} (known: "${RECORDING_KEY}", responses)`]
  const header = findHeaderProblem(value[RECORDING_KEY])
  if (header) return [[RECORDING_KEY, ...header[0]], header[1]]
  return findResponsesProblem(value.responses)
}

/** Reads a recording, or says why the text is not one. */
export function parseRecording(source: string): ParsedRecording | FixtureHeaderProblem {
  const doc = parseJsonDocument(source)
  if (isJsonFailure(doc))
    return { problem: 'malformed', reason: `invalid JSON: ${doc.message}`, position: doc.position }
  if (!isRecord(doc.value) || !Object.hasOwn(doc.value, RECORDING_KEY)) {
    const reason = `the file is not a JSON object with a "${RECORDING_KEY}" member`
    return { problem: 'missing', reason, position: { line: 1, column: 1 } }
  }
  const problem = findRecordingProblem(doc.value)
  if (problem) return { problem: 'malformed', reason: problem[1], position: doc.locate(problem[0]) }
  return {
    header: doc.value[RECORDING_KEY] as ParsedFixtureHeader['header'],
    responses: doc.value.responses as RecordedResponse[],
    locate: (path) => doc.locate([RECORDING_KEY, ...path]),
    locateInFile: doc.locate,
  }
}

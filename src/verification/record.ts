/**
 * The verification record of a skill (`<skill>/verification.json`, written by `site-skills test
 * --record`): when it was verified, with which version of this package, each example's status
 * (and its live classification when `--live` ran), and the sha256 of every file of the skill, so
 * that a later change to any of them shows (`verification-stale`).
 */
import { sortKeys } from '../../runtime/internal'
import type { ExampleResult } from '../examples/example-case'
import { digestSkillTree } from '../compiler/fs/tree'
import { type WriteFailure, replaceFile } from '../compiler/fs/write-inside'
import { VERIFICATION_FILE } from '../compiler/verification'

/** One example as the record keeps it. */
interface RecordedExample {
  tool: string
  example: string
  status: 'pass' | 'fail'
  /** Why it failed (with `--live`: the live classification, such as `selector-drift`). */
  kind?: string
  message?: string
  /** The result's tokens as compact text (the runtime's estimate), when the call returned one. */
  tokens?: number
}

export interface VerificationRecord {
  siteId: string
  /** ISO 8601, UTC. */
  date: string
  package: { name: string; version: string }
  /** `--live` ran: the examples were also run on their live pages, and classified. */
  live: boolean
  summary: { passed: number; failed: number }
  examples: RecordedExample[]
  /**
   * Path inside the skill folder (forward slashes) -> `sha256:<hex>` of its bytes, or, for an entry
   * the file guard does not read (a symlink out of the folder, a FIFO, a file over the limit),
   * `unhashed:<why>` (see digestSkillTree).
   */
  files: Record<string, string>
}

/** The same value with the keys of every object in code-unit order, so equal records are equal bytes. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted)
  if (value === null || typeof value !== 'object') return value
  const entries = Object.entries(value).map(([k, v]) => [k, sorted(v)] as const)
  return sortKeys(Object.fromEntries(entries))
}

/** The record as the file holds it: sorted keys, two-space indent, a final newline. */
function recordText(record: VerificationRecord): string {
  return `${JSON.stringify(sorted(record), null, 2)}\n`
}

/** The digest of every file of a skill folder, by path, the record itself left out (see VerificationRecord.files). */
export function skillDigests(dir: string): Record<string, string> {
  return Object.fromEntries(digestSkillTree(dir, (rel) => rel === VERIFICATION_FILE))
}

/** The paths whose digest differs between two takes of a skill's digests (changed, added or removed), in order. */
export function changedFiles(before: Record<string, string>, after: Record<string, string>): string[] {
  const at = (digests: Record<string, string>, p: string) => (Object.hasOwn(digests, p) ? digests[p] : undefined)
  const paths = new Set([...Object.keys(before), ...Object.keys(after)])
  return [...paths].filter((p) => at(before, p) !== at(after, p)).sort()
}

/** The record of one skill's run; `files`: its digests as taken before the run (else taken now). */
export function createRecord(input: {
  siteId: string
  dir: string
  results: readonly ExampleResult[]
  live: boolean
  package: { name: string; version: string }
  date?: Date
  files?: Record<string, string>
}): VerificationRecord {
  const examples = input.results.map(({ tool, example, status, kind, message, tokens }) => ({
    tool,
    example,
    status,
    ...(kind ? { kind } : {}),
    ...(message ? { message } : {}),
    ...(tokens === undefined ? {} : { tokens }),
  }))
  const failed = examples.filter((e) => e.status === 'fail').length
  return {
    siteId: input.siteId,
    date: (input.date ?? new Date()).toISOString(),
    package: input.package,
    live: input.live,
    summary: { passed: examples.length - failed, failed },
    examples,
    files: input.files ?? skillDigests(input.dir),
  }
}

/**
 * Writes `<dir>/verification.json` through the file guard: replaced whole, never written through
 * a symlink (nor one that points nowhere) or into a FIFO. Returns its path, or why not.
 */
export function writeRecord(dir: string, record: VerificationRecord): string | WriteFailure {
  return replaceFile(dir, VERIFICATION_FILE, recordText(record))
}

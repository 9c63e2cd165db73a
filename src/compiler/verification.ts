import { join } from 'node:path'
import type { VerificationSummary } from '../../runtime/index'
import { FILE_LIMITS, isReadFailure } from './fs/files'
import { readFileInside } from './fs/inside'
import { fsReason } from './fs/write-inside'
import type { JsonPath } from './parse'
import { isRecord } from '../../runtime/internal'

/** The record `site-skills test --record` writes in a skill folder. */
export const VERIFICATION_FILE = 'verification.json'

/**
 * A skill's record as read: its path and text, or why it cannot be (`problem`, after "verification.json cannot be
 * used:").
 */
export type RecordFile = { path: string; text: string } | { path: string; problem: string }

/**
 * The one reader of a skill's `verification.json` (`validate`, the compile's summary, `context`,
 * the MCP server): through the file guard, as any file of the skill (a regular file inside the
 * folder, at most FILE_LIMITS.record bytes; a FIFO, a device or a symlink out is never read).
 * Undefined when the skill has none. Never throws.
 */
export function readRecordFile(realDir: string): RecordFile | undefined {
  const path = join(realDir, VERIFICATION_FILE)
  let found: ReturnType<typeof readFileInside>
  try {
    found = readFileInside(realDir, VERIFICATION_FILE, FILE_LIMITS.record)
  } catch (error) {
    return { path, problem: `it cannot be resolved: ${fsReason(error)}` }
  }
  if ('missing' in found) return found.directory ? { path, problem: 'it is a folder' } : undefined
  if ('escape' in found) return { path, problem: 'it is a symlink that leads out of the skill folder' }
  if (isReadFailure(found.read)) return { path, problem: `it ${found.read.message}` }
  try {
    return { path, text: new TextDecoder('utf-8', { fatal: true }).decode(found.read) }
  } catch {
    return { path, problem: 'it is not UTF-8 text' }
  }
}

/** What a record that holds together says: its summary, and the digest of each file by path. */
export interface RecordFacts {
  summary: VerificationSummary
  files: Record<string, string>
}

/** Why a parsed record does not hold together, and the member to point at. */
export interface RecordProblem {
  reason: string
  at: JsonPath
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0

/** Counts the examples by status, or says which one has none. One pass. */
function countExamples(examples: unknown[]): { passed: number; failed: number } | RecordProblem {
  let passed = 0
  let failed = 0
  for (const [i, example] of examples.entries()) {
    const status = isRecord(example) ? example.status : undefined
    if (status === 'pass') passed++
    else if (status === 'fail') failed++
    else return { reason: `examples[${i}] has no "status" of "pass" or "fail"`, at: ['examples', i] }
  }
  return { passed, failed }
}

/**
 * Checks a parsed record in one pass over it: its date, version, summary, examples and file
 * digests must be there, and its summary must count what its examples say (a record whose
 * summary claims more passes than it lists is not believed anywhere).
 */
export function checkRecord(value: unknown): RecordFacts | RecordProblem {
  if (!isRecord(value)) return { reason: 'it is not a JSON object', at: [] }
  const { date, live, package: pkg, summary, examples, files } = value
  if (typeof date !== 'string') return { reason: 'its "date" is not a string', at: ['date'] }
  if (!isRecord(pkg) || typeof pkg.version !== 'string')
    return { reason: 'its "package" has no "version" string', at: ['package'] }
  if (!isRecord(summary) || !isCount(summary.passed) || !isCount(summary.failed))
    return { reason: 'its "summary" has no "passed" and "failed" counts', at: ['summary'] }
  if (!Array.isArray(examples)) return { reason: 'its "examples" is not a list', at: ['examples'] }
  const counted = countExamples(examples)
  if ('reason' in counted) return counted
  if (counted.passed !== summary.passed || counted.failed !== summary.failed)
    return {
      reason:
        `its summary says ${summary.passed} passed, ${summary.failed} failed, but its examples hold ` +
        `${counted.passed} passed, ${counted.failed} failed`,
      at: ['summary'],
    }
  if (!isRecord(files) || !Object.values(files).every((d) => typeof d === 'string'))
    return { reason: 'it has no "files" of sha256 digests', at: ['files'] }
  return {
    summary: { date, version: pkg.version, live: live === true, ...counted },
    files: files as Record<string, string>,
  }
}

/**
 * What the skill metadata says of a skill's verification record: when, with which version, live or
 * not, how many examples passed and failed (no `summary` without a record that can be read and
 * holds together: `validate` says what is wrong with it, `verification-invalid`), and the record's
 * path when there is one. Never throws.
 */
export function readVerificationSummary(
  realDir: string,
): { summary?: VerificationSummary; path: string; tokens?: RecordedTokens } | undefined {
  const file = readRecordFile(realDir)
  if (!file) return undefined
  if (!('text' in file)) return { path: file.path }
  let value: unknown
  try {
    value = JSON.parse(file.text)
  } catch {
    return { path: file.path }
  }
  const facts = checkRecord(value)
  if ('reason' in facts) return { path: file.path }
  return { summary: facts.summary, path: file.path, tokens: recordedTokens((value as { examples: unknown }).examples) }
}

/**
 * Each recorded example's result tokens (`test --record`), by `tool + "\0" + example` (JSON, as the build cache keeps
 * models).
 */
export type RecordedTokens = Readonly<Record<string, number>>

function recordedTokens(examples: unknown): RecordedTokens {
  const out: Record<string, number> = {}
  if (!Array.isArray(examples)) return out
  for (const e of examples.slice(0, 10_000))
    if (isRecord(e) && typeof e.tool === 'string' && typeof e.example === 'string' && Number.isInteger(e.tokens))
      out[`${e.tool}\0${e.example}`] = e.tokens as number
  return out
}

/** The recorded result tokens of an example, if any. */
export const recordedTokensOf = (recorded: RecordedTokens | undefined, tool: string, example: string) => {
  const key = `${tool}\0${example}`
  return recorded && Object.hasOwn(recorded, key) ? recorded[key] : undefined
}

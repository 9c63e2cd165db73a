import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { VerificationSummary } from '../../runtime/index'

/** The record `site-skills test --record` writes in a skill folder. */
export const VERIFICATION_FILE = 'verification.json'

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * What the skill metadata says of a skill's verification record: when, with which version, live or
 * not, how many examples passed and failed. Undefined without a readable record (`validate` says
 * what is wrong with one: `verification-invalid`). Reads one small file; never throws.
 */
export function readVerificationSummary(
  realDir: string,
): { summary: VerificationSummary; path: string; tokens: RecordedTokens } | undefined {
  const path = join(realDir, VERIFICATION_FILE)
  let value: unknown
  try {
    value = JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return undefined
  }
  if (!isObject(value) || !isObject(value.package) || !isObject(value.summary)) return undefined
  const { date, live } = value
  const { version } = value.package
  const { passed, failed } = value.summary
  if (
    typeof date !== 'string' ||
    typeof version !== 'string' ||
    typeof passed !== 'number' ||
    typeof failed !== 'number'
  )
    return undefined
  return {
    summary: { date, version, live: live === true, passed, failed },
    path,
    tokens: recordedTokens(value.examples),
  }
}

/** Each recorded example's result tokens (`test --record`), by `tool + "\0" + example` (JSON, as the build cache keeps models). */
export type RecordedTokens = Readonly<Record<string, number>>

function recordedTokens(examples: unknown): RecordedTokens {
  const out: Record<string, number> = {}
  if (!Array.isArray(examples)) return out
  for (const e of examples.slice(0, 10_000))
    if (isObject(e) && typeof e.tool === 'string' && typeof e.example === 'string' && Number.isInteger(e.tokens))
      out[`${e.tool}\0${e.example}`] = e.tokens as number
  return out
}

/** The recorded result tokens of an example, if any. */
export const recordedTokensOf = (recorded: RecordedTokens | undefined, tool: string, example: string) => {
  const key = `${tool}\0${example}`
  return recorded && Object.hasOwn(recorded, key) ? recorded[key] : undefined
}

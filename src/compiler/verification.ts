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
export function readVerificationSummary(realDir: string): { summary: VerificationSummary; path: string } | undefined {
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
  return { summary: { date, version, live: live === true, passed, failed }, path }
}

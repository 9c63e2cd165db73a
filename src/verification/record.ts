/**
 * The verification record of a skill (`<skill>/verification.json`, written by `site-skills test
 * --record`): when it was verified, with which version of this package, each example's status
 * (and its live classification when `--live` ran), and the sha256 of every file of the skill, so
 * that a later change to any of them shows (`verification-stale`).
 */
import { createHash } from 'node:crypto'
import { readFile, readdir, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { sortKeys } from '../../runtime/internal'
import type { ExampleResult } from '../examples/types'
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
  /** Path inside the skill folder (forward slashes) -> `sha256:<hex>` of its bytes. */
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

/** Every regular file below `dir` (symlinks followed), as sorted forward-slash paths, the record itself left out. */
async function skillFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = []
  for (const name of (await readdir(dir)).sort()) {
    const rel = prefix ? `${prefix}/${name}` : name
    if (rel === VERIFICATION_FILE) continue
    const info = await stat(join(dir, name)).catch(() => undefined)
    if (info?.isDirectory()) out.push(...(await skillFiles(join(dir, name), rel)))
    else if (info?.isFile()) out.push(rel)
  }
  return out
}

/** A file's digest as the record holds it: `sha256:<hex>` of its bytes (the form MCP skills serve, SEP-2640). */
export function fileDigest(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`
}

/** The sha256 of every file of a skill folder, by path (see VerificationRecord.files). */
export async function skillDigests(dir: string): Promise<Record<string, string>> {
  const files = await skillFiles(dir)
  const digests = await Promise.all(files.map(async (rel) => fileDigest(await readFile(join(dir, rel)))))
  return Object.fromEntries(files.map((rel, i) => [rel, digests[i]!]))
}

/** The record of one skill's run. */
export async function createRecord(input: {
  siteId: string
  dir: string
  results: readonly ExampleResult[]
  live: boolean
  package: { name: string; version: string }
  date?: Date
}): Promise<VerificationRecord> {
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
    files: await skillDigests(input.dir),
  }
}

/** Writes `<dir>/verification.json`; returns its path. */
export async function writeRecord(dir: string, record: VerificationRecord): Promise<string> {
  const path = join(dir, VERIFICATION_FILE)
  await writeFile(path, recordText(record))
  return path
}

/**
 * The cases of `--only hostile` for the readers and writers added with issues 35 to 38: a skill's
 * verification record as `validate` checks it, the compact encoder of results, the cursor of paged
 * results, the JUnit report of `test`, and the secret scan's JSON (HAR) and base64 readers. Each is
 * an input built to make its work super-linear, against ordinary input of the same size.
 */
import { createHash } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { compactText } from '../runtime/compact'
import { callDigest, encodeCursor, readCursor } from '../runtime/cursor'
import { createCompiler } from '../src/compiler/compile'
import { junitReport } from '../src/examples/junit'
import type { ExampleResult } from '../src/examples/example-case'
import { scanFile } from '../src/pack/secrets'
import { withVerification } from '../src/verification/stale'
import { TMP } from './generate'

/** One case: what runs on the hostile input and on the ordinary one. */
export interface Case {
  name: string
  subject: () => unknown
  baseline: () => unknown
  note: string
}

export const fill = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size)

const kb = (bytes: number) => `${(bytes / 1000).toFixed(0)} KB`

const MANIFEST = {
  id: 'shop',
  name: 'Shop',
  domains: ['shop.example.com'],
  nodeTools: {},
  browserTools: {},
}

/** A record of `size` bytes: `files` of thousands of paths that are all gone (each a finding, each located), and as many examples. */
function hostileRecord(size: number): string {
  const record = { date: '2026-12-01T00:00:00.000Z', package: { name: 'x', version: '1.0.0' }, live: false }
  const files: Record<string, string> = {}
  const examples: object[] = []
  let used = 200
  for (let i = 0; used < size; i++) {
    const path = `${fill('deep/', 60)}file-${i}.js`
    files[path] = `sha256:${fill('0', 64)}`
    examples.push({ tool: 't', example: `e${i}`, status: 'pass' })
    used += path.length + 120
  }
  return JSON.stringify({ ...record, summary: { passed: examples.length, failed: 0 }, examples, files })
}

/** A record of the same size as a run writes it: one file, a few examples with long messages. */
function ordinaryRecord(size: number, manifest: string): string {
  const digest = `sha256:${createHash('sha256').update(manifest).digest('hex')}`
  const examples = Array.from({ length: 10 }, (_, i) => ({
    tool: 't',
    example: `e${i}`,
    status: 'fail',
    message: fill('expected the price, got nothing. ', size / 10),
  }))
  const record = { date: '2026-12-01T00:00:00.000Z', package: { name: 'x', version: '1.0.0' }, live: false }
  return JSON.stringify({ ...record, summary: { passed: 0, failed: 10 }, examples, files: { 'manifest.json': digest } })
}

/** `validate`'s check of a skill's verification.json (read, parsed, checked, each file's digest compared and located). */
export async function recordCases(size: number): Promise<Case[]> {
  const manifest = JSON.stringify(MANIFEST)
  const checked = async (name: string, record: string) => {
    const root = join(TMP, `hostile-record-${size}`, name)
    await mkdir(join(root, 'shop'), { recursive: true })
    await writeFile(join(root, 'shop/manifest.json'), manifest)
    await writeFile(join(root, 'shop/verification.json'), record)
    const result = await createCompiler({ roots: [root], checkOnly: true }).compile()
    return () => withVerification(result)
  }
  const hostile = hostileRecord(size)
  return [
    {
      name: `validate, a hand-made verification.json of ${kb(hostile.length)}: every file gone vs a recorded one`,
      subject: await checked('hostile', hostile),
      baseline: await checked('ordinary', ordinaryRecord(hostile.length, manifest)),
      note: 'withVerification on a compiled root: the record read, parsed, checked, each digest compared and located',
    },
  ]
}

/** A value nested `depth` objects deep. */
function deep(depth: number): unknown {
  let value: unknown = 'end'
  for (let i = 0; i < depth; i++) value = { a: value, b: [i] }
  return value
}

/** The compact encoder (what a model reads over MCP): a deep result, and a wide one that is no table, against a table. */
export function compactCases(size: number): Case[] {
  const columns = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`c${i}`, 'x']))
  const wide = Array.from({ length: Math.ceil(size / JSON.stringify(columns).length) }, () => columns)
  const row = { rank: 1, title: 'A story about a thing', points: 120, by: 'someone', comments: 42 }
  const table = Array.from({ length: Math.ceil(size / JSON.stringify(row).length) }, () => row)
  return [
    {
      name: `compact results, ${kb(size)} of JSON: a value 2,000 objects deep vs a table of records`,
      subject: () => compactText({ deep: deep(2000), list: wide.slice(0, wide.length / 2) }),
      baseline: () => compactText(table),
      note: 'runtime/compact.ts compactText, as the MCP server and run --format compact call it',
    },
    {
      name: `compact results, ${kb(size)} of JSON: records of 40 columns (no table) vs a table of records`,
      subject: () => compactText(wide),
      baseline: () => compactText(table),
      note: 'past 32 columns an array of records is a list',
    },
  ]
}

/** The cursor of a paged result, as a client sends it back: the longest one read, and a huge one. */
export function cursorCases(): Case[] {
  const call = { siteId: 'shop', tool: 'search', args: { query: 'tea' } }
  const real = encodeCursor({ d: callDigest(call), p: ['items'], o: 30 })
  const path = Array.from({ length: 64 }, (_, i) => fill(`k${i}`, 40))
  let longest = encodeCursor({ d: callDigest(call), o: 1, s: [path, 1, 0] })
  while (longest.length > 4096) longest = encodeCursor({ d: callDigest(call), o: 1, s: [path.slice(0, -1), 1, 0] })
  const huge = fill('QUFB', 1024 * 1024)
  const read = (cursor: string) => () => {
    try {
      readCursor(cursor, call)
    } catch {}
  }
  return [
    {
      name: 'cursor: a 1 MB cursor and one of a deep path vs a real one',
      subject: () => [read(huge)(), read(longest)()],
      baseline: () => [read(real)(), read(real)()],
      note: `runtime/cursor.ts readCursor (a cursor over 4,096 characters is refused unread); the deep one ${longest.length} characters`,
    },
  ]
}

const result = (i: number, siteId: string, message: string) =>
  ({ siteId, tool: 'search', example: `case ${i}`, status: 'fail', kind: 'expect-mismatch', message }) as ExampleResult

/** The JUnit report of `site-skills test --reporter junit`: huge messages to escape, and many examples of one skill. */
export function junitCases(examples: number): Case[] {
  const hostile = fill('<&"\u0001\uD800x', 256 * 1024)
  const plain = fill('expected x ', 256 * 1024)
  const huge = (message: string) => Array.from({ length: 4 }, (_, i) => result(i, 'shop', message))
  const oneSkill = Array.from({ length: examples }, (_, i) => result(i, 'shop', 'no'))
  const spread = Array.from({ length: examples }, (_, i) => result(i, `site-${i}`, 'no'))
  return [
    {
      name: 'JUnit report: 4 failures of 256 K characters to escape or replace vs of plain text',
      subject: () => junitReport({ results: huge(hostile), errors: [], noExamples: [] }),
      baseline: () => junitReport({ results: huge(plain), errors: [], noExamples: [] }),
      note: 'src/examples/junit.ts: escapes, lone surrogates and control characters replaced',
    },
    {
      name: `JUnit report: ${examples.toLocaleString('en-US')} examples of one skill vs of as many skills`,
      subject: () => junitReport({ results: oneSkill, errors: [], noExamples: [] }),
      baseline: () => junitReport({ results: spread, errors: [], noExamples: [] }),
      note: 'one suite of every case against a suite each',
    },
  ]
}

/** A base64 run of 84 characters (over the reader's 60) that decodes to a key header it does not take. */
const ALMOST_KEY = Buffer.from(`-----BEGIN RSA PRIVATE KEX-----${fill('x', 32)}`).toString('base64')

/** The secret scan's readers of structure: a HAR of long header values, JSON too deep to walk, base64 runs. */
export function structureScanCases(size: number, ordinary: Buffer): Case[] {
  const entry = (i: number) =>
    JSON.stringify({
      request: {
        headers: [
          { name: 'Cookie', value: `sid${i}=${fill('a.', 200)}` },
          { name: 'Authorization', value: `Bearer ${fill('b.', 200)}` },
        ],
      },
    })
  const entries: string[] = []
  for (let used = 0; used < size; used += entries.at(-1)!.length + 1) entries.push(entry(entries.length))
  const hostile = {
    'a HAR of long header values': `{"log":{"entries":[${entries.join(',')}]}}`,
    'JSON nested too deep to walk': `${fill('[', size / 2)}${fill(']', size / 2)}`,
    'base64 runs that decode to almost-keys': fill(`${ALMOST_KEY} `, size),
  }
  return Object.entries(hostile).map(([what, text]) => {
    const bytes = Buffer.from(text)
    return {
      name: `pack's secret scan, ${kb(size)}: ${what} vs a saved page of the same size`,
      subject: () => scanFile(bytes, 'fixtures/recording.har'),
      baseline: () => scanFile(ordinary, 'fixtures/page.html'),
      note: 'the JSON reader (HAR, cookie exports) and the base64 reader',
    }
  })
}

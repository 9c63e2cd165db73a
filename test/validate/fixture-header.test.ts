import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  FIXTURE_HEADER_LIMIT,
  type FixtureHeader,
  formatFixture,
  isFixtureHeaderProblem,
  parseFixtureHeader,
} from '../../src/compiler/fixture-format/header'
import { parseRecording } from '../../src/compiler/fixture-format/recording'
import { RULES, at, compileRoots, describe as lines } from '../helpers/compile'
import { runBin } from '../helpers/spawn'

const PAGE = '<!DOCTYPE html>\n<html><body><p>hi</p></body></html>\n'
const header = (json: string) => `<!-- site-skills fixture\n${json}\n-->\n${PAGE}`

function problemOf(text: string) {
  const parsed = parseFixtureHeader(text)
  if (!isFixtureHeaderProblem(parsed)) throw new Error(`expected a problem, got ${JSON.stringify(parsed.header)}`)
  return parsed
}

describe('the fixture header', () => {
  it('round-trips what snapshot writes, provenance included, and the page follows it unchanged', () => {
    const written: FixtureHeader = {
      url: 'https://developer.mozilla.org/en-US/docs/Web/CSS/transform?x=<b>-->',
      captured: '2026-01-01 (the commit that added the page)',
      source: { repo: 'owner/name', path: 'pages/a.html', commit: 'abc123', license: 'CC-BY-SA-2.5' },
      changes: 'scripts removed',
    }
    const text = formatFixture(written, PAGE)
    // Nothing in a value can close the comment early.
    expect(text.indexOf('-->')).toBe(text.indexOf('\n-->\n') + 1)
    expect(text.endsWith(`-->\n${PAGE}`)).toBe(true)
    const parsed = parseFixtureHeader(text)
    if (isFixtureHeaderProblem(parsed)) throw new Error(parsed.reason)
    expect(parsed.header).toEqual(written)
    expect(parsed.locate(['url'])).toEqual({ line: 3, column: 3 })
    expect(parsed.locate(['source', 'commit'])).toEqual({ line: 8, column: 5 })
  })

  it('accepts a BOM and counts positions after it; one header per file, the first thing in it', () => {
    const text = `\uFEFF${header('{ "url": "https://a.example/", "captured": "2026" }')}`
    expect(isFixtureHeaderProblem(parseFixtureHeader(text))).toBe(false)
    expect(problemOf(`\n${header('{}')}`)).toMatchObject({ problem: 'missing', position: { line: 1, column: 1 } })
    expect(problemOf(PAGE)).toMatchObject({
      problem: 'missing',
      reason: 'the file does not start with "<!-- site-skills fixture"',
    })
  })

  it('names the header of earlier versions', () => {
    const old = `<!-- site-skills fixture: url=https://a.example/ captured=2026-01-01T00:00:00.000Z -->\n${PAGE}`
    expect(problemOf(old)).toMatchObject({ problem: 'missing', reason: expect.stringContaining('one-line header') })
  })

  it('points at what is malformed, in file positions', () => {
    expect(problemOf(header('{ "url": "https://a.example/", }'))).toEqual({
      problem: 'malformed',
      reason: 'invalid JSON: trailing comma',
      position: { line: 2, column: 30 },
    })
    expect(problemOf(header('{\n  "url": "https://a.example/",\n  "captured": "",\n  "x": 1\n}'))).toEqual({
      problem: 'malformed',
      reason: 'unknown key "x" (known: url, captured, source, changes)',
      position: { line: 5, column: 3 },
    })
    expect(problemOf(header('{ "url": "https://a.example/", "captured": " " }'))).toMatchObject({
      reason: 'captured must say when the page was captured',
      position: { line: 2, column: 32 },
    })
    expect(problemOf(header('{ "captured": "2026" }'))).toMatchObject({
      reason: 'url must be the http(s) address the page was captured at',
      position: { line: 2, column: 1 },
    })
    expect(
      problemOf(header('{ "url": "https://a.example/", "captured": "2026", "source": { "licence": "MIT" } }')),
    ).toMatchObject({ reason: 'unknown key "source.licence" (known: repo, path, commit, license)' })
    expect(problemOf(header('[]'))).toMatchObject({ reason: 'the header must be a JSON object' })
  })

  it('must end within the first 16 KiB', () => {
    const long = `<!-- site-skills fixture\n{ "url": "https://a.example/", "captured": "${'x'.repeat(FIXTURE_HEADER_LIMIT)}" }\n-->\n`
    expect(problemOf(long)).toMatchObject({ problem: 'malformed', reason: expect.stringContaining('does not end') })
  })
})

describe('fixture-header warnings', () => {
  it('reports each fixture once, at the header member at fault, and keeps the skill', async () => {
    const result = await compileRoots([join(RULES, 'fixture-header')])
    expect(result.skills.map((s) => s.model.id)).toEqual(['pages'])
    expect(result.diagnostics.every((d) => d.severity === 'warning')).toBe(true)
    expect(at(result.diagnostics, 'fixture-header')).toEqual([
      { file: 'pages/fixtures/bad-json.html', line: 4, column: 41 },
      { file: 'pages/fixtures/elsewhere.html', line: 3, column: 3 },
      { file: 'pages/fixtures/ftp-url.html', line: 3, column: 3 },
      { file: 'pages/fixtures/no-header.html', line: 1, column: 1 },
      { file: 'pages/fixtures/old-header.html', line: 1, column: 1 },
    ])
    expect(lines(result.diagnostics).find((l) => l.includes('elsewhere'))).toBe(
      'pages/fixtures/elsewhere.html:3:3 warning fixture-header: fixture "fixtures/elsewhere.html" was captured at ' +
        '"https://www.other.example.org/list" (example.org), but browserTools.read.examples[5] serves it under ' +
        '"https://shop.example.com/list" (example.com)',
    )
  })

  it('site-skills validate prints the warnings with file:line:col and exits 0', async () => {
    const run = await runBin(['validate', '--root', join(RULES, 'fixture-header')])
    expect(run.timedOut).toBe(false)
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(
      'warning fixture-header  test/fixtures/rules/fixture-header/pages/fixtures/no-header.html:1:1',
    )
    expect(run.stdout).toContain(
      'warning fixture-header  test/fixtures/rules/fixture-header/pages/fixtures/elsewhere.html:3:3',
    )
    expect(run.stdout).toContain('> 3 |   "url": "https://www.other.example.org/list",')
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('✔ 0 errors, 5 warnings in 1 skill')
  })
})

describe('a recording (.json fixture)', () => {
  const recording = (value: unknown) => JSON.stringify(value, null, 2)
  const head = { url: 'https://api.example.com/a', captured: '2026' }
  const problem = (text: string) => {
    const parsed = parseRecording(text)
    if (!isFixtureHeaderProblem(parsed)) throw new Error('expected a problem')
    return parsed
  }

  it('gives the header, the responses and positions of both', () => {
    const text = recording({
      'site-skills fixture': { ...head, source: { repo: 'owner/name' } },
      responses: [
        { url: 'https://api.example.com/a', body: { n: 1 } },
        { url: 'https://api.example.com/b', body: 'text' },
      ],
    })
    const parsed = parseRecording(text)
    if (isFixtureHeaderProblem(parsed)) throw new Error(parsed.reason)
    expect(parsed.header).toEqual({ ...head, source: { repo: 'owner/name' } })
    expect(parsed.responses.map((r) => r.body)).toEqual([{ n: 1 }, 'text'])
    expect(parsed.locate(['url'])).toEqual({ line: 3, column: 5 })
    expect(parsed.locateInFile(['responses', 1, 'url'])).toEqual({ line: 17, column: 7 })
  })

  it('says what is missing or malformed, at the member at fault', () => {
    expect(problem('[]')).toEqual({
      problem: 'missing',
      reason: 'the file is not a JSON object with a "site-skills fixture" member',
      position: { line: 1, column: 1 },
    })
    expect(problem('{ "site-skills fixture": ')).toMatchObject({ problem: 'malformed', reason: /^invalid JSON/ })
    expect(problem(recording({ 'site-skills fixture': head, responses: [], body: 1 }))).toEqual({
      problem: 'malformed',
      reason: 'unknown key "body" (known: "site-skills fixture", responses)',
      position: { line: 7, column: 3 },
    })
    expect(problem(recording({ 'site-skills fixture': { url: head.url }, responses: [] }))).toEqual({
      problem: 'malformed',
      reason: 'captured must say when the page was captured',
      position: { line: 2, column: 3 },
    })
    expect(problem(recording({ 'site-skills fixture': head, responses: [] }))).toMatchObject({
      reason: 'responses must be a non-empty array of { url, body }',
      position: { line: 6, column: 3 },
    })
    expect(problem(recording({ 'site-skills fixture': head, responses: [{ url: '/a', body: 1 }] }))).toMatchObject({
      reason: 'url must be the absolute http(s) request URL',
      position: { line: 8, column: 7 },
    })
    expect(problem(recording({ 'site-skills fixture': head, responses: [{ url: head.url }] }))).toMatchObject({
      reason: 'body (the recorded response body) is missing',
    })
    expect(
      problem(recording({ 'site-skills fixture': head, responses: [{ url: head.url, body: 1, status: 404 }] })),
    ).toMatchObject({ reason: 'unknown key "status" (known: url, body)' })
  })
})

import type { ExampleResult } from './example-case'

/** A chosen skill's error, as `test` reports it (a diagnostic of `validate --json`, the fields used here). */
interface SkillError {
  siteId: string
  code: string
  message: string
  file?: string
  line?: number
  column?: number
}

/** What a JUnit report of `site-skills test` holds. */
export interface JunitInput {
  results: readonly ExampleResult[]
  /** The chosen skills' errors: their examples did not run. */
  errors: readonly SkillError[]
  /** Chosen skills without examples. */
  noExamples: readonly string[]
}

/** The longest message an attribute carries (the whole text is the element's body). */
const ATTRIBUTE_MAX = 500
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }

/**
 * What XML 1.0 cannot hold (its `Char` production: no C0 control but tab and line breaks, no lone
 * surrogate, no U+FFFE/F), and what it must escape: one pass over the text, as the `u` flag reads
 * code points (a lone surrogate is one).
 */
const XML_UNSAFE_RE = /[&<>"']|[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

/** Text as XML holds it: escaped, and what XML cannot hold replaced by U+FFFD. */
export function xmlText(text: string): string {
  return text.replace(XML_UNSAFE_RE, (c) => ESCAPES[c] ?? '\uFFFD')
}

const attribute = (text: string) =>
  xmlText(text.length > ATTRIBUTE_MAX ? `${text.slice(0, ATTRIBUTE_MAX)}… (${text.length} characters)` : text)

interface Case {
  classname: string
  name: string
  /** The element inside the testcase: a failure, an error or a skip. */
  inner?: string
  failed?: boolean
  errored?: boolean
  skipped?: boolean
}

function exampleCase(result: ExampleResult): Case {
  const base = { classname: `${result.siteId}.${result.tool}`, name: result.example }
  if (result.status === 'pass') return base
  const kind = result.kind ?? 'fail'
  const message = result.message ?? kind
  const inner = `<failure type="${attribute(kind)}" message="${attribute(message)}">${xmlText(message)}</failure>`
  return { ...base, inner, failed: true }
}

function errorCase(siteId: string, errors: readonly SkillError[]): Case {
  const lines = errors.map((e) => `${e.file ?? siteId}:${e.line ?? 0}:${e.column ?? 0} ${e.code} ${e.message}`)
  const message =
    `${errors.length} error${errors.length === 1 ? '' : 's'}: its examples did not run (see ` + `site-skills validate)`
  const inner = `<error type="validate" message="${attribute(message)}">${xmlText(lines.join('\n'))}</error>`
  return { classname: siteId, name: 'validate', inner, errored: true }
}

function skippedCase(siteId: string): Case {
  return { classname: siteId, name: 'examples', inner: '<skipped message="no examples"/>', skipped: true }
}

function suite(name: string, cases: readonly Case[]): string {
  const count = (key: 'failed' | 'errored' | 'skipped') => cases.filter((c) => c[key]).length
  const head =
    `  <testsuite name="${attribute(name)}" tests="${cases.length}" failures="${count('failed')}" ` +
    `errors="${count('errored')}" skipped="${count('skipped')}">`
  const body = cases.map((c) => {
    const open = `    <testcase classname="${attribute(c.classname)}" name="${attribute(c.name)}"`
    return c.inner ? `${open}>${c.inner}</testcase>` : `${open}/>`
  })
  return [head, ...body, '  </testsuite>'].join('\n')
}

/**
 * Adds `item` to its key's list in place: a list copied on each add made a report of one skill's 10,000 examples
 * quadratic.
 */
function pushTo<K, T>(lists: Map<K, T[]>, key: K, item: T): void {
  const list = lists.get(key)
  if (list) list.push(item)
  else lists.set(key, [item])
}

/**
 * The JUnit XML of a run, as CI systems read it: one `testsuite` per skill, a `testcase` per
 * example (`classname` `siteId.tool`, `name` the example) with a `failure` typed by its kind; a
 * skill with errors gets an `error` case `validate`, a skill without examples a `skipped` one.
 * Suites and cases in the run's order; no timings, so two runs of the same results give the same bytes.
 */
export function junitReport({ results, errors, noExamples }: JunitInput): string {
  const suites = new Map<string, Case[]>()
  const add = (siteId: string, c: Case) => pushTo(suites, siteId, c)
  for (const result of results) add(result.siteId, exampleCase(result))
  const bySkill = new Map<string, SkillError[]>()
  for (const error of errors) pushTo(bySkill, error.siteId, error)
  for (const [siteId, own] of bySkill) add(siteId || '(roots)', errorCase(siteId || '(roots)', own))
  for (const siteId of noExamples) add(siteId, skippedCase(siteId))
  const all = [...suites.values()].flat()
  const count = (key: 'failed' | 'errored' | 'skipped') => all.filter((c) => c[key]).length
  const head =
    `<testsuites name="site-skills test" tests="${all.length}" failures="${count('failed')}" ` +
    `errors="${count('errored')}" skipped="${count('skipped')}">`
  const body = [...suites].map(([name, cases]) => suite(name, cases))
  return ['<?xml version="1.0" encoding="UTF-8"?>', head, ...body, '</testsuites>'].join('\n')
}

import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { junitReport } from '../../src/examples/junit'
import type { ExampleResult } from '../../src/examples/example-case'
import { finishesWithin } from '../helpers/deadline'
import { REPO_ROOT } from '../helpers/tmp'

// Issue 35: `site-skills test --reporter junit` on a skill of many examples. The report copied a
// skill's list of cases on each one it added, so 40,000 examples of one skill took 17 s and twice
// as many four times that; now each is added in place.
const EXAMPLES = 100_000
/** Far above the linear report's time (under a second), far below the former quadratic's (minutes). */
const DEADLINE_MS = 15_000

const failing = (n: number): ExampleResult[] =>
  Array.from({ length: n }, (_, i) => ({
    siteId: 'shop',
    tool: 'search',
    example: `case ${i}`,
    status: 'fail',
    kind: 'expect-mismatch',
    message: `expected <b>${i}</b> & got "${i + 1}"`,
  })) as ExampleResult[]

describe('the JUnit report of many examples of one skill', () => {
  it('holds every case, escaped', () => {
    const xml = junitReport({ results: failing(3), errors: [], noExamples: [] })
    expect(xml).toContain('<testsuite name="shop" tests="3" failures="3" errors="0" skipped="0">')
    expect(xml).toContain('message="expected &lt;b&gt;2&lt;/b&gt; &amp; got &quot;3&quot;"')
  })

  it(`finishes on ${EXAMPLES.toLocaleString('en-US')} examples (in a worker with a deadline)`, async () => {
    const file = join(REPO_ROOT, 'src/examples/junit.ts')
    const input = { results: failing(EXAMPLES), errors: [], noExamples: [] }
    const xml = (await finishesWithin(file, 'junitReport', [input], DEADLINE_MS)) as string
    expect(xml.match(/<testcase /g)).toHaveLength(EXAMPLES)
  }, 30_000)
})

import { describe, expect, it } from 'vitest'
import { junitReport, xmlText } from '../../src/examples/junit'
import { defaultWorkers, runInOrder, shardOf } from '../../src/examples/schedule'
import type { ExampleResult } from '../../src/examples/example-case'

/** A promise and what settles it, for work that ends when the test says so. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: Error) => void
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok
    reject = fail
  })
  return { promise, resolve, reject }
}

/** Lets every callback already due run (the pool's bookkeeping), without a timer. */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}

describe('shardOf (--shard I/N)', () => {
  it('cuts any list into N contiguous parts that together are the list, sizes within one', () => {
    for (let length = 0; length <= 30; length++)
      for (let count = 1; count <= 8; count++) {
        const items = Array.from({ length }, (_, i) => i)
        const parts = Array.from({ length: count }, (_, i) => shardOf(items, { index: i + 1, count }))
        expect(parts.flat()).toEqual(items)
        const sizes = parts.map((p) => p.length)
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1)
      }
  })
})

describe('runInOrder (--workers N)', () => {
  it('reports in the items order, however the work ends, and runs at most N at once', async () => {
    const gates = [0, 1, 2, 3, 4].map(() => deferred<string>())
    let running = 0
    let most = 0
    const reported: string[] = []
    const done = runInOrder(
      [0, 1, 2, 3, 4],
      2,
      async (i) => {
        running++
        most = Math.max(most, running)
        const value = await gates[i]!.promise
        running--
        return value
      },
      (value) => reported.push(value),
    )
    gates[1]!.resolve('b')
    await settle()
    expect(reported).toEqual([])
    gates[2]!.resolve('c')
    gates[0]!.resolve('a')
    await settle()
    expect(reported).toEqual(['a', 'b', 'c'])
    gates[4]!.resolve('e')
    gates[3]!.resolve('d')
    expect(await done).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(reported).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(most).toBe(2)
  })

  it('stops taking work once an item fails, and rejects with its error', async () => {
    const started: number[] = []
    const run = runInOrder([0, 1, 2, 3, 4, 5], 2, async (i) => {
      started.push(i)
      if (i === 1) throw new Error('the browser did not start')
      return i
    })
    await expect(run).rejects.toThrow('the browser did not start')
    expect(started.length).toBeLessThan(6)
  })

  it('starts a later phase only once the earlier ones ended, and still reports in order', async () => {
    const gates = [0, 1, 2, 3].map(() => deferred<number>())
    const started: number[] = []
    const reported: number[] = []
    // Items 0 and 2 are phase 1 (browser examples), 1 and 3 phase 0 (Node examples).
    const done = runInOrder(
      [0, 1, 2, 3],
      4,
      async (i) => {
        started.push(i)
        return gates[i]!.promise
      },
      (value) => reported.push(value),
      (i) => (i % 2 === 0 ? 1 : 0),
    )
    await settle()
    expect(started).toEqual([1, 3])
    gates[1]!.resolve(1)
    await settle()
    expect(started).toEqual([1, 3])
    gates[3]!.resolve(3)
    await settle()
    expect(started).toEqual([1, 3, 0, 2])
    expect(reported).toEqual([])
    gates[0]!.resolve(0)
    gates[2]!.resolve(2)
    expect(await done).toEqual([0, 1, 2, 3])
    expect(reported).toEqual([0, 1, 2, 3])
  })

  it('defaults to one worker per core, from 1 to 4', () => {
    expect([1, 2, 3, 8, 64].map((cores) => defaultWorkers(cores))).toEqual([1, 2, 3, 4, 4])
  })
})

describe('the JUnit report', () => {
  it('escapes markup and replaces what XML cannot hold', () => {
    expect(xmlText(`<a href="x">&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;')
    expect(xmlText('a\u0000b\u0008c\td\ne\rf\ud800g\udc00h\ufffe😀')).toBe(
      'a\ufffdb\ufffdc\td\ne\rf\ufffdg\ufffdh\ufffd😀',
    )
  })

  it('keeps an attribute short, whatever the message, and the whole text in the element', () => {
    const message = 'x'.repeat(100_000)
    const result: ExampleResult = { siteId: 's', tool: 't', example: 'e', status: 'fail', kind: 'timeout', message }
    const xml = junitReport({ results: [result], errors: [], noExamples: [] })
    const attribute = /message="([^"]*)"/.exec(xml)![1]!
    expect(attribute.length).toBeLessThan(600)
    expect(xml.length).toBeGreaterThan(100_000)
  })

  it('reports a skill with errors as an error case and one without examples as skipped', () => {
    const xml = junitReport({
      results: [{ siteId: 'ok', tool: 't', example: 'e', status: 'pass' }],
      errors: [{ siteId: 'broken', code: 'tool-path', message: 'no such file', file: 'broken/manifest.json', line: 3 }],
      noExamples: ['bare'],
    })
    expect(xml).toContain('<testsuites name="site-skills test" tests="3" failures="0" errors="1" skipped="1">')
    expect(xml).toContain(
      '<error type="validate" message="1 error: its examples did not run (see site-skills validate)">',
    )
    expect(xml).toContain('broken/manifest.json:3:0 tool-path no such file')
    expect(xml).toContain('<testcase classname="bare" name="examples"><skipped message="no examples"/></testcase>')
  })
})

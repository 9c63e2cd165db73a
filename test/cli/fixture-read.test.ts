import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFixture } from '../../src/examples/run-example'
import { makeTempDir, writeTree } from '../helpers/tmp'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('fixture-read-')
})
afterAll(() => tmp.cleanup())

describe('a fixture read by site-skills test', () => {
  it('is read by the rules validation read it with: a FIFO swapped in since fails at once, never blocks', async () => {
    await writeTree(tmp.dir, { 'page.html': '<!doctype html><title>ok</title>\n' })
    expect(readFixture(join(tmp.dir, 'page.html')).toString('utf8')).toContain('<title>ok</title>')
    const fifo = join(tmp.dir, 'swapped.html')
    execFileSync('mkfifo', [fifo])
    // readFile would wait here for a writer that never comes, and the test would time out.
    expect(() => readFixture(fifo)).toThrow(/swapped\.html" is a named pipe \(FIFO\), not a regular file/)
    expect(() => readFixture(join(tmp.dir, 'missing.html'))).toThrow(/missing\.html"/)
  })
})

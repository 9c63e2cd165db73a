import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type StaticServer, serveFolder } from '../../playground/serve'
import { REPO_ROOT, makeTempDir } from '../helpers/tmp'
import { type Exited, runBin } from '../helpers/spawn'

const DEADLINE_MS = 60_000

function expectExit(run: Exited, code: number): void {
  expect({ code: run.code, timedOut: run.timedOut }, `after ${run.ms} ms; stderr: ${run.stderr}`).toEqual({
    code,
    timedOut: false,
  })
}

/**
 * The shipped demo skill against its own site, served from learnings/demo-shop/site/ as `npm
 * start` serves it (on a free port: the copy's example URLs name that port instead of 4173).
 */
describe('site-skills test --live on the shipped demo shop', () => {
  let site: StaticServer
  let dir: string
  let cleanup: () => Promise<void>

  beforeAll(async () => {
    site = await serveFolder(join(REPO_ROOT, 'learnings/demo-shop/site'))
    ;({ dir, cleanup } = await makeTempDir('live-demo-'))
    await cp(join(REPO_ROOT, 'learnings/demo-shop'), join(dir, 'demo-shop'), { recursive: true })
    const port = new URL(site.url).port
    for (const file of ['manifest.json', 'fixtures/products.json']) {
      const path = join(dir, 'demo-shop', file)
      await writeFile(path, (await readFile(path, 'utf8')).replaceAll('localhost:4173', `localhost:${port}`))
    }
  })
  afterAll(async () => {
    await site?.close()
    await cleanup?.()
  })

  it('passes every example live, a result the live page legitimately leaves a field out of included', async () => {
    const run = await runBin(['test', 'demo-shop', '--live', '--root', dir, '--json'], { limitMs: DEADLINE_MS })
    const { ok, results } = JSON.parse(run.stdout) as { ok: boolean; results: Record<string, string>[] }
    expect(results.filter((r) => r.status !== 'pass')).toEqual([])
    expect(results).toHaveLength(8)
    expect(ok).toBe(true)
    expectExit(run, 0)
  })

  it('--record with --live writes a record that says the examples ran live, each with its status', async () => {
    const argv = ['test', 'demo-shop', '--live', '--record', '--root', dir, '--json']
    const run = await runBin(argv, { limitMs: DEADLINE_MS })
    expectExit(run, 0)
    const { results } = JSON.parse(run.stdout) as { results: Record<string, string | number>[] }
    const record = JSON.parse(await readFile(join(dir, 'demo-shop/verification.json'), 'utf8'))
    expect(record.live).toBe(true)
    expect(record.summary).toEqual({ failed: 0, passed: results.length })
    // Each example's result tokens (SPEC 12) are recorded as `test` printed them.
    expect(record.examples).toEqual(
      results.map(({ tool, example, status, tokens }) => ({ example, status, tokens, tool })),
    )
    for (const e of record.examples) expect(e.tokens).toBeGreaterThan(0)
    expect(Object.keys(record.files)).toContain('fixtures/products.json')
  })
})

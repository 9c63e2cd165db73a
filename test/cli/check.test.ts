import { spawn } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'
import { BAD_READ, BAD_SEARCH, GOOD_READ, GOOD_SEARCH, validateFolder } from '../helpers/typescript'
import { BIN, cleanEnv, waitForExit, runBin } from '../helpers/spawn'

// Type-checking starts TypeScript: more than a plain command needs on a shared machine.
const DEADLINE = 60_000

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let bad: string
let good: string
beforeAll(async () => {
  tmp = await makeTempDir('check-')
  bad = join(tmp.dir, 'bad')
  good = join(tmp.dir, 'good')
  await writeTree(bad, validateFolder(BAD_SEARCH, BAD_READ))
  await writeTree(good, validateFolder(GOOD_SEARCH, GOOD_READ))
})
afterAll(() => tmp.cleanup())

describe('site-skills check', { timeout: 180_000 }, () => {
  it('passes the shipped learnings (every tool validated, the typed ones checked against their manifests)', async () => {
    const out = join(tmp.dir, 'learnings.d.ts')
    const run = await runBin(['check', '--root', 'learnings', '--out', out], { limitMs: DEADLINE })
    expect(run.timedOut).toBe(false)
    expect(run.stdout).toMatch(/✔ 0 type errors in \d+ tools of 6 skills/)
    expect(run.code).toBe(0)
    expect(await readFile(out, 'utf8')).toContain("declare module 'virtual:site-skills'")
  })

  it('reports each disagreement as file:line:col with exit 1, and exits 0 once fixed', async () => {
    const [failing, fixed] = [
      await runBin(['check', '--root', bad, '--out', join(bad, 'site-skills.d.ts')], { limitMs: DEADLINE }),
      await runBin(['check', '--root', good, '--out', join(good, 'site-skills.d.ts')], { limitMs: DEADLINE }),
    ]
    expect(failing.timedOut).toBe(false)
    expect(failing.code).toBe(1)
    expect(failing.stdout).toContain('bad/shop/tools/search.ts:2:23')
    expect(failing.stdout).toContain('Node tool "search" does not match its manifest (shop)')
    expect(failing.stdout).toContain('bad/shop/browser-tools/read.js:5:35')
    expect(failing.stdout).toContain("Type 'string' is not assignable to type 'number'")
    expect(failing.stdout).not.toContain('plain.js')
    // Grouped under the skill's header, as validate prints its findings.
    const header = failing.stdout.split('\n').findIndex((line) => /^✖ shop {2}\S*bad\/shop$/.test(line))
    expect(header, failing.stdout).toBeGreaterThanOrEqual(0)
    expect(failing.stdout.indexOf('bad/shop/tools/search.ts:2:23')).toBeGreaterThan(
      failing.stdout.split('\n').slice(0, header).join('\n').length,
    )
    expect(failing.stdout).toContain('2 type errors')
    expect(fixed.timedOut).toBe(false)
    expect(fixed.stdout).toContain('0 type errors')
    expect(fixed.code).toBe(0)
  })

  it('--json lists the type errors with their places', async () => {
    const run = await runBin(['check', '--json', '--root', bad, '--out', join(bad, 'site-skills.d.ts')], {
      limitMs: DEADLINE,
    })
    expect(run.code).toBe(1)
    const report = JSON.parse(run.stdout) as { ok: boolean; typeErrors: { file: string; line: number }[] }
    expect(report.ok).toBe(false)
    expect(report.typeErrors.map((e) => `${e.file.split('/bad/')[1]}:${e.line}`)).toEqual([
      'shop/browser-tools/read.js:5',
      'shop/tools/search.ts:2',
    ])
  })

  it('--watch runs again when a tool changes and exits on SIGINT', async () => {
    const dir = join(tmp.dir, 'watched')
    await writeTree(dir, validateFolder(BAD_SEARCH, BAD_READ))
    const args = [BIN, 'check', '--watch', '--root', dir, '--out', join(dir, 'site-skills.d.ts')]
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
    const exited = waitForExit(child, DEADLINE * 2)
    let seen = ''
    child.stdout.on('data', (chunk: Buffer) => (seen += String(chunk)))
    const until = (text: string, times = 1) =>
      expect
        .poll(() => seen.split(text).length - 1, { timeout: DEADLINE, message: `"${text}" printed ${times} times` })
        .toBeGreaterThanOrEqual(times)
    await until('watching for changes')
    expect(seen).toContain('2 type errors')
    await writeFile(join(dir, 'shop/tools/search.ts'), GOOD_SEARCH)
    await until('1 type error in', 1)
    await until('watching for changes', 2)
    const interrupted = performance.now()
    child.kill('SIGINT')
    const run = await exited
    expect(run.timedOut).toBe(false)
    expect(performance.now() - interrupted).toBeLessThan(5000)
    expect(run.code).toBe(1)
  })
})

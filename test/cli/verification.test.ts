import { createHash } from 'node:crypto'
import { appendFile, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'
import { ADD, CALC } from '../helpers/calc-skill'
import { runBin } from '../helpers/spawn'

// `test --record`, then `validate` and `context`, through the real binary on files on disk.
let tmp: Awaited<ReturnType<typeof makeTempDir>>
let root: string
const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`
const NOTE = '# Calc\n\nAdds numbers.\n'

beforeAll(async () => {
  tmp = await makeTempDir('verification-')
  root = join(tmp.dir, 'learnings')
  await writeTree(root, {
    'calc/manifest.json': CALC,
    'calc/tools/add.js': ADD,
    'calc/notes/overview.md': NOTE,
  })
})
afterAll(() => tmp?.cleanup())

const bin = (argv: string[]) => runBin([...argv, '--root', root], { cwd: tmp.dir, limitMs: 30_000 })

describe('site-skills test --record', () => {
  it('writes verification.json, which validate checks and context shows, until a file changes', async () => {
    const recorded = await bin(['test', '--record', '--json'])
    expect(recorded.timedOut).toBe(false)
    expect(recorded.code, recorded.stderr).toBe(0)
    expect(JSON.parse(recorded.stdout).recorded).toEqual(['learnings/calc/verification.json'])
    const text = await readFile(join(root, 'calc/verification.json'), 'utf8')
    const record = JSON.parse(text)
    const manifestText = await readFile(join(root, 'calc/manifest.json'), 'utf8')
    const version = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')).version
    expect(Object.keys(record)).toEqual(['date', 'examples', 'files', 'live', 'package', 'siteId', 'summary'])
    expect(record).toMatchObject({
      siteId: 'calc',
      live: false,
      package: { name: 'unplugin-site-skills', version },
      summary: { failed: 0, passed: 1 },
      examples: [{ example: 'one-plus-two', status: 'pass', tool: 'add', tokens: expect.any(Number) }],
      files: { 'manifest.json': sha(manifestText), 'notes/overview.md': sha(NOTE), 'tools/add.js': sha(ADD) },
    })
    expect(Object.keys(record.files)).toEqual(['manifest.json', 'notes/overview.md', 'tools/add.js'])
    expect(Date.now() - Date.parse(record.date)).toBeLessThan(10 * 60_000)
    expect(text.endsWith('}\n')).toBe(true)

    const clean = await bin(['validate', '--json'])
    expect(clean.code).toBe(0)
    expect(JSON.parse(clean.stdout).diagnostics).toEqual([])
    const fresh = await bin(['context', '--json', 'https://calc.example.com/'])
    expect(JSON.parse(fresh.stdout).verification).toEqual({
      calc: { date: record.date, version, live: false, passed: 1, failed: 0, current: true },
    })

    await appendFile(join(root, 'calc/tools/add.js'), '// edited\n')
    const stale = await bin(['validate', '--json'])
    expect(stale.code).toBe(0)
    const keyLine = text.split('\n').findIndex((l) => l.includes('"tools/add.js"')) + 1
    expect(JSON.parse(stale.stdout).diagnostics).toEqual([
      {
        code: 'verification-stale',
        data: { change: 'changed', file: 'tools/add.js' },
        severity: 'warning',
        siteId: 'calc',
        root: 'learnings',
        file: 'calc/verification.json',
        line: keyLine,
        column: 5,
        message: '"tools/add.js" was changed since verification.json was recorded',
        hint: 'Run site-skills test --record again to verify the skill as it is now.',
      },
    ])
    const human = await bin(['validate'])
    expect(human.stdout).toContain(`warning verification-stale  learnings/calc/verification.json:${keyLine}:5`)
    expect(human.stdout).toContain('0 errors, 1 warning in 1 skill')
    const old = await bin(['context', 'https://calc.example.com/'])
    expect(old.stdout).toContain(
      `calc verified ${record.date} with unplugin-site-skills ${version}, on fixtures: 1 passed, 0 failed; files changed since`,
    )

    const again = await bin(['test', '--record'])
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('recorded learnings/calc/verification.json')
    expect(JSON.parse((await bin(['validate', '--json'])).stdout).diagnostics).toEqual([])
  })
})

import { execFileSync } from 'node:child_process'
import { lstat, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILE_LIMITS } from '../../src/compiler/fs/files'
import { TREE_LIMITS } from '../../src/compiler/fs/tree'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { ADD, CALC } from '../helpers/calc-skill'
import { runBin } from '../helpers/spawn'

// Issue 35: every read, hash and write of a verification record goes through the file guard.
// Each case has a root of its own, and runs the real binary; a run that hangs is killed at LIMIT_MS.
let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('verification-guard-')
})
afterAll(() => tmp?.cleanup())

const LIMIT_MS = 30_000
/** A root (under the case's own folder) holding the calc skill and `extra` files; returns the root. */
async function calcRoot(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const root = join(tmp.dir, name, 'learnings')
  await writeTree(root, {
    'calc/manifest.json': CALC,
    'calc/tools/add.js': ADD,
    'calc/notes/overview.md': '# Calc\n',
    ...extra,
  })
  return root
}

const bin = async (root: string, argv: string[]) => {
  const run = await runBin([...argv, '--root', root], { cwd: tmp.dir, limitMs: LIMIT_MS })
  expect(run.timedOut, `${argv.join(' ')} did not exit on its own`).toBe(false)
  return run
}
const json = (run: { stdout: string }) => JSON.parse(run.stdout)
const mkfifo = (path: string) => execFileSync('mkfifo', [path])
const codes = (report: { diagnostics?: { code: string; file: string }[] }) =>
  (report.diagnostics ?? []).map((d) => `${d.file} ${d.code}`)

describe('site-skills test --record writes through the file guard', () => {
  it('never writes through a verification.json symlink (out, or inside), nor creates a file through a dangling one', async () => {
    const root = await calcRoot('links', { 'calc/verification.json': { symlink: '../../outside.json' } })
    const outside = join(root, '../outside.json')
    await writeFile(outside, 'OUTSIDE\n')
    const refused = await bin(root, ['test', '--record', '--json'])
    expect(refused.code).toBe(1)
    const report = json(refused)
    expect(report.ok).toBe(false)
    expect(report.recorded).toEqual([])
    expect(report.results.map((r: { status: string }) => r.status)).toEqual(['pass'])
    expect(report.diagnostics).toMatchObject([
      {
        code: 'verification-unwritten',
        severity: 'error',
        siteId: 'calc',
        file: 'calc/verification.json',
        message:
          'verification.json was not written: verification.json is a symlink: nothing was written (the file is replaced, never written through a link)',
      },
    ])
    expect(await readFile(outside, 'utf8')).toBe('OUTSIDE\n')
    expect((await lstat(join(root, 'calc/verification.json'))).isSymbolicLink()).toBe(true)

    const human = await bin(root, ['test', '--record'])
    expect(human.code).toBe(1)
    expect(human.stderr).toContain('site-skills: verification-unwritten: ')
    expect(human.stderr).toContain('calc/verification.json: verification.json was not written')
    expect(human.stdout).not.toContain('recorded ')

    // A dangling symlink: nothing is created where it points.
    await rm(join(root, 'calc/verification.json'))
    await symlink('../../made-by-record.json', join(root, 'calc/verification.json'))
    expect((await bin(root, ['test', '--record'])).code).toBe(1)
    expect(existsSync(join(root, '../made-by-record.json'))).toBe(false)

    // Not even a symlink that stays in the skill folder is written through.
    await rm(join(root, 'calc/verification.json'))
    await writeFile(join(root, 'calc/kept.json'), 'KEPT\n')
    await symlink('kept.json', join(root, 'calc/verification.json'))
    expect((await bin(root, ['test', '--record'])).code).toBe(1)
    expect(await readFile(join(root, 'calc/kept.json'), 'utf8')).toBe('KEPT\n')
  })

  it('a FIFO named verification.json, or a link to /dev/zero, hangs neither validate, match, context nor test', async () => {
    const root = await calcRoot('fifo')
    const record = join(root, 'calc/verification.json')
    mkfifo(record)
    const validate = await bin(root, ['validate', '--json'])
    expect(validate.code).toBe(0)
    expect(json(validate).diagnostics).toMatchObject([
      {
        code: 'verification-invalid',
        file: 'calc/verification.json',
        line: 1,
        column: 1,
        message: 'verification.json cannot be used: it is a named pipe (FIFO), not a regular file',
      },
    ])
    const match = await bin(root, ['match', '--json', 'https://calc.example.com/'])
    expect(match.code).toBe(0)
    expect(json(match)).toEqual({ 'https://calc.example.com/': ['calc'] })
    const context = await bin(root, ['context', '--json', 'https://calc.example.com/'])
    expect(context.code).toBe(0)
    expect(json(context).verification).toBeUndefined()
    // The FIFO is neither written into nor replaced: the record is refused, for this skill.
    const test = await bin(root, ['test', '--record', '--json'])
    expect(test.code).toBe(1)
    expect(json(test).diagnostics).toMatchObject([
      {
        code: 'verification-unwritten',
        message:
          'verification.json was not written: verification.json is a named pipe (FIFO), not a regular file: nothing was written',
      },
    ])
    expect((await lstat(record)).isFIFO()).toBe(true)

    await rm(record)
    await symlink('/dev/zero', record)
    const zero = await bin(root, ['validate', '--json'])
    expect(zero.code).toBe(0)
    expect(json(zero).diagnostics.map((d: { message: string }) => d.message)).toEqual([
      'verification.json cannot be used: it is a symlink that leads out of the skill folder',
    ])
    expect((await bin(root, ['match', 'https://calc.example.com/'])).code).toBe(0)
  })

  it('symlink loops in a skill hang neither test --record nor validate, and a symlink out is never hashed', async () => {
    const root = await calcRoot('loops', {
      'calc/a': { symlink: '.' },
      'calc/b': { symlink: '.' },
      'calc/notes/up': { symlink: '..' },
      'calc/data': { symlink: '../../big' },
      'calc/gone': { symlink: 'nowhere' },
      'calc/fixtures/page.html': '<p>kept</p>\n',
      'calc/fixtures/same': { symlink: 'page.html' },
      '../big/huge.bin': '',
    })
    // 3 GiB, sparse: hashing it would take the run far past its limit.
    await truncate(join(root, '../big/huge.bin'), 3 * 1024 ** 3)
    mkfifo(join(root, 'calc/pipe'))
    const recorded = await bin(root, ['test', '--record', '--json'])
    expect(recorded.code, recorded.stderr).toBe(0)
    const files = JSON.parse(await readFile(join(root, 'calc/verification.json'), 'utf8')).files
    expect(Object.keys(files)).toEqual([
      'a',
      'b',
      'data',
      'fixtures/page.html',
      'fixtures/same',
      'gone',
      'manifest.json',
      'notes/overview.md',
      'notes/up',
      'pipe',
      'tools/add.js',
    ])
    expect(files).toMatchObject({
      a: 'unhashed:loop',
      b: 'unhashed:loop',
      data: 'unhashed:link-out',
      gone: 'unhashed:dangling',
      'notes/up': 'unhashed:loop',
      pipe: 'unhashed:not-regular',
    })
    expect(files['fixtures/same']).toBe(files['fixtures/page.html'])
    expect(files['fixtures/page.html']).toMatch(/^sha256:[0-9a-f]{64}$/)
    const validate = await bin(root, ['validate', '--json'])
    expect(validate.code).toBe(0)
    expect(json(validate).diagnostics).toEqual([])
  })

  it(`caps the bytes hashed: a file over ${FILE_LIMITS.fixture} bytes, and files past ${TREE_LIMITS.hashed} in all, are recorded unhashed`, async () => {
    const count = Math.ceil(TREE_LIMITS.hashed / FILE_LIMITS.fixture) + 1
    const blobs = Object.fromEntries(
      Array.from({ length: count }, (_, i) => [`calc/blobs/${String(i).padStart(2, '0')}.bin`, '']),
    )
    const root = await calcRoot('budget', { ...blobs, 'calc/big.bin': '' })
    await truncate(join(root, 'calc/big.bin'), FILE_LIMITS.fixture + 1)
    for (const rel of Object.keys(blobs)) await truncate(join(root, rel), FILE_LIMITS.fixture)
    const recorded = await bin(root, ['test', '--record'])
    expect(recorded.code, recorded.stderr).toBe(0)
    const files = JSON.parse(await readFile(join(root, 'calc/verification.json'), 'utf8')).files
    expect(files['big.bin']).toBe('unhashed:too-large')
    const blobDigests = Object.keys(blobs).map((rel) => files[rel.slice('calc/'.length)])
    const hashed = blobDigests.filter((d) => d.startsWith('sha256:')).length
    expect(hashed).toBe(Math.floor(TREE_LIMITS.hashed / FILE_LIMITS.fixture))
    expect(blobDigests.slice(hashed).every((d) => d === 'unhashed:over-budget')).toBe(true)
  })

  it('hashes the files before the run: a file that changes during it keeps the record from being written', async () => {
    const root = join(tmp.dir, 'changing', 'learnings')
    const tool = join(root, 'touchy/tools/touch.js')
    await writeTree(root, {
      'touchy/manifest.json': {
        id: 'touchy',
        name: 'Touchy',
        domains: ['touchy.example.com'],
        nodeTools: {
          touch: {
            description: 'Appends a line to a file (its own).',
            path: 'tools/touch.js',
            callable: 'touch',
            args: { path: { type: 'string', required: true, description: 'The file.' } },
            returns: { type: 'number', description: 'One.' },
            examples: [{ name: 'itself', args: { path: tool }, expect: 1 }],
          },
        },
      },
      'touchy/tools/touch.js':
        "import { appendFileSync } from 'node:fs'\nexport function touch(ctx, args) {\n  appendFileSync(args.path, '// touched\\n')\n  return 1\n}\n",
    })
    const run = await bin(root, ['test', '--record', '--json'])
    expect(run.code).toBe(1)
    const report = json(run)
    expect(report.results.map((r: { status: string }) => r.status)).toEqual(['pass'])
    expect(report.recorded).toEqual([])
    expect(report.diagnostics).toMatchObject([
      {
        code: 'verification-unwritten',
        file: 'touchy/verification.json',
        data: { problem: 'changed', files: ['tools/touch.js'] },
        message: '"tools/touch.js" changed while the examples ran: verification.json was not written',
      },
    ])
    expect(existsSync(join(root, 'touchy/verification.json'))).toBe(false)
    const human = await bin(root, ['test', '--record'])
    expect(human.code).toBe(1)
    expect(human.stderr).toContain(
      'site-skills: verification-unwritten: ' +
        `${join('changing/learnings/touchy/verification.json')}: "tools/touch.js" changed while the examples ran`,
    )
  })
})

describe('validate reads a verification record through the file guard', () => {
  it('a record whose summary contradicts its examples is verification-invalid, and context does not show it', async () => {
    const root = await calcRoot('contradicts')
    expect((await bin(root, ['test', '--record'])).code).toBe(0)
    const path = join(root, 'calc/verification.json')
    const text = await readFile(path, 'utf8')
    const record = JSON.parse(text)
    expect(record.summary).toEqual({ failed: 0, passed: 1 })
    await writeFile(path, text.replace('"passed": 1', '"passed": 7'))
    const validate = await bin(root, ['validate', '--json'])
    expect(validate.code).toBe(0)
    const line = text.split('\n').findIndex((l) => l.includes('"summary"')) + 1
    expect(json(validate).diagnostics).toMatchObject([
      {
        code: 'verification-invalid',
        severity: 'warning',
        file: 'calc/verification.json',
        line,
        column: 3,
        message:
          'verification.json cannot be used: its summary says 7 passed, 0 failed, but its examples hold 1 passed, 0 failed',
      },
    ])
    const context = await bin(root, ['context', '--json', 'https://calc.example.com/'])
    expect(json(context).verification).toBeUndefined()
    const human = await bin(root, ['context', 'https://calc.example.com/'])
    expect(human.stdout).not.toContain('verified')
    expect(human.stdout).not.toContain('7 passed')
  })

  it('a record that is not JSON, or lacks a field, is verification-invalid at its place, with the hint (exit 0)', async () => {
    const root = await calcRoot('broken')
    expect((await bin(root, ['test', '--record'])).code).toBe(0)
    const path = join(root, 'calc/verification.json')
    const text = await readFile(path, 'utf8')
    const lineOf = (key: string) => text.split('\n').findIndex((l) => l.includes(key)) + 1
    const cases: [string, string, Record<string, unknown>][] = [
      [
        text.slice(0, text.indexOf('"summary"')),
        'not JSON',
        {
          line: lineOf('"summary"'),
          column: 3,
          message: 'verification.json cannot be used: property name expected at end of input',
        },
      ],
      [
        text.replace(/"date": "[^"]*"/, '"date": 1'),
        'no date',
        {
          line: lineOf('"date"'),
          column: 3,
          message: 'verification.json cannot be used: its "date" is not a string',
        },
      ],
      ['[]\n', 'a list', { line: 1, column: 1, message: 'verification.json cannot be used: it is not a JSON object' }],
    ]
    for (const [broken, what, where] of cases) {
      await writeFile(path, broken)
      const validate = await bin(root, ['validate', '--json'])
      expect(validate.code, what).toBe(0)
      expect(json(validate).diagnostics, what).toMatchObject([
        {
          code: 'verification-invalid',
          severity: 'warning',
          siteId: 'calc',
          file: 'calc/verification.json',
          hint: 'verification.json is written by site-skills test --record; run it again rather than editing the file.',
          ...where,
        },
      ])
      const context = await bin(root, ['context', '--json', 'https://calc.example.com/'])
      expect(json(context).verification, what).toBeUndefined()
    }
    const human = await bin(root, ['validate'])
    expect(human.code).toBe(0)
    expect(human.stdout).toContain('warning verification-invalid  broken/learnings/calc/verification.json:1:1')
    expect(human.stdout).toContain('verification.json cannot be used: it is not a JSON object\n    > 1 | []')
    expect(human.stdout).toContain(
      'hint: verification.json is written by site-skills test --record; run it again rather than editing the file.',
    )
    expect(human.stdout).toContain('0 errors, 1 warning in 1 skill')
  })

  it('checks a 1 MB hand-made record in linear time, and refuses one over the record limit', async () => {
    const root = await calcRoot('large')
    const files: Record<string, string> = {}
    for (let i = 0; i < 12_000; i++) files[`gone/${i}.txt`] = `sha256:${'0'.repeat(64)}`
    const record = {
      date: '2026-12-01T00:00:00.000Z',
      examples: [],
      files,
      live: false,
      package: { name: 'unplugin-site-skills', version: '0.0.0' },
      siteId: 'calc',
      summary: { failed: 0, passed: 0 },
    }
    const path = join(root, 'calc/verification.json')
    await writeFile(path, JSON.stringify(record, null, 2))
    const report = json(await bin(root, ['validate', '--json']))
    expect(codes(report).filter((c) => c === 'calc/verification.json verification-stale')).toHaveLength(12_003)
    const last = report.diagnostics.find((d: { data: { file: string } }) => d.data.file === 'gone/11999.txt')
    expect(last.line).toBe(12_000 + 4)
    // The human report reads the record once for its code frames, not once a finding.
    const human = await bin(root, ['validate'])
    expect(human.code).toBe(0)
    expect(human.stdout).toContain('0 errors, 12003 warnings in 1 skill')

    await truncate(path, FILE_LIMITS.record + 1)
    expect(json(await bin(root, ['validate', '--json'])).diagnostics).toMatchObject([
      {
        code: 'verification-invalid',
        message: `verification.json cannot be used: it is ${FILE_LIMITS.record + 1} bytes; the limit is ${FILE_LIMITS.record} bytes (4 MiB)`,
      },
    ])
  })
})

import { execFileSync } from 'node:child_process'
import { lstatSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RULES } from '../helpers/compile'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { GOOD_READ, GOOD_SEARCH, linkProject, validateFolder } from '../helpers/typescript'
import { type Exited, runBin } from '../helpers/spawn'

// Issue 35: `types` and `check` write the d.ts through the file guard. A FIFO at its path hung them
// (the write waited for a reader) and a symlink there had the d.ts written over what it led to; now
// nothing is written there and the command says why (`dts-unwritten`, exit 1). Standard output
// (`--out -`, `--out /dev/stdout`) is the stream, as before (test/cli/binary.test.ts).
let tmp: Awaited<ReturnType<typeof makeTempDir>>
let outside: string
const ROOT = join(RULES, 'valid-basic')

function expectExit(run: Exited, code: number): void {
  expect({ code: run.code, timedOut: run.timedOut }, `after ${run.ms} ms; stderr: ${run.stderr}`).toEqual({
    code,
    timedOut: false,
  })
}

beforeAll(async () => {
  tmp = await makeTempDir('dts-cli-')
  outside = join(tmp.dir, 'outside.txt')
  await writeTree(tmp.dir, { 'outside.txt': 'not the d.ts\n', 'types/.keep': '' })
})
afterAll(() => tmp?.cleanup())

describe('site-skills types through the file guard', () => {
  it('--out naming a FIFO: nothing is written into it, dts-unwritten, exit 1, and the command exits', async () => {
    const out = join(tmp.dir, 'types/pipe.d.ts')
    execFileSync('mkfifo', [out])
    const run = await runBin(['types', '--root', ROOT, '--out', out], { cwd: tmp.dir })
    expectExit(run, 1)
    expect(run.stderr).toBe(
      'site-skills: dts-unwritten: types/pipe.d.ts is a named pipe (FIFO), not a regular file: nothing was written\n',
    )
    expect(lstatSync(out).isFIFO()).toBe(true)
  })

  it('a symlink at the default path: the file it leads to is not written', async () => {
    symlinkSync(outside, join(tmp.dir, 'site-skills.d.ts'))
    const run = await runBin(['types', '--root', ROOT], { cwd: tmp.dir })
    expectExit(run, 1)
    expect(run.stderr).toMatch(/^site-skills: dts-unwritten: site-skills\.d\.ts is a symlink: nothing was written/)
    expect(readFileSync(outside, 'utf8')).toBe('not the d.ts\n')
    rmSync(join(tmp.dir, 'site-skills.d.ts'))
  })
})

describe('site-skills check through the file guard', () => {
  it('a FIFO at the d.ts: dts-unwritten, exit 1, and check exits', async () => {
    const dir = join(tmp.dir, 'check')
    await writeTree(dir, {
      'package.json': '{ "type": "module" }\n',
      ...Object.fromEntries(
        Object.entries(validateFolder(GOOD_SEARCH, GOOD_READ)).map(([rel, content]) => [`learnings/${rel}`, content]),
      ),
    })
    await linkProject(dir, 6)
    execFileSync('mkfifo', [join(dir, 'site-skills.d.ts')])
    const run = await runBin(['check'], { cwd: dir })
    expectExit(run, 1)
    expect(run.stderr).toBe(
      'site-skills: dts-unwritten: site-skills.d.ts is a named pipe (FIFO), not a regular file: nothing was written\n',
    )
    expect(lstatSync(join(dir, 'site-skills.d.ts')).isFIFO()).toBe(true)
  })
})

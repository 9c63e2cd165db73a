import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { copyFile, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runNode } from '../helpers/spawn'
import { REPO_ROOT, makeTempDir } from '../helpers/tmp'

// The commit-msg check and its install: a project of its own under test/.tmp with the repository's
// hook, check and `prepare` script, committed to by the real git.
let tmp: Awaited<ReturnType<typeof makeTempDir>>
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
const subject = (length: number) => `Fix ${'x'.repeat(length - 4)}`
const SCRIPTS = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>
// npm ci runs `postprepare` (no `prepare`: npm 11 warns about a dependency's), which runs `githooks` first.
const prepare = SCRIPTS.githooks!
/** core.hooksPath as git sees it in `cwd` (the enclosing repository's, for a folder of none), or undefined. */
const hooksPath = (cwd: string) => {
  try {
    return git(cwd, 'config', 'core.hooksPath').trim()
  } catch {
    return undefined
  }
}

/** A folder with the repository's hook files (or none), as a checkout or an unpacked tarball has them. */
async function project(name: string, hooks: boolean): Promise<string> {
  const dir = join(tmp.dir, name)
  await mkdir(join(dir, 'scripts'), { recursive: true })
  if (hooks) {
    await mkdir(join(dir, '.githooks'))
    await copyFile(join(REPO_ROOT, '.githooks/commit-msg'), join(dir, '.githooks/commit-msg'))
    await copyFile(join(REPO_ROOT, 'scripts/commit-msg.mjs'), join(dir, 'scripts/commit-msg.mjs'))
    await copyFile(join(REPO_ROOT, 'scripts/git-hooks.mjs'), join(dir, 'scripts/git-hooks.mjs'))
  }
  return dir
}

/** Runs package.json's `githooks` (what `postprepare` runs first) as npm does, in `cwd`. */
const runPrepare = (cwd: string) => {
  const [command, ...rest] = prepare.match(/^node -e "(.*)"$/)!.slice(1)
  expect(rest).toEqual([])
  return runNode(['-e', command!], { cwd })
}

beforeAll(async () => {
  tmp = await makeTempDir('commit-msg-')
})
afterAll(() => tmp?.cleanup())

describe('the commit-msg check', () => {
  it('passes a subject of 72 characters and refuses one of 73, naming the limit', async () => {
    const file = join(tmp.dir, 'MSG')
    for (const [text, code] of [
      [`${subject(72)}\n\nA body line may be as long as it likes: ${'y'.repeat(100)}\n`, 0],
      [`${subject(73)}\n`, 1],
      [`# Please enter the commit message ${'#'.repeat(80)}\n\n${subject(72)}\n`, 0],
      [`fixup! ${subject(72)}\n`, 0],
      [`${'é'.repeat(72)}\n`, 0],
    ] as const) {
      await writeFile(file, text)
      const run = await runNode([join(REPO_ROOT, 'scripts/commit-msg.mjs'), file], { cwd: tmp.dir })
      expect(run.timedOut).toBe(false)
      expect(run.code, text).toBe(code)
      if (code === 1) expect(run.stderr).toContain('the subject is 73 characters; the limit is 72')
    }
  })

  it('is installed by npm ci (postprepare) in a git checkout, and then git refuses a long subject', async () => {
    const dir = await project('checkout', true)
    git(dir, 'init', '-q')
    const run = await runPrepare(dir)
    expect(run.code, run.stderr).toBe(0)
    expect(git(dir, 'config', 'core.hooksPath').trim()).toBe('.githooks')
    expect(() => git(dir, 'commit', '-q', '--allow-empty', '-m', subject(73))).toThrow(/the limit is 72/)
    git(dir, 'commit', '-q', '--allow-empty', '-m', subject(72))
    expect(git(dir, 'log', '--format=%s')).toBe(`${subject(72)}\n`)
  })

  it('githooks does nothing and exits 0 where there is no checkout or no hook (an unpacked tarball)', async () => {
    const bare = await project('tarball', false)
    const noGit = await project('no-git', true)
    const before = hooksPath(bare)
    const inTarball = await runPrepare(bare)
    expect(inTarball.code, inTarball.stderr).toBe(0)
    expect(inTarball.stderr).toBe('')
    const outside = await runPrepare(noGit)
    expect(outside.code, outside.stderr).toBe(0)
    expect(outside.stderr).toBe('')
    // Nothing set for the repository around them (test/.tmp lies inside this one), and no .git made.
    expect(hooksPath(bare)).toBe(before)
    expect(existsSync(join(noGit, '.git'))).toBe(false)
  })
})

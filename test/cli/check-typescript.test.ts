import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir, writeTree } from '../helpers/tmp'
import {
  BAD_READ,
  BAD_SEARCH,
  GOOD_READ,
  GOOD_SEARCH,
  type Major,
  TYPESCRIPTS,
  WHICH_TYPESCRIPT,
  validateFolder,
  inNodeModules,
  linkProject,
  versionOf,
  whichTypeScript,
} from '../helpers/typescript'
import { BIN, type Exited, cleanEnv, runNode, waitForExit } from '../helpers/spawn'

// Type-checking starts TypeScript (5 and 6 take seconds to load on a shared machine).
const DEADLINE = 90_000

/** `site-skills check ...args` in `cwd`, with the report of which TypeScript ran. */
const check = (cwd: string, args: string[] = []) =>
  runNode(['--import', WHICH_TYPESCRIPT, BIN, 'check', ...args], { cwd, limitMs: DEADLINE })

/** What a run shows its user (the report of the TypeScript that ran taken out of stderr). */
const shown = (run: Exited) => ({ code: run.code, stdout: run.stdout, stderr: whichTypeScript(run.stderr).rest })

/** Asserts from the run's report that TypeScript `major` checked, and no other. */
function expectRanMajor(run: Exited, major: Major): void {
  const { loaded, spawned } = whichTypeScript(run.stderr)
  const apis = loaded.filter((f) => f.endsWith('/lib/typescript.js')).map(inNodeModules)
  const compilers = spawned.filter((f) => /\/@typescript\/typescript-[^/]+\/lib\/tsc(\.exe)?$/.test(f))
  if (major === 7) {
    expect(apis).toEqual([])
    expect(compilers).toHaveLength(1)
  } else {
    expect(apis).toEqual([`${major === 6 ? 'typescript' : `typescript-${major}`}/lib/typescript.js`])
    expect(compilers).toEqual([])
  }
}

let tmp: Awaited<ReturnType<typeof makeTempDir>>
/** Per major: a project with a skill whose two typed tools disagree with the manifest, and one where they agree. */
const projects = new Map<Major, { bad: string; good: string }>()
beforeAll(async () => {
  tmp = await makeTempDir('check-ts-')
  for (const { major } of TYPESCRIPTS) {
    const bad = join(tmp.dir, `ts${major}-bad`)
    const good = join(tmp.dir, `ts${major}-good`)
    await writeTree(bad, {
      'package.json': '{ "type": "module" }\n',
      ...prefixed(validateFolder(BAD_SEARCH, BAD_READ)),
    })
    await writeTree(good, {
      'package.json': '{ "type": "module" }\n',
      ...prefixed(validateFolder(GOOD_SEARCH, GOOD_READ)),
    })
    await linkProject(bad, major)
    await linkProject(good, major)
    projects.set(major, { bad, good })
  }
})
afterAll(() => tmp.cleanup())

const prefixed = (files: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(files).map(([rel, content]) => [`learnings/${rel}`, content]))

describe("site-skills check with the project's TypeScript 5, 6 and 7", { timeout: 600_000 }, () => {
  it('the projects hold the majors they say (5.9, 6.0 and 7.0 packages)', () => {
    expect(TYPESCRIPTS.map(({ major }) => Number.parseInt(versionOf(major), 10))).toEqual([5, 6, 7])
    expect(versionOf(7)).toBe('7.0.2')
  })

  it('reports the same errors, places, messages and code frames on every major, with exit 1', async () => {
    const runs = new Map<Major, Exited>()
    for (const { major } of TYPESCRIPTS) runs.set(major, await check(projects.get(major)!.bad))
    for (const [major, run] of runs) {
      expect(run.timedOut, `TypeScript ${major}: ${run.stderr}`).toBe(false)
      expectRanMajor(run, major)
    }
    const six = shown(runs.get(6)!)
    expect(six.code).toBe(1)
    expect(six.stderr).toBe('')
    expect(six.stdout).toContain('learnings/shop/tools/search.ts:2:23')
    expect(six.stdout).toContain('Node tool "search" does not match its manifest (shop)')
    expect(six.stdout).toContain('learnings/shop/browser-tools/read.js:5:35')
    expect(six.stdout).toContain('2 type errors in 3 tools of 1 skill')
    expect(shown(runs.get(5)!)).toEqual(six)
    expect(shown(runs.get(7)!)).toEqual(six)
  })

  it('--json: the same typeErrors on every major', async () => {
    const runs = new Map<Major, Exited>()
    for (const { major } of TYPESCRIPTS) runs.set(major, await check(projects.get(major)!.bad, ['--json']))
    const six = shown(runs.get(6)!)
    const report = JSON.parse(six.stdout) as { ok: boolean; typeErrors: { file: string; code: string }[] }
    expect(report.ok).toBe(false)
    expect(report.typeErrors.map((e) => `${e.code} ${e.file}`)).toEqual([
      'TS2322 learnings/shop/browser-tools/read.js',
      'TS1360 learnings/shop/tools/search.ts',
    ])
    for (const major of [5, 7] as const) {
      expectRanMajor(runs.get(major)!, major)
      expect(shown(runs.get(major)!)).toEqual(six)
    }
  })

  it('passes the fixed tools on every major: exit 0, the same summary', async () => {
    for (const { major } of TYPESCRIPTS) {
      const run = await check(projects.get(major)!.good)
      expectRanMajor(run, major)
      expect(shown(run)).toEqual({
        code: 0,
        stdout: '✔ 0 type errors in 3 tools of 1 skill (types: site-skills.d.ts)\n',
        stderr: '',
      })
    }
  })

  it('--watch on TypeScript 7: checks again after an edit, and exits on SIGINT with its compiler', async () => {
    const dir = join(tmp.dir, 'ts7-watched')
    await writeTree(dir, prefixed(validateFolder(BAD_SEARCH, BAD_READ)))
    await linkProject(dir, 7)
    const args = ['--import', WHICH_TYPESCRIPT, BIN, 'check', '--watch']
    const child = spawn(process.execPath, args, { cwd: dir, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
    const exited = waitForExit(child, DEADLINE * 2)
    let seen = ''
    child.stdout.on('data', (chunk: Buffer) => (seen += String(chunk)))
    const until = (text: string, times: number) =>
      expect
        .poll(() => seen.split(text).length - 1, { timeout: DEADLINE, message: `"${text}" printed ${times} times` })
        .toBeGreaterThanOrEqual(times)
    await until('watching for changes', 1)
    expect(seen).toContain('2 type errors')
    await writeFile(join(dir, 'learnings/shop/tools/search.ts'), GOOD_SEARCH)
    await until('watching for changes', 2)
    expect(seen).toContain('1 type error in 3 tools')
    await writeFile(join(dir, 'learnings/shop/browser-tools/read.js'), GOOD_READ)
    await until('watching for changes', 3)
    expect(seen).toContain('✔ 0 type errors in 3 tools')
    const interrupted = performance.now()
    child.kill('SIGINT')
    const run = await exited
    expect(run.timedOut).toBe(false)
    expect(performance.now() - interrupted).toBeLessThan(5000)
    expect(run.code).toBe(0)
    // One compiler process for the three runs.
    expectRanMajor(run, 7)
  })
})

describe('check resolves TypeScript from the project only (skill folders hold data)', { timeout: 300_000 }, () => {
  let outside = ''
  const marker = () => join(outside, 'fake-typescript-ran')
  beforeAll(async () => {
    // Outside the repository: nothing above it has a node_modules/typescript.
    outside = await realpath(await mkdtemp(join(tmpdir(), 'site-skills-no-ts-')))
    await writeTree(outside, {
      'package.json': '{ "type": "module" }\n',
      ...prefixed(validateFolder(GOOD_SEARCH, GOOD_READ)),
      // A package called typescript inside the skill root: running it leaves a marker file and exits 42.
      'learnings/node_modules/typescript/package.json': { name: 'typescript', version: '6.0.3', main: 'index.js' },
      'learnings/node_modules/typescript/index.js': `require('node:fs').writeFileSync(${JSON.stringify(marker())}, 'ran')\nprocess.exit(42)\n`,
    })
  })
  afterAll(() => rm(outside, { recursive: true, force: true }))

  it('without TypeScript in the project: exit 2 with the npm i -D line; the root’s package never runs', async () => {
    await rm(marker(), { force: true })
    for (const args of [[], ['--root', 'learnings'], ['--json']]) {
      const run = await runNode([BIN, 'check', ...args], { cwd: outside, limitMs: DEADLINE })
      expect(run.timedOut).toBe(false)
      expect(existsSync(marker()), `check ${args.join(' ')} ran the root's typescript`).toBe(false)
      expect(run.stderr).toBe(
        `site-skills: check type-checks tools with the project's TypeScript, and ${outside} has none; install it: npm i -D typescript\n`,
      )
      expect(run.stdout).toBe('')
      expect(run.code).toBe(2)
    }
  })

  it("with the project's own TypeScript: that one checks, the root's never runs", async () => {
    await rm(marker(), { force: true })
    const dir = join(outside, 'with-ts')
    await writeTree(dir, {
      'package.json': '{ "type": "module" }\n',
      ...prefixed(validateFolder(GOOD_SEARCH, GOOD_READ)),
    })
    await writeTree(dir, {
      'learnings/node_modules/typescript': { symlink: join(outside, 'learnings/node_modules/typescript') },
    })
    await linkProject(dir, 6)
    const run = await check(dir)
    expect(existsSync(marker())).toBe(false)
    expectRanMajor(run, 6)
    expect(run.stdout).toContain('✔ 0 type errors in 3 tools of 1 skill')
    expect(run.code).toBe(0)
  })
})

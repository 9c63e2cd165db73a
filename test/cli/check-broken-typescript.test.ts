import { execFileSync, spawn } from 'node:child_process'
import { cp, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeTree } from '../helpers/tmp'
import { GOOD_READ, GOOD_SEARCH, TYPESCRIPTS, linkProject, validateFolder } from '../helpers/typescript'
import { BIN, cleanEnv, runNode, waitForExit } from '../helpers/spawn'

// `site-skills check` when the project's TypeScript is there but cannot do its work: a compiler
// process that hangs under `--watch`, and packages that are broken on disk.
const DEADLINE = 90_000

const prefixed = (files: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(files).map(([rel, content]) => [`learnings/${rel}`, content]))

let outside = ''
beforeAll(async () => {
  // Outside the repository: no node_modules above a project holds a TypeScript or its compiler.
  outside = await realpath(await mkdtemp(join(tmpdir(), 'site-skills-broken-ts-')))
})
afterAll(() => rm(outside, { recursive: true, force: true }))

/** A project with a clean skill whose node_modules/typescript is written by `install`. */
async function project(name: string, install: (typescriptDir: string) => Promise<void>): Promise<string> {
  const dir = join(outside, name)
  await writeTree(dir, {
    'package.json': '{ "type": "module" }\n',
    ...prefixed(validateFolder(GOOD_SEARCH, GOOD_READ)),
  })
  await linkProject(dir, undefined)
  await install(join(dir, 'node_modules/typescript'))
  return dir
}

/** The TypeScript 7 compiler a process started (Linux: its children, by their command line). */
async function compilerOf(pid: number): Promise<number | undefined> {
  const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8')).split(' ').filter(Boolean)
  for (const child of children) {
    const args = (await readFile(`/proc/${child}/cmdline`, 'utf8')).split('\0')
    if (args.includes('--api')) return Number(child)
  }
  return undefined
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('check --watch on TypeScript 7 whose compiler hangs', { timeout: 300_000 }, () => {
  // Idle: the compiler hangs between checks. Checking: an edit starts a check, which then waits on it.
  for (const when of ['idle', 'checking'] as const)
    it(`exits on SIGTERM, and its compiler process is gone (${when})`, async () => {
      const dir = await project(`hangs-${when}`, async (to) => {
        await writeTree(join(to, '..'), { typescript: { symlink: TYPESCRIPTS.find((t) => t.major === 7)!.dir } })
      })
      const child = spawn(process.execPath, [BIN, 'check', '--watch'], {
        cwd: dir,
        env: cleanEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let seen = ''
      child.stdout.on('data', (chunk: Buffer) => (seen += String(chunk)))
      let compiler: number | undefined
      // At the deadline the compiler goes too: it holds the binary's stderr, so the run would never close.
      const exited = waitForExit(child, DEADLINE, () => {
        if (compiler && alive(compiler)) process.kill(compiler, 'SIGKILL')
        child.kill('SIGKILL')
      })
      await expect.poll(() => seen, { timeout: DEADLINE }).toContain('watching for changes')
      compiler = await compilerOf(child.pid!)
      expect(compiler, 'the compiler process').toBeTypeOf('number')
      // The compiler stops answering: stopped, it reads nothing and answers nothing.
      process.kill(compiler!, 'SIGSTOP')
      try {
        if (when === 'checking') {
          await writeFile(join(dir, 'learnings/shop/tools/search.ts'), `${GOOD_SEARCH}\n`)
          await expect.poll(() => seen, { timeout: DEADLINE }).toContain('checking again')
        }
        child.kill('SIGTERM')
        const run = await exited
        expect(run.timedOut, `still running after SIGTERM: ${run.stderr}`).toBe(false)
        expect(run.code).toBe(0)
        expect(run.stderr).toBe('')
        await expect.poll(() => alive(compiler!), { timeout: 10_000 }).toBe(false)
      } finally {
        if (alive(compiler!)) process.kill(compiler!, 'SIGKILL')
      }
    })
})

describe('check with a broken project TypeScript says what is wrong with it', { timeout: 300_000 }, () => {
  const check = (cwd: string) => runNode([BIN, 'check'], { cwd, limitMs: DEADLINE })
  const HINT = '; reinstall it: npm i -D typescript --force\n'

  it('a package.json that is not JSON: typescript-broken, exit 2', async () => {
    const dir = await project('bad-manifest', (to) =>
      writeTree(to, { 'package.json': '{ "name": "typescript", "version": "6.0.', 'lib/typescript.js': '' }),
    )
    const run = await check(dir)
    expect(run.timedOut).toBe(false)
    expect(run.stderr).toMatch(
      /^site-skills: typescript-broken: the project's TypeScript \(node_modules\/typescript\) has an unreadable package\.json: .+; reinstall it: npm i -D typescript --force\n$/,
    )
    expect(run.stdout).toBe('')
    expect(run.code).toBe(2)
  })

  it('a compiler module that does not load (TypeScript 6 cut short): typescript-broken, exit 2', async () => {
    const dir = await project('bad-module', (to) =>
      writeTree(to, {
        'package.json': { name: 'typescript', version: '6.0.3', main: 'lib/typescript.js' },
        'lib/typescript.js': 'var ts = {};\n(function (ts) {\n  ts.version = "6.0.3"\n',
      }),
    )
    const run = await check(dir)
    expect(run.timedOut).toBe(false)
    expect(run.stderr).toMatch(
      /^site-skills: typescript-broken: the project's TypeScript \(node_modules\/typescript, 6\.0\.3\) cannot be loaded: .*SyntaxError|^site-skills: typescript-broken: .*Unexpected end of input/,
    )
    expect(run.stderr.endsWith(HINT)).toBe(true)
    expect(run.code).toBe(2)
  })

  it('TypeScript 7 installed without its compiler binary (the platform package): typescript-broken, exit 2', async () => {
    const seven = TYPESCRIPTS.find((t) => t.major === 7)!.dir
    const dir = await project('no-compiler', async (to) => {
      for (const part of ['package.json', 'bin', 'lib', 'dist', 'vendor'])
        await cp(join(seven, part), join(to, part), { recursive: true })
    })
    const run = await check(dir)
    expect(run.timedOut).toBe(false)
    expect(run.stderr).toMatch(
      /^site-skills: typescript-broken: the project's TypeScript \(node_modules\/typescript, 7\.\d+\.\d+\) failed: .+/,
    )
    expect(run.stderr.endsWith(HINT)).toBe(true)
    expect(run.stderr.split('\n')).toHaveLength(2)
    expect(run.code).toBe(2)
  })

  // Issue 35: Node's resolver opens a package.json without care, so the file guard inspects each
  // one on its way first; a FIFO there hung check before it said anything.
  it('a package.json that is a FIFO: typescript-broken naming it, exit 2, and check exits', async () => {
    const dir = await project('fifo-manifest', async (to) => {
      await writeTree(to, { 'lib/typescript.js': '' })
      execFileSync('mkfifo', [join(to, 'package.json')])
    })
    const run = await check(dir)
    expect(run.timedOut, 'check hung on the FIFO').toBe(false)
    expect(run.stderr).toBe(
      "site-skills: typescript-broken: the project's TypeScript (node_modules/typescript) has an unreadable " +
        'package.json: node_modules/typescript/package.json is a named pipe (FIFO), not a regular file' +
        HINT,
    )
    expect(run.code).toBe(2)
  })

  it('a compiler module that is a FIFO: typescript-broken, exit 2, and check exits', async () => {
    const dir = await project('fifo-module', async (to) => {
      await writeTree(to, {
        'package.json': { name: 'typescript', version: '6.0.3', main: 'lib/typescript.js' },
        'lib/.keep': '',
      })
      execFileSync('mkfifo', [join(to, 'lib/typescript.js')])
    })
    const run = await check(dir)
    expect(run.timedOut, 'check hung on the FIFO').toBe(false)
    expect(run.stderr).toMatch(
      /^site-skills: typescript-broken: the project's TypeScript \(node_modules\/typescript, 6\.0\.3\) cannot be loaded: \S+\/lib\/typescript\.js is a named pipe \(FIFO\), not a regular file/,
    )
    expect(run.code).toBe(2)
  })
})

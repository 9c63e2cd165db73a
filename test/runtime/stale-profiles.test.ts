import { execFileSync, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir, REPO_ROOT } from '../helpers/tmp'
import { cleanEnv, runNode, waitForExit } from '../helpers/spawn'

/*
 * A process killed with its headless Chromium leaves the browser's profile folder in the temp folder
 * (issue 40.16: 39 of them after a day). The next launch removes those whose browser is gone, and
 * nothing else: not another prefix, not a folder without a pid file or whose browser runs, not
 * through a link, and it never waits on a FIFO.
 */
const LAUNCH = pathToFileURL(join(REPO_ROOT, 'dist/launch.js')).href
/** Launches a browser, prints its profile folder; then closes it, or (with "stay") waits to be killed. */
const SCRIPT = `
const { launchBrowser } = await import(${JSON.stringify(LAUNCH)})
const browser = await launchBrowser()
console.log(browser.userDataDir)
if (process.argv[1] === 'stay') setInterval(() => {}, 1000)
else await browser.close()
`

let tmp: Awaited<ReturnType<typeof makeTempDir>>
const env = () => cleanEnv({ TMPDIR: tmp.dir })

/** A pid that no process has: one of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  await waitForExit(child, 10_000)
  return child.pid!
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

beforeAll(async () => {
  tmp = await makeTempDir('profiles-')
})
afterAll(() => tmp?.cleanup())

describe('launchBrowser and the profile folders left behind', () => {
  it('removes a killed process’s profile once its browser is gone, and nothing that is not stale', async () => {
    const dead = await deadPid()
    const at = (name: string) => join(tmp.dir, name)
    const pidFile = (name: string) => join(tmp.dir, name, 'site-skills.pid')
    // Stale: its browser is gone. Inside it, a link to a folder outside, which must survive.
    await mkdir(at('outside'))
    await writeFile(join(at('outside'), 'keep.txt'), 'keep')
    await mkdir(join(at('site-skills-chrome-dead01'), 'Default'), { recursive: true })
    await writeFile(pidFile('site-skills-chrome-dead01'), `${dead}\n`)
    await symlink(at('outside'), join(at('site-skills-chrome-dead01'), 'link'))
    // Not stale, or not ours.
    await mkdir(at('site-skills-chrome-alive1'))
    await writeFile(pidFile('site-skills-chrome-alive1'), `${process.pid}\n`)
    await mkdir(at('site-skills-chrome-nopid1'))
    await mkdir(at('site-skills-chrome-fifo01'))
    execFileSync('mkfifo', [pidFile('site-skills-chrome-fifo01')])
    await mkdir(at('linked-target'))
    await writeFile(join(at('linked-target'), 'site-skills.pid'), `${dead}\n`)
    await symlink(at('linked-target'), at('site-skills-chrome-linked'))
    await mkdir(at('other-dead'))
    await writeFile(pidFile('other-dead'), `${dead}\n`)

    // A process that launched a browser and was killed: its profile stays, with its browser's pid.
    const killed = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, 'stay'], {
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const ended = waitForExit(killed, 60_000)
    let printed = ''
    killed.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()))
    await expect.poll(() => printed, { timeout: 30_000 }).toContain('site-skills-chrome-')
    const left = printed.trim()
    killed.kill('SIGKILL')
    await ended
    expect(existsSync(left)).toBe(true)
    const browserPid = Number(readFileSync(join(left, 'site-skills.pid'), 'utf8'))
    // Its browser may outlive it: while it runs, the folder is in use and stays.
    if (isAlive(browserPid)) {
      const kept = await runNode(['--input-type=module', '-e', SCRIPT], { cwd: REPO_ROOT, env: env(), limitMs: 60_000 })
      expect(kept.code, kept.stderr).toBe(0)
      expect(existsSync(left)).toBe(true)
      process.kill(browserPid, 'SIGKILL')
      await expect.poll(() => isAlive(browserPid), { timeout: 10_000 }).toBe(false)
    }

    const next = await runNode(['--input-type=module', '-e', SCRIPT], { cwd: REPO_ROOT, env: env(), limitMs: 60_000 })
    expect(next.timedOut).toBe(false)
    expect(next.code, next.stderr).toBe(0)
    expect(existsSync(left)).toBe(false)
    expect(existsSync(at('site-skills-chrome-dead01'))).toBe(false)
    expect(readFileSync(join(at('outside'), 'keep.txt'), 'utf8')).toBe('keep')
    for (const name of [
      'site-skills-chrome-alive1',
      'site-skills-chrome-nopid1',
      'site-skills-chrome-fifo01',
      'site-skills-chrome-linked',
      'linked-target/site-skills.pid',
      'other-dead/site-skills.pid',
    ])
      expect(existsSync(at(name)), name).toBe(true)
    // The launch's own profile went with its close.
    expect(existsSync(next.stdout.trim())).toBe(false)
  }, 120_000)
})

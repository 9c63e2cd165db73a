import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitForExit } from '../helpers/spawn'
import { REPO_ROOT, makeTempDir } from '../helpers/tmp'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('harness-')
})
afterAll(() => tmp.cleanup())

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('the test harness', () => {
  it('kills the processes a test started when the test process exits before they do', async () => {
    const pidFile = join(tmp.dir, 'child.pid')
    // A test process whose test started a long child (its own limit one minute) and then ended,
    // as when vitest stops a test at its timeout.
    const child = `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`
    const helpers = pathToFileURL(join(REPO_ROOT, 'test/helpers/spawn.ts')).href
    const script = [
      `const { runNode } = await import(${JSON.stringify(helpers)})`,
      `void runNode(['-e', ${JSON.stringify(child)}], { cwd: ${JSON.stringify(tmp.dir)}, limitMs: 60_000 })`,
      `while (!(await import('node:fs')).existsSync(${JSON.stringify(pidFile)})) await new Promise((r) => setTimeout(r, 20))`,
      'process.exit(0)',
    ].join('\n')
    const testProcess = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const ended = await waitForExit(testProcess, 30_000)
    expect(ended).toMatchObject({ code: 0, killed: false })
    expect(existsSync(pidFile)).toBe(true)
    const pid = Number(readFileSync(pidFile, 'utf8'))
    await expect.poll(() => alive(pid), { timeout: 5000, message: 'the child is killed' }).toBe(false)
  })
})

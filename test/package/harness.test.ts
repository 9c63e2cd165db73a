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
    // Written whole, then renamed: once the file is there, it holds the pid.
    const child = `const fs = require('node:fs'); fs.writeFileSync(${JSON.stringify(`${pidFile}.part`)}, String(process.pid)); fs.renameSync(${JSON.stringify(`${pidFile}.part`)}, ${JSON.stringify(pidFile)}); setInterval(() => {}, 1000)`
    const helpers = pathToFileURL(join(REPO_ROOT, 'test/helpers/spawn.ts')).href
    const script = [
      `const { runNode } = await import(${JSON.stringify(helpers)})`,
      `void runNode(['-e', ${JSON.stringify(child)}], { cwd: ${JSON.stringify(tmp.dir)}, limitMs: 60_000 })`,
      // The child's pid file, waited for by its event (checked once the watch is set, in case it came before).
      "const { existsSync, watch } = await import('node:fs')",
      `const pidFile = ${JSON.stringify(pidFile)}`,
      'await new Promise((resolve) => {',
      `  const watcher = watch(${JSON.stringify(tmp.dir)}, () => existsSync(pidFile) && resolve(watcher.close()))`,
      '  if (existsSync(pidFile)) resolve(watcher.close())',
      '})',
      'process.exit(0)',
    ].join('\n')
    const testProcess = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const ended = await waitForExit(testProcess, 30_000)
    expect(ended).toMatchObject({ code: 0, timedOut: false })
    expect(existsSync(pidFile)).toBe(true)
    const pid = Number(readFileSync(pidFile, 'utf8'))
    expect(pid).toBeGreaterThan(0)
    await expect.poll(() => alive(pid), { timeout: 5000, message: 'the child is killed' }).toBe(false)
  })
})

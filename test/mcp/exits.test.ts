import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/tmp'
import { BIN, cleanEnv, waitForExit } from '../helpers/spawn'

const line = (message: object) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`

describe('site-skills mcp lifecycle', () => {
  it('launches headless Chromium without --cdp, and exits with 0 once stdin closes', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--tools', 'page', '--root', 'learnings'], {
      cwd: REPO_ROOT,
      env: cleanEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    const exited = waitForExit(child, 30_000)
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
    const clientInfo = { name: 'raw', version: '1' }
    child.stdin!.write(
      line({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo } }),
    )
    await expect.poll(() => out, { timeout: 20_000, message: 'the initialize answer' }).toContain('"id":1')
    child.stdin!.write(line({ method: 'notifications/initialized' }))
    child.stdin!.write(line({ id: 2, method: 'tools/list' }))
    await expect.poll(() => out, { timeout: 10_000, message: 'the tools/list answer' }).toContain('"id":2')
    const list = JSON.parse(out.split('\n').find((l) => l.includes('"id":2'))!)
    // The launched browser shows about:blank: no skill matches, only the server's own tools.
    expect(list.result.tools.map((t: { name: string }) => t.name)).toEqual([
      'site_skills_active_tab',
      'site_skills_tabs',
      'site_skills_switch_tab',
      'site_skills_navigate',
    ])
    const closedAt = performance.now()
    child.stdin!.end()
    const end = await exited
    expect(end.timedOut).toBe(false)
    expect(end.code).toBe(0)
    expect(performance.now() - closedAt).toBeLessThan(8000)
  })

  it('reports bad usage with exit code 2', async () => {
    for (const args of [['--cdp', 'nonsense'], ['--http', 'x'], ['extra'], ['--tools', 'some']]) {
      const child = spawn(process.execPath, [BIN, 'mcp', '--root', 'learnings', ...args], {
        cwd: REPO_ROOT,
        env: cleanEnv(),
        stdio: ['pipe', 'pipe', 'pipe'],
      })
      const end = await waitForExit(child, 8000)
      expect(end.code, args.join(' ')).toBe(2)
      expect(end.stderr).toMatch(/^site-skills: /)
    }
  })

  it('refuses --allow and --deny of a skill no root holds, and a --deny that takes every --allow (exit 2)', async () => {
    const cases = [
      { args: ['--allow', 'githib'], says: '--allow: no skill "githib" in the roots (known: demo-shop, github,' },
      { args: ['--allow', 'github', '--deny', 'mdm'], says: '--deny: no skill "mdm" in the roots (known: demo-shop,' },
      {
        args: ['--allow', 'github', '--deny', 'github'],
        says: '--deny takes every skill --allow gives (github): nothing would be served',
      },
    ]
    for (const { args, says } of cases) {
      // stdin stays open: a server that started would run until it is killed.
      const child = spawn(process.execPath, [BIN, 'mcp', '--tools', 'all', '--root', 'learnings', ...args], {
        cwd: REPO_ROOT,
        env: cleanEnv(),
        stdio: ['pipe', 'pipe', 'pipe'],
      })
      const end = await waitForExit(child, 8000)
      expect(end.timedOut, args.join(' ')).toBe(false)
      expect(end.code, args.join(' ')).toBe(2)
      expect(end.stderr, args.join(' ')).toContain(`site-skills: ${says}`)
      expect(end.stdout).toBe('')
    }
    // With --allow-write an allowed skill may be one the agent is still to write: the server goes on
    // (to the browser, here a port where none listens).
    const writing = spawn(
      process.execPath,
      [
        BIN,
        'mcp',
        '--tools',
        'all',
        '--root',
        'learnings',
        '--allow-write',
        'learnings',
        '--allow',
        'new-site',
        '--cdp',
        '127.0.0.1:1',
      ],
      { cwd: REPO_ROOT, env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] },
    )
    const end = await waitForExit(writing, 8000)
    expect(end.timedOut).toBe(false)
    expect(end.stderr).not.toContain('no skill')
    expect(end.stderr).toContain('disconnected')
    expect(end.code).toBe(1)
  })
})

import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir, REPO_ROOT, writeTree } from '../helpers/tmp'
import { runNode, type Exited, runBin } from '../helpers/spawn'

const NUMBER = { type: 'integer', description: 'A number.' }
const node = (callable: string, extra: object = {}) => ({
  description: `Runs ${callable}.`,
  path: 'tools/calls.js',
  callable,
  args: {},
  returns: NUMBER,
  examples: [{ name: 'once', args: {} }],
  ...extra,
})
const URL = 'https://slow.example.com/page'

/**
 * Calls that never settle, in a process where nothing else is alive: a Node tool with a
 * `timeoutMs` (its timer must keep the process alive until it fires), one without (nothing could
 * ever settle it), a browser tool with a `timeoutMs`, next to a tool that passes.
 */
const FILES = {
  'learnings/slow/manifest.json': {
    id: 'slow',
    name: 'Slow',
    domains: ['slow.example.com'],
    nodeTools: {
      ok: node('ok'),
      forever: node('forever', { timeoutMs: 500 }),
      never: node('forever'),
    },
    browserTools: {
      hang: {
        description: 'Waits forever in the page.',
        path: 'browser-tools/hang.js',
        args: {},
        returns: NUMBER,
        timeoutMs: 500,
        examples: [{ name: 'page', args: {}, url: URL, fixture: 'fixtures/page.html' }],
      },
    },
  },
  'learnings/slow/tools/calls.js': [
    'export const ok = () => 1',
    'export const forever = () => new Promise(() => {})',
    '',
  ].join('\n'),
  'learnings/slow/browser-tools/hang.js': 'async function () {\n  return new Promise(() => {})\n}\n',
  'learnings/slow/fixtures/page.html': '<!doctype html><title>slow</title><p>page</p>\n',
}

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('pending-calls-')
  await writeTree(tmp.dir, FILES)
})
afterAll(() => tmp.cleanup())

const bin = (args: string[], deadlineMs?: number) =>
  runBin([...args, '--root', 'learnings'], { cwd: tmp.dir, limitMs: deadlineMs })

/** Ended by itself with this code; stderr is exactly the given lines. */
function expectFailure(run: Exited, lines: RegExp[]): void {
  expect(run.timedOut, `killed after ${run.ms} ms; ${run.stderr}`).toBe(false)
  expect(run.code, run.stderr).toBe(1)
  expect(run.stdout).toBe('')
  expect(run.stderr.trimEnd().split('\n')).toEqual(lines.map((line) => expect.stringMatching(line)))
}

describe('a tool call that never settles keeps the process until it is decided (issue 24.3)', () => {
  it('run: a Node tool past its timeoutMs is one timeout line and exit 1, not exit 0 in silence', async () => {
    const run = await bin(['run', 'slow', 'forever'])
    expectFailure(run, [/^site-skills: timeout: slow -> forever: timed out after 500 ms \(slow\/tools\/calls\.js\)$/])
    // The timer kept the process until it fired.
    expect(run.ms).toBeGreaterThanOrEqual(500)
  })

  it('run: a Node tool without a timeout that nothing can settle is never-settled, exit 1', async () => {
    const run = await bin(['run', 'slow', 'never', '--json'])
    expectFailure(run, [
      /^site-skills: never-settled: slow -> never: returned a promise that nothing is left to settle/,
    ])
  })

  it('test: each pending example fails with its kind next to the passing one, exit 1', async () => {
    const json = await bin(['test', '--json'], 60_000)
    expect(json.timedOut, json.stderr).toBe(false)
    expect(json.code, json.stderr).toBe(1)
    const report = JSON.parse(json.stdout)
    expect(report.ok).toBe(false)
    const byTool = Object.fromEntries(report.results.map((r: { tool: string }) => [r.tool, r]))
    expect(Object.keys(byTool).sort()).toEqual(['forever', 'hang', 'never', 'ok'])
    expect(byTool.ok).toMatchObject({ status: 'pass' })
    expect(byTool.forever).toMatchObject({ status: 'fail', kind: 'timeout' })
    expect(byTool.forever.message).toContain('timed out after 500 ms')
    expect(byTool.never).toMatchObject({ status: 'fail', kind: 'tool-error' })
    expect(byTool.never.message).toMatch(/^never-settled: /)
    expect(byTool.hang).toMatchObject({ status: 'fail', kind: 'timeout' })
    expect(byTool.hang.message).toContain('did not finish within 500 ms')

    const text = await bin(['test'], 60_000)
    expect(text.code, text.stderr).toBe(1)
    expect(text.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^✔ slow › ok › once {2}~\d+ tokens$/),
      expect.stringMatching(/^✖ slow › forever › once {2}timeout: /),
      expect.stringMatching(/^✖ slow › never › once {2}tool-error: never-settled: /),
      expect.stringMatching(/^✖ slow › hang › page {2}timeout: /),
      '1 passed, 3 failed (4 examples)',
    ])
  })
})

describe('a script on the no-build API, with nothing else alive', () => {
  it('gets timeout and never-settled errors for calls that never settle, then exits 0 on its own', async () => {
    const script = [
      `import { runNodeSiteTool } from ${JSON.stringify(join(REPO_ROOT, 'dist/index.js'))}`,
      "const options = { root: 'learnings', watch: false }",
      "for (const tool of ['forever', 'never'])",
      "  await runNodeSiteTool('slow', tool, {}, {}, options).then(() => console.log('settled'), (e) => console.log(e.code))",
    ].join('\n')
    const run = await runNode(['--input-type=module', '-e', script], { cwd: tmp.dir })
    expect(run.timedOut, run.stderr).toBe(false)
    expect(run).toMatchObject({ code: 0, stdout: 'timeout\nnever-settled\n' })
  })
})

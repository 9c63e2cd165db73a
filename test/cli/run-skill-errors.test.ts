import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { runBin } from '../helpers/spawn'

/*
 * What `site-skills run` says of a skill it cannot run (issue 40.4, 40.5): an invalid one by its own
 * code, pointing at validate; an unknown id as every other command says it, as bad usage (exit 2).
 */
let tmp: Awaited<ReturnType<typeof makeTempDir>>

beforeAll(async () => {
  tmp = await makeTempDir('run-skill-errors-')
  const tool = (path: string) => ({
    description: 'Says hello.',
    path,
    callable: 'fx',
    args: {},
    returns: { type: 'string', description: 'Text.' },
  })
  await writeTree(tmp.dir, {
    'package.json': '{ "type": "module" }\n',
    'learnings/good/manifest.json': {
      id: 'good',
      name: 'Good',
      domains: ['good.test'],
      nodeTools: { fx: tool('tools/fx.js') },
    },
    'learnings/good/tools/fx.js': 'export const fx = () => "hi"\n',
    'budgeted/package.json': '{ "type": "module" }\n',
    'budgeted/learnings/over/manifest.json': {
      id: 'over',
      name: 'Over',
      domains: ['over.test'],
      nodeTools: { fx: { ...tool('tools/fx.js'), tokenBudget: { max: 10, fail: true } } },
    },
    'budgeted/learnings/over/tools/fx.js': 'export const fx = () => "hi"\n',
    'learnings/my-site/manifest.json': {
      id: 'my-site',
      name: 'My site',
      domains: ['my-site.test'],
      nodeTools: { fx: tool('tools/missing.js') },
    },
  })
})

afterAll(() => tmp?.cleanup())

describe('site-skills run on a skill it cannot run', () => {
  it('says skill-invalid for an invalid skill, with its first problem and the validate line (exit 1)', async () => {
    const run = await runBin(['run', 'my-site', 'fx', '--args', '{}'], { cwd: tmp.dir })
    expect(run.timedOut).toBe(false)
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    const lines = run.stderr.trimEnd().split('\n')
    expect(lines[0]).toMatch(
      /^site-skills: skill-invalid: my-site: site skill is invalid: my-site\/manifest\.json:\d+:\d+ /,
    )
    expect(lines[1]).toBe('site-skills: every problem of "my-site": site-skills validate learnings/my-site')
    expect(lines).toHaveLength(2)
  })

  it('refuses a skill over a failing token budget as the MCP server and builds do (exit 1)', async () => {
    const run = await runBin(['run', 'over', 'fx', '--args', '{}'], { cwd: `${tmp.dir}/budgeted` })
    expect(run.timedOut).toBe(false)
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(
      /^site-skills: skill-invalid: over: site skill is invalid: over\/manifest\.json:\d+:\d+ /,
    )
    expect(run.stderr).toContain('over the budget of 10 (tokenBudget)')
  })

  it('says no skill "x" for an id no root holds, as test, snapshot, pack and export do (exit 2)', async () => {
    const said = 'site-skills: no skill "nosuch" in the roots (known: good, my-site)'
    const commands = [
      ['run', 'nosuch', 'x', '--args', '{}'],
      ['test', 'nosuch'],
      ['snapshot', 'http://nosuch.test/', '--site', 'nosuch', '--cdp', '127.0.0.1:9'],
      ['export', 'nosuch', '--agent-skills', '--out', 'out'],
      ['pack', 'nosuch', '--out', 'out'],
    ]
    for (const argv of commands) {
      const run = await runBin(argv, { cwd: tmp.dir })
      expect(run.timedOut, argv[0]).toBe(false)
      expect(run.code, argv[0]).toBe(2)
      expect(run.stderr, argv[0]).toContain(said)
      expect(run.stderr, argv[0]).not.toContain('searched root')
    }
  })
})

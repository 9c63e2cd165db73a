import { homedir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { rootsOf as cliRoots } from '../../src/cli/roots'
import { parseCommand } from '../../src/cli/options'
import { COMMANDS } from '../../src/cli/command-table'
import { resolveRoots } from '../../src/compiler/discover/roots'
import { rootsOf as apiRoots, oneShot, siteSkillsRoot } from '../../src/nobuild/api'
import { resolveOptions } from '../../src/plugin/options'

const CWD = '/work/app'
/** The folders of resolved roots. */
const paths = (roots: readonly { path: string }[]) => roots.map((root) => root.path)
const saved = { ...process.env }
afterEach(() => {
  process.env = { ...saved }
})

describe('resolveRoots: where the learnings are', () => {
  it('resolves given roots against the working directory, with ~ expanded', () => {
    expect(paths(resolveRoots(['learnings', '../shared/', '~/ws', '/abs/x/'], CWD, {}))).toEqual([
      '/work/app/learnings',
      '/work/shared',
      join(homedir(), 'ws'),
      '/abs/x',
    ])
    expect(paths(resolveRoots('one', CWD, {}))).toEqual(['/work/app/one'])
  })

  it('defaults to $SITE_SKILLS_ROOT, then $EGO_BROWSER_AGENT_WORKSPACE/learnings, then ./learnings', () => {
    const both = { SITE_SKILLS_ROOT: 'mine', EGO_BROWSER_AGENT_WORKSPACE: '~/agent' }
    expect(paths(resolveRoots(undefined, CWD, both))).toEqual(['/work/app/mine'])
    expect(paths(resolveRoots([], CWD, { EGO_BROWSER_AGENT_WORKSPACE: '~/agent' }))).toEqual([
      join(homedir(), 'agent/learnings'),
    ])
    expect(paths(resolveRoots(undefined, CWD, {}))).toEqual(['/work/app/learnings'])
  })

  it('resolves once: the CLI hands its roots to the no-build API, which takes them as they are', () => {
    const io = { stdout: process.stdout, stderr: process.stderr, cwd: CWD, env: {} }
    const args = parseCommand('validate', COMMANDS.validate, ['--root', 'learnings', '--root', '~/more'])
    if (args.help) throw new Error('parsed as --help')
    const fromCli = cliRoots(args, io)
    expect(paths(fromCli)).toEqual(['/work/app/learnings', join(homedir(), 'more')])
    // The API resolves against process.cwd(), not the CLI's working directory: equal but new values
    // would mean the roots were resolved a second time.
    expect(apiRoots(oneShot(fromCli))).toBe(fromCli)
    const again = resolveRoots(fromCli, '/elsewhere')
    expect(again).toHaveLength(fromCli.length)
    for (const [i, root] of again.entries()) expect(root).toBe(fromCli[i])
    expect(Object.isFrozen(fromCli)).toBe(true)
    // A plain list the caller wrote is resolved (against process.cwd() for the API).
    expect(paths(apiRoots({ roots: ['/abs/../x'] }))).toEqual(['/x'])
  })

  it('the plugin resolves against the bundler root and never takes its default from the environment', () => {
    process.env.SITE_SKILLS_ROOT = '/from/env'
    process.env.EGO_BROWSER_AGENT_WORKSPACE = '/ws'
    expect(paths(resolveOptions({}, CWD).roots)).toEqual(['/work/app/learnings'])
    expect(paths(resolveOptions({ roots: ['a', '~/b'] }, CWD).roots)).toEqual(['/work/app/a', join(homedir(), 'b')])
    expect(paths(resolveOptions({ roots: 'c' }, CWD).roots)).toEqual(['/work/app/c'])
    expect(() => resolveOptions({ roots: [] }, CWD)).toThrow(/at least one folder/)
    // The no-build API does read the environment, as the original does.
    expect(paths(apiRoots())).toEqual(['/from/env'])
    expect(siteSkillsRoot()).toBe('/from/env')
    expect(siteSkillsRoot('~/w')).toBe(join(homedir(), 'w/learnings'))
    delete process.env.SITE_SKILLS_ROOT
    expect(siteSkillsRoot()).toBe('/ws/learnings')
  })
})

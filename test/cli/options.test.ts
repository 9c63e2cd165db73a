import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { usageLine } from '../../src/cli/options'
import { COMMANDS, type CommandName } from '../../src/cli/command-table'
import { REPO_ROOT } from '../helpers/tmp'
import { type Exited, runEach } from '../helpers/spawn'

// Each command takes its own options: through the real binary, an option of another command (or of
// none) is exit 2 with one line and the command's usage, and `--help` prints the command's help.

const NAMES = Object.keys(COMMANDS) as CommandName[]

/** Exited by itself with `code`. */
function expectExit(run: Exited, code: number): void {
  expect({ code: run.code, timedOut: run.timedOut }, `after ${run.ms} ms; stderr: ${run.stderr}`).toEqual({
    code,
    timedOut: false,
  })
}

/** Exit 2, nothing on stdout, and exactly two lines on stderr: what was wrong, then the usage. */
function expectRefused(run: Exited, message: string, usage: string): void {
  expectExit(run, 2)
  expect(run.stdout).toBe('')
  expect(run.stderr).toBe(`site-skills: ${message}\nusage: site-skills ${usage}\n`)
}

const USAGE = {
  validate: 'validate [DIR...] [--root DIR]... [--json] [--compat ego-lite]',
  types: 'types [--root DIR]... [--json] [--compat ego-lite] [--out FILE]',
  schema: 'schema',
  new: 'new ID [--root DIR]... [--json] --domain DOMAIN...',
  test:
    'test [SITE...] [--root DIR]... [--json] [--compat ego-lite] [--live] [--record] [--cdp HOST:PORT|ws(s)://...] ' +
    '[--cdp-header NAME:VALUE]... [--workers N] [--shard I/N] [--reporter text|json|junit]',
  mcp:
    'mcp [--root DIR]... [--compat ego-lite] [--tools page|all|search] [--cdp HOST:PORT|ws(s)://...] ' +
    '[--cdp-header NAME:VALUE]... [--allow SITE]... [--deny SITE]... [--http PORT] [--max-sessions N] ' +
    '[--session-idle SECONDS] [--allow-write DIR]',
}

describe('an option the command does not take', () => {
  it('is refused by validate, naming the first such option (the bag of every option is gone)', async () => {
    const [bag, mcpOnly] = await runEach([
      ['validate', '--live', '--http', '3000', '--deny', 'x', '--site', 'foo', 'learnings'],
      ['validate', 'learnings', '--deny', 'x'],
    ])
    expectRefused(bag, 'validate does not take --live', USAGE.validate)
    expectRefused(mcpOnly, 'validate does not take --deny', USAGE.validate)
  })

  it('is refused by types, schema, new, test and mcp, before anything runs or is written', async () => {
    const runs = await runEach([
      ['types', '--watch'],
      ['schema', '--root', 'learnings'],
      ['new', 'fresh-site', '--domain', 'fresh.example.com', '--compat', 'ego-lite', '--root', 'nowhere-made'],
      ['test', 'demo-shop', '--tokens'],
      ['mcp', '--json'],
      ['mcp', '--live'],
    ])
    expectRefused(runs[0], 'types does not take --watch', USAGE.types)
    expectRefused(runs[1], 'schema does not take --root', USAGE.schema)
    expectRefused(runs[2], 'new does not take --compat', USAGE.new)
    expect(existsSync(join(REPO_ROOT, 'nowhere-made'))).toBe(false)
    expectRefused(runs[3], 'test does not take --tokens', USAGE.test)
    expectRefused(runs[4], 'mcp does not take --json', USAGE.mcp)
    expectRefused(runs[5], 'mcp does not take --live', USAGE.mcp)
  })

  it('an option no command takes, a missing value and an operand of a command without operands', async () => {
    const [unknown, value, operand, before] = await runEach([
      ['test', '--recrod'],
      ['types', '--out'],
      ['types', 'learnings'],
      ['--json', 'validate'],
    ])
    expectRefused(unknown, 'unknown option "--recrod"', USAGE.test)
    expectRefused(value, '--out needs a value', USAGE.types)
    expectRefused(operand, 'types takes no arguments, got "learnings"', USAGE.types)
    expectExit(before, 2)
    expect(before.stderr).toBe(
      'site-skills: unknown option "--json": options go after the command (see site-skills --help)\n',
    )
  })

  it('the options a command does take still work (validate --json --compat, types --out -)', async () => {
    const [validate, types] = await runEach([
      ['validate', 'test/fixtures/rules/valid-basic', '--json', '--compat', 'ego-lite'],
      ['types', '--root', 'learnings', '--out', '-', '--json'],
    ])
    expectExit(validate, 0)
    expect(JSON.parse(validate.stdout)).toMatchObject({ ok: true })
    expectExit(types, 0)
    expect(types.stdout).toContain("declare module 'virtual:site-skills'")
  })
})

describe('--help of each command', () => {
  it('prints the usage, the summary and every option of that command only, exit 0, for --help and -h', async () => {
    const runs = await runEach(NAMES.map((name) => [name, name === 'run' ? '-h' : '--help']))
    runs.forEach((run, i) => {
      const name = NAMES[i]!
      expectExit(run, 0)
      expect(run.stderr).toBe('')
      const [first, blank, summary] = run.stdout.split('\n')
      expect(first).toBe(usageLine(name, COMMANDS[name]))
      expect([blank, summary]).toEqual(['', COMMANDS[name].summary])
      const listed = [...run.stdout.matchAll(/^ {2}--([a-z-]+)/gm)].map((m) => m[1])
      expect(listed, name).toEqual([...Object.keys(COMMANDS[name].options), 'help'])
    })
    expect(runs[0]!.stdout).toBe(
      [
        `usage: site-skills ${USAGE.validate}`,
        '',
        'check every skill; exit 1 on any error',
        'A DIR that holds manifest.json is checked as that one skill of its parent folder.',
        '',
        'options:',
        '  --root DIR         a learnings root (repeatable; default $SITE_SKILLS_ROOT, else',
        '                     $EGO_BROWSER_AGENT_WORKSPACE/learnings, else ./learnings)',
        '  --json             machine output on stdout, nothing else',
        '  --compat ego-lite  also reject what the original ego-lite runtime cannot load',
        '  --help, -h         this help',
        '',
      ].join('\n'),
    )
  })

  it('wins over anything else on the line, and --help COMMAND is the same help', async () => {
    const [after, before, own] = await runEach([
      ['validate', '--live', 'x', '--help'],
      ['--help', 'validate'],
      ['validate', '--help'],
    ])
    for (const run of [after, before]) {
      expectExit(run, 0)
      expect(run.stdout).toBe(own.stdout)
    }
    expect(own.stdout.startsWith(`usage: site-skills ${USAGE.validate}\n`)).toBe(true)
  })
})

describe('docs/cli.md', () => {
  const page = readFileSync(join(REPO_ROOT, 'docs/cli.md'), 'utf8')

  it("shows each command's usage exactly as its --help prints it (one source: src/cli/command-table.ts)", () => {
    for (const name of NAMES) expect(page).toContain(`\n${usageLine(name, COMMANDS[name]).replace('usage: ', '')}\n`)
  })
})

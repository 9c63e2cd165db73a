import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type StaticServer, serveFolder } from '../../playground/serve'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import { manifestSchema } from '../../src/compiler/validate/schema'
import { RULES } from '../helpers/compile'
import { REPO_ROOT, makeTempDir } from '../helpers/tmp'
import { type Exited, runBin, runEach } from '../helpers/spawn'

// Every command and flag through the real binary: exit code, and exit on its own before the deadline.

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('cli-bin-')
})
afterAll(() => tmp?.cleanup())

/** The process exited by itself (not killed at the deadline) with `code`. */
function expectExit(run: Exited, code: number): void {
  const ended = { code: run.code, timedOut: run.timedOut }
  expect(ended, `after ${run.ms} ms; stderr: ${run.stderr}`).toEqual({ code, timedOut: false })
}

/** A usage error: exit 2 and exactly one line on stderr that ends with the pointer to the command's --help. */
function expectUsageLine(run: Exited, message: string, command?: string): void {
  expectExit(run, 2)
  expect(run.stdout).toBe('')
  expect(run.stderr).toBe(`site-skills: ${message} (see site-skills ${command ? `${command} ` : ''}--help)\n`)
}

const PORT_REASON = 'contains a port, but ports are ignored when matching'
const FIXTURE = (name: string) => relative(REPO_ROOT, join(RULES, name))

describe('site-skills --version, --help and bad usage', () => {
  it('--version and -v print the version of package.json', async () => {
    const { version } = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
    for (const run of await runEach([['--version'], ['-v']])) {
      expectExit(run, 0)
      expect(run.stdout).toBe(`${version}\n`)
    }
  })

  it('--help prints the whole help on stdout, naming every command and flag', async () => {
    const run = await runBin(['--help'])
    expectExit(run, 0)
    const commands = [
      'validate',
      'match',
      'context',
      'run',
      'types',
      'schema',
      'new',
      'test',
      'snapshot',
      'export',
      '--live',
    ]
    const words = [...commands, '--root', '--json', '--compat', '--help', '--version']
    for (const word of words) expect(run.stdout).toContain(word)
    expect(run.stderr).toBe('')
  })

  it('no command prints a short usage and where to get help, exit 2', async () => {
    const run = await runBin([])
    expectExit(run, 2)
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      'usage: site-skills <command> [options]',
      'commands: validate, match, context, run, types, check, schema, new, test, snapshot, export, mcp, pack (see site-skills --help)',
    ])
  })

  it('an unknown command, an unknown flag or a flag without its value is one line, exit 2', async () => {
    const [command, flag, value, boolValue] = await runEach([
      ['frobnicate'],
      ['validate', '--nope'],
      ['validate', '--root'],
      ['validate', '--json=yes'],
    ])
    expectUsageLine(command, 'unknown command "frobnicate"')
    const usage = 'usage: site-skills validate [DIR...] [--root DIR]... [--json] [--compat ego-lite]'
    for (const [run, message] of [
      [flag, 'unknown option "--nope"'],
      [value, '--root needs a value'],
      [boolValue, '--json takes no value'],
    ] as const) {
      expectExit(run, 2)
      expect(run.stderr).toBe(`site-skills: ${message}\n${usage}\n`)
    }
  })

  it('missing arguments of each command are one line, exit 2', async () => {
    const runs = await runEach([
      ['match'],
      ['context'],
      ['run', 'demo-shop'],
      ['new'],
      ['new', 'ok-id'],
      ['validate', '--compat', 'v2'],
    ])
    expectUsageLine(runs[0], 'match needs at least one URL: site-skills match URL...', 'match')
    expectUsageLine(runs[1], 'context takes one URL: site-skills context URL', 'context')
    expect(runs[2].stderr).toMatch(/^site-skills: run takes a skill id and a tool name: site-skills run SITE TOOL/)
    expectExit(runs[2], 2)
    expectUsageLine(runs[3], 'new takes one skill id: site-skills new ID --domain DOMAIN [--domain DOMAIN...]', 'new')
    expectUsageLine(runs[4], 'pass at least one --domain (e.g. --domain example.com)', 'new')
    expectUsageLine(runs[5], '--compat accepts only "ego-lite", not "v2"', 'validate')
  })

  it('a root that is not a folder is a usage error for every command that reads skills', async () => {
    const missing = join(tmp.dir, 'missing')
    const empty = join(tmp.dir, 'empty')
    await mkdir(empty)
    const runs = await runEach([
      ['validate', missing],
      ['types', '--root', missing],
      ['match', 'https://example.org/', '--root', missing],
      ['context', 'https://example.org/', '--root', missing],
      ['run', 'demo-shop', 'price_summary', '--root', missing],
    ])
    for (const run of [...runs, await runBin(['validate'], { cwd: empty })]) {
      expectExit(run, 2)
      expect(run.stderr).toMatch(/^site-skills: no learnings folder at .* \(see site-skills [a-z]+ --help\)\n$/)
    }
  })
})

describe('site-skills validate', () => {
  it('exits 0 on a clean root and counts "1 skill", not "1 skills"', async () => {
    const [all, one] = await runEach([
      ['validate', 'learnings'],
      ['validate', '--root', FIXTURE('valid-basic')],
    ])
    expectExit(all, 0)
    expect(all.stdout).toMatch(/^✔ 0 errors, 0 warnings in \d+ skills\n$/m)
    expectExit(one, 0)
    expect(one.stdout).toBe('✔ 0 errors, 0 warnings in 1 skill\n')
  })

  it('exits 1 on a bad root with a frame per problem, and says that ports are ignored', async () => {
    const run = await runBin(['validate', '--root', FIXTURE('domain-port')])
    expectExit(run, 1)
    expect(run.stdout).toContain('error domain-port  test/fixtures/rules/domain-port/patterns/manifest.json:6:5')
    expect(run.stdout).toContain(`invalid domain "localhost:3000": ${PORT_REASON}`)
    expect(run.stdout).toContain('> 6 |     "localhost:3000",')
    expect(run.stdout).toContain('hint: Write "localhost": it matches that host on every port.')
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('3 errors, 0 warnings in 1 skill')
  })

  it('--json prints only { ok, skills, diagnostics }, each diagnostic with its root relative to cwd', async () => {
    const inside = await runBin(['validate', '--json', '--root', FIXTURE('domain-port')])
    const outside = await runBin(['validate', '--json', '--root', join(RULES, 'domain-port')], { cwd: tmp.dir })
    expectExit(inside, 1)
    const out = JSON.parse(inside.stdout)
    expect(Object.keys(out)).toEqual(['ok', 'skills', 'diagnostics'])
    expect(out).toMatchObject({ ok: false, skills: 1 })
    expect(out.diagnostics[1]).toEqual({
      code: 'domain-port',
      severity: 'error',
      siteId: 'patterns',
      root: 'test/fixtures/rules/domain-port',
      file: 'patterns/manifest.json',
      line: 6,
      column: 5,
      message: `invalid domain "localhost:3000": ${PORT_REASON}`,
      hint: 'Write "localhost": it matches that host on every port.',
      data: { pattern: 'localhost:3000', host: 'localhost' },
    })
    expectExit(outside, 1)
    const far = JSON.parse(outside.stdout).diagnostics[0]
    expect(far.root).toBe(join(RULES, 'domain-port'))
    expect(existsSync(join(far.root, far.file))).toBe(true)
  })

  it('--compat ego-lite adds the original restrictions (exit 1 where the plain check passes)', async () => {
    const [plain, compat] = await runEach([
      ['validate', '--json', FIXTURE('compat-ego-lite')],
      ['validate', '--json', '--compat', 'ego-lite', FIXTURE('compat-ego-lite')],
    ])
    expectExit(plain, 0)
    expectExit(compat, 1)
    const codes = JSON.parse(compat.stdout).diagnostics.map((d: { code: string }) => d.code)
    expect(codes).toEqual(['compat-ego-lite', 'compat-ego-lite', 'compat-ego-lite'])
  })
})

describe('site-skills types, schema and new', () => {
  it('types --out writes the declarations, then reports them up to date; a bad root exits 1', async () => {
    const out = join(tmp.dir, 'types/site-skills.d.ts')
    const first = await runBin(['types', '--root', FIXTURE('valid-basic'), '--out', out])
    expectExit(first, 0)
    expect(first.stdout).toBe(`wrote ${relative(REPO_ROOT, out)} (1 skill)\n`)
    expect(await readFile(out, 'utf8')).toContain("declare module 'virtual:site-skills'")
    const again = await runBin(['types', '--root', FIXTURE('valid-basic'), '--out', out])
    expectExit(again, 0)
    expect(again.stdout).toBe(`${relative(REPO_ROOT, out)} is up to date\n`)
    const bad = await runBin(['types', '--root', FIXTURE('domain-port'), '--out', join(tmp.dir, 'bad.d.ts')])
    expectExit(bad, 1)
    expect(bad.stderr).toContain('3 errors in 1 skill')
    expect(existsSync(join(tmp.dir, 'bad.d.ts'))).toBe(false)
  })

  it('types --out /dev/stdout prints the declarations to the pipe and exits; the summary goes to stderr', async () => {
    const run = await runBin(['types', '--root', FIXTURE('valid-basic'), '--out', '/dev/stdout'])
    expectExit(run, 0)
    expect(run.stdout).toContain("declare module 'virtual:site-skills'")
    expect(run.stdout).not.toContain('wrote')
    expect(run.stderr).toBe('wrote standard output (1 skill)\n')
    const dash = await runBin(['types', '--root', FIXTURE('valid-basic'), '--out', '-'])
    expectExit(dash, 0)
    expect(dash.stdout).toBe(run.stdout)
  })

  it('schema prints the manifest JSON Schema', async () => {
    const run = await runBin(['schema'])
    expectExit(run, 0)
    expect(JSON.parse(run.stdout)).toEqual(manifestSchema)
  })

  it('new scaffolds a skill and prints the validate command for its root, which then passes', async () => {
    const project = join(tmp.dir, 'project')
    const [plain, rooted] = await runEach(
      [
        ['new', 'my-site', '--domain', 'my-site.example.com'],
        ['new', 'other-site', '--domain', 'o.example.com', '--root', join(project, 'skills dir')],
      ],
      { cwd: tmp.dir },
    )
    expectExit(plain, 0)
    expect(plain.stdout).toBe('created learnings/my-site (validate it with: site-skills validate)\n')
    expectExit(rooted, 0)
    const check = "site-skills validate --root 'project/skills dir'"
    expect(rooted.stdout).toBe(`created project/skills dir/other-site (validate it with: ${check})\n`)
    const [defaultCheck, rootCheck] = await runEach([['validate'], ['validate', '--root', 'project/skills dir']], {
      cwd: tmp.dir,
    })
    expectExit(defaultCheck, 0)
    expectExit(rootCheck, 0)
    expect(rootCheck.stdout).toBe('✔ 0 errors, 0 warnings in 1 skill\n')
  })

  it('new refuses an existing skill (exit 1), a bad id and a domain with a port (exit 2)', async () => {
    const root = join(tmp.dir, 'refuse')
    expectExit(await runBin(['new', 'taken', '--domain', 'a.example.com', '--root', root]), 0)
    const [again, badId, port] = await runEach([
      ['new', 'taken', '--domain', 'a.example.com', '--root', root],
      ['new', '../evil', '--domain', 'a.example.com', '--root', root],
      ['new', 'local', '--domain', 'localhost:8080', '--root', root],
    ])
    expectExit(again, 1)
    expect(again.stderr).toContain('already exists')
    expectUsageLine(badId, 'invalid skill id "../evil": use lowercase letters, digits and dashes (e.g. "x-com")', 'new')
    const fix = 'Write "localhost": it matches that host on every port.'
    expectUsageLine(port, `invalid domain "localhost:8080": ${PORT_REASON}. ${fix}`, 'new')
  })
})

describe('site-skills match and context', () => {
  it('match prints the skills of each URL (text and --json)', async () => {
    const [json, text] = await runEach([
      ['match', '--json', 'https://news.ycombinator.com/item?id=1', 'https://example.org/'],
      ['match', 'http://localhost:5173/'],
    ])
    expectExit(json, 0)
    const expected = { 'https://news.ycombinator.com/item?id=1': ['hacker-news'], 'https://example.org/': [] }
    expect(JSON.parse(json.stdout)).toEqual(expected)
    expectExit(text, 0)
    expect(text.stdout).toBe('http://localhost:5173/  ->  demo-shop\n')
  })

  it('context names the real arguments in text as a run command; --json has the no-build call', async () => {
    const [text, json, none] = await runEach([
      ['context', 'http://127.0.0.1:8080/'],
      ['context', '--json', 'http://127.0.0.1:8080/'],
      ['context', 'https://example.org/'],
    ])
    expectExit(text, 0)
    expect(text.stdout).toContain(`npx site-skills run demo-shop price_summary --args '{"items":[],"currency":"…"}'`)
    const addToCart = `npx site-skills run demo-shop add_to_cart --args '{"productId":"…","quantity":1}' --cdp HOST:PORT`
    expect(text.stdout).toContain(addToCart)
    expect(text.stdout).not.toContain('{ ... }')
    expectExit(json, 0)
    const context = JSON.parse(json.stdout)
    const examples = context.tools.map((t: { example: string }) => t.example)
    expect(examples).toContain('await runNodeSiteTool("demo-shop", "price_summary", { ... }, ctx)')
    expect(json.stdout).not.toContain('site.run')
    expectExit(none, 0)
    expect(none.stdout).toBe('no site skill matches example.org\n')
  })
})

describe('site-skills run', () => {
  let site: StaticServer
  let browser: LaunchedBrowser

  beforeAll(async () => {
    site = await serveFolder(join(REPO_ROOT, 'learnings/demo-shop/site'))
    browser = await launchBrowser()
    await browser.newPage(`${site.url}?q=lamp`)
  })

  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  it('runs a Node tool', async () => {
    const items = '{"items":[{"id":"a","price":2},{"id":"b","price":4}]}'
    const run = await runBin(['run', 'demo-shop', 'price_summary', '--json', '--args', items])
    expectExit(run, 0)
    expect(JSON.parse(run.stdout)).toMatchObject({ count: 2, min: 2, max: 4 })
  })

  it('runs a browser tool in real Chromium over --cdp HOST:PORT, in the tab picked by --target', async () => {
    const cdp = `127.0.0.1:${browser.port}`
    const args = ['--json', '--args', '{"waitForReady":true}', '--cdp', cdp, '--target', 'q=lamp']
    const run = await runBin(['run', 'demo-shop', 'page_info', ...args])
    expectExit(run, 0)
    expect(JSON.parse(run.stdout)).toMatchObject({ title: 'Demo Shop', query: 'lamp' })
  })

  it('a tool error exits 1 with its code: bad args, unknown tool/tab, unreachable browser', async () => {
    const cdp = `127.0.0.1:${browser.port}`
    const runs = await runEach([
      ['run', 'demo-shop', 'price_summary', '--args', '{"items":"x"}'],
      ['run', 'demo-shop', 'no_such_tool'],
      ['run', 'demo-shop', 'page_info', '--cdp', cdp, '--target', 'no-such-tab'],
      ['run', 'demo-shop', 'page_info', '--cdp', '127.0.0.1:1'],
    ])
    const codes = ['invalid-args', 'tool-not-found', 'target-not-found', 'disconnected']
    runs.forEach((run, i) => {
      expectExit(run, 1)
      expect(run.stderr).toMatch(new RegExp(`^site-skills: ${codes[i]}: `))
    })
  })

  it('an unknown skill is bad usage, as in test, snapshot, pack and export (issue 40.5): exit 2', async () => {
    const [run] = await runEach([['run', 'no-such-skill', 'price_summary']])
    expectExit(run!, 2)
    expect(run!.stderr).toMatch(/^site-skills: no skill "no-such-skill" in the roots \(known: demo-shop, /)
  })

  it('bad run usage exits 2: a browser tool without --cdp, --args not JSON or not an object, a bad --cdp', async () => {
    const runs = await runEach([
      ['run', 'demo-shop', 'page_info'],
      ['run', 'demo-shop', 'price_summary', '--args', '{oops'],
      ['run', 'demo-shop', 'price_summary', '--args', '[1]'],
      ['run', 'demo-shop', 'page_info', '--cdp', 'not an address'],
      ['run', 'demo-shop', 'price_summary', '--target', 'x'],
    ])
    expectUsageLine(runs[0], 'demo-shop -> page_info is a browser tool: pass --cdp ws://... or --cdp HOST:PORT', 'run')
    for (const run of runs.slice(1)) {
      expectExit(run, 2)
      expect(run.stderr.split('\n')).toHaveLength(2)
    }
  })
})

describe('site-skills validate on a one-line manifest', () => {
  it('shows the part of a long line that holds the column, with the caret under it', async () => {
    const manifest = {
      id: 'flat',
      name: 'Flat',
      domains: ['flat.example.com'],
      description: 'x'.repeat(200),
      nodeTools: { read: { description: 'Read.', path: 'tools/read.js', callable: 'read', args: {} } },
    }
    const text = JSON.stringify(manifest)
    await mkdir(join(tmp.dir, 'flat/flat/tools'), { recursive: true })
    await writeFile(join(tmp.dir, 'flat/flat/manifest.json'), text)
    await writeFile(join(tmp.dir, 'flat/flat/tools/read.js'), 'export async function read() { return 1 }\n')
    const run = await runBin(['validate', '--root', join(tmp.dir, 'flat')])
    expectExit(run, 1)
    const column = Number(/manifest\.json:1:(\d+)/.exec(run.stdout)?.[1])
    expect(column).toBeGreaterThan(200)
    const lines = run.stdout.split('\n')
    const at = lines.findIndex((l) => l.trimStart().startsWith('> 1 |'))
    const shown = lines[at]!
    const caret = lines[at + 1]!.indexOf('^')
    expect(shown.length).toBeLessThan(200)
    expect(shown[caret]).toBe(text[column - 1])
    expect(shown.slice(caret - 10, caret + 10)).toBe(text.slice(column - 11, column + 9))
  })
})

import { existsSync } from 'node:fs'
import { cp, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { manifestSchema } from '../../src/compiler/validate/schema'
import { DOCS } from '../package/readme'
import { RULES } from '../helpers/compile'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'
import { BIN, runBin, runNode } from '../helpers/spawn'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('cli-')
})
afterAll(() => tmp.cleanup())

describe('site-skills validate', () => {
  it('exits 0 on the shipped learnings', async () => {
    const run = await runBin(['validate', 'learnings'], { cwd: REPO_ROOT })
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/✔ 0 errors, 0 warnings in \d+ skills/)
  })

  it('prints every problem grouped by skill with a code frame and a summary, and exits 1', async () => {
    const run = await runBin(['validate', join(RULES, 'manifest-parse'), '--root', join(RULES, 'domain-port')], {
      cwd: REPO_ROOT,
    })
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('✖ trailing-comma  test/fixtures/rules/manifest-parse/trailing-comma')
    expect(run.stdout).toContain(
      'error manifest-parse  test/fixtures/rules/manifest-parse/trailing-comma/manifest.json:4:31',
    )
    expect(run.stdout).toContain('> 4 |   "domains": ["a.example.com"],')
    expect(run.stdout).toContain('error domain-port  test/fixtures/rules/domain-port/patterns/manifest.json:6:5')
    expect(run.stdout).toContain('hint: manifest.json is strict JSON')
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('14 errors, 0 warnings in 9 skills')
  })

  it('reports every JSON syntax error of a manifest, each at its position, as invalid JSON', async () => {
    const root = join(tmp.dir, 'json-errors')
    await cp(join(RULES, 'manifest-parse/two-errors'), join(root, 'two-errors'), { recursive: true })
    const run = await runBin(['validate', '--root', 'json-errors'], { cwd: tmp.dir })
    expect(run.timedOut).toBe(false)
    expect(run.code).toBe(1)
    const file = 'json-errors/two-errors/manifest.json'
    expect(run.stdout).toContain(`error manifest-parse  ${file}:4:3\n    invalid JSON: comma expected at`)
    expect(run.stdout).toContain(`error manifest-parse  ${file}:5:13\n    invalid JSON: invalid symbol at "tru"`)
    expect(run.stdout).not.toContain('invalid or missing')
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('2 errors, 0 warnings in 1 skill')
  })

  it('names every extension a tool path may have when one has another (tool-path)', async () => {
    const root = join(tmp.dir, 'tool-extensions')
    const entry = (path: string) => ({
      description: 'x',
      path,
      args: {},
      returns: { type: 'string', description: 'x' },
    })
    await writeTree(root, {
      's/manifest.json': {
        id: 's',
        name: 'S',
        domains: ['s.example.com'],
        nodeTools: { c: { ...entry('tools/c.cjs'), callable: 'c' } },
        browserTools: { b: entry('browser-tools/b.mjs') },
      },
      's/tools/c.cjs': 'exports.c = () => 1\n',
      's/browser-tools/b.mjs': 'export default async () => 1\n',
    })
    const run = await runBin(['validate', '--json', '--root', root], { cwd: REPO_ROOT })
    expect(run.code).toBe(1)
    const paths = JSON.parse(run.stdout).diagnostics.filter((d: { code: string }) => d.code === 'tool-path')
    expect(paths.map((d: { message: string }) => d.message)).toEqual([
      'nodeTools.c: path must be tools/*.js, tools/*.mjs or tools/*.ts (or <product>/functions.js, .mjs, .ts)',
      'browserTools.b: path must be browser-tools/*.js or browser-tools/*.ts',
    ])
  })

  it('says what a browser tool file holds instead of one function, in plain words, at its position', async () => {
    const root = join(tmp.dir, 'tool-shapes')
    const tool = (file: string) => ({
      description: 'x',
      path: `browser-tools/${file}`,
      args: {},
      returns: { type: 'string', description: 'x' },
    })
    await writeTree(root, {
      's/manifest.json': {
        id: 's',
        name: 'S',
        domains: ['s.example.com'],
        browserTools: {
          script: tool('script.js'),
          member: tool('member.js'),
          number: tool('number.js'),
          typed: tool('typed.ts'),
        },
      },
      's/browser-tools/script.js': 'const title = document.title\nconsole.log(title)\n',
      's/browser-tools/member.js': 'document.title\n',
      's/browser-tools/number.js': '// the tool\nexport default 42\n',
      's/browser-tools/typed.ts': 'const title: string = document.title\n',
    })
    const run = await runBin(['validate', '--json', root], { cwd: REPO_ROOT })
    expect(run.timedOut).toBe(false)
    expect(run.code).toBe(1)
    const found = (
      JSON.parse(run.stdout).diagnostics as { file: string; line: number; column: number; message: string }[]
    )
      .map((d) => `${d.file}:${d.line}:${d.column} ${d.message}`)
      .sort()
    const one = 'must contain a single function expression, found'
    const wrap = 'wrap the code in async function (args) { ... }'
    expect(found).toEqual([
      `s/browser-tools/member.js:1:1 "browser-tools/member.js" ${one} a property read \`document.title\``,
      `s/browser-tools/number.js:2:16 the default export of "browser-tools/number.js" must be a function, found a number \`42\``,
      `s/browser-tools/script.js:1:1 "browser-tools/script.js" ${one} 2 statements, the first a \`const\` declaration \`const title = document.title\`: ${wrap}`,
      `s/browser-tools/typed.ts:1:1 "browser-tools/typed.ts" ${one} a \`const\` declaration \`const title = document.title;\`: ${wrap}`,
    ])
    expect(run.stdout).not.toMatch(/Expression|Unexpected token"/)
  })

  it('validates a skill folder given as the root as that one skill, and says which root it belongs to', async () => {
    const root = join(tmp.dir, 'skill-folder/learnings')
    await writeTree(root, {
      'broken/manifest.json': { id: 'broken', name: 'Broken', domains: ['*.com'], notes: ['notes/gone.md'] },
      'broken/notes/a.md': '# a\n',
      'broken/browser-tools/read.js': 'async function () { return 1 }\n',
      'good/manifest.json': { id: 'good', name: 'Good', domains: ['good.example.com'] },
    })
    const run = await runBin(['validate', 'learnings/broken'], { cwd: join(tmp.dir, 'skill-folder') })
    expect(run.timedOut).toBe(false)
    expect(run.code).toBe(1)
    expect(run.stdout).not.toContain('manifest-missing')
    expect(run.stdout).toContain('✖ broken  learnings/broken')
    expect(run.stdout).toContain('error domain-public-suffix  learnings/broken/manifest.json:5:5')
    expect(run.stdout).toContain('error note-missing  learnings/broken/manifest.json:8:5')
    expect(run.stdout).toContain('learnings/broken is a skill folder: checked as the skill of root learnings')
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('2 errors, 0 warnings in 1 skill')
    const good = await runBin(['validate', '--json', join(root, 'good')], { cwd: REPO_ROOT })
    expect(good.code).toBe(0)
    expect(JSON.parse(good.stdout)).toEqual({ ok: true, skills: 1, diagnostics: [] })
  })

  it('--json prints only the machine output', async () => {
    const run = await runBin(['validate', '--json', '--root', join(RULES, 'domain-unicode')], { cwd: REPO_ROOT })
    expect(run.code).toBe(0)
    const out = JSON.parse(run.stdout)
    expect(out).toMatchObject({ ok: true, skills: 1 })
    expect(out.diagnostics[0]).toEqual({
      code: 'domain-unicode',
      severity: 'warning',
      siteId: 'idn',
      root: 'test/fixtures/rules/domain-unicode',
      file: 'idn/manifest.json',
      line: 5,
      column: 5,
      message: 'domain "bücher.de" is matched as "xn--bcher-kva.de"',
      hint: 'Write "xn--bcher-kva.de": browsers report hosts in punycode.',
      data: { pattern: 'bücher.de', normalized: 'xn--bcher-kva.de' },
    })
  })

  it('points duplicate-id of a skill in a second root at its "id" key (exit 1)', async () => {
    const roots = ['--root', join(RULES, 'valid-basic'), '--root', join(RULES, 'duplicate-id-target')]
    const run = await runBin(['validate', '--json', ...roots], { cwd: REPO_ROOT })
    expect(run.timedOut).toBe(false)
    expect(run.code).toBe(1)
    const [duplicate] = JSON.parse(run.stdout).diagnostics
    // duplicate-id-target/shop/manifest.json: `"id": "shop"` is its second line, indented by two.
    expect(duplicate).toMatchObject({ code: 'duplicate-id', file: 'shop/manifest.json', line: 2, column: 3 })
    const human = await runBin(['validate', ...roots], { cwd: REPO_ROOT })
    expect(human.stdout).toContain('shop/manifest.json:2:3')
    expect(human.stdout).toContain('> 2 |   "id": "shop",')
  })

  it('--compat ego-lite adds the original restrictions', async () => {
    const plain = await runBin(['validate', '--json', join(RULES, 'compat-ego-lite')], { cwd: REPO_ROOT })
    const compat = await runBin(['validate', '--json', '--compat', 'ego-lite', join(RULES, 'compat-ego-lite')], {
      cwd: REPO_ROOT,
    })
    expect(JSON.parse(plain.stdout).ok).toBe(true)
    expect(compat.code).toBe(1)
    expect(JSON.parse(compat.stdout).diagnostics.map((d: { code: string }) => d.code)).toEqual([
      'compat-ego-lite',
      'compat-ego-lite',
      'compat-ego-lite',
    ])
  })

  it('exits 2 on bad usage', async () => {
    expect((await runBin(['validate', '--nope'], { cwd: REPO_ROOT })).code).toBe(2)
    expect((await runBin(['validate', join(tmp.dir, 'missing')], { cwd: REPO_ROOT })).code).toBe(2)
    expect((await runBin(['frobnicate'], { cwd: REPO_ROOT })).code).toBe(2)
    expect((await runBin(['validate', '--compat', 'v2'], { cwd: REPO_ROOT })).code).toBe(2)
    const noRoot = await runBin(['validate'], { cwd: tmp.dir })
    expect(noRoot.code).toBe(2)
    expect(noRoot.stderr).toContain('no learnings folder at')
  })

  it('prefers SITE_SKILLS_ROOT to an existing ./learnings, as --help, the README and cli.md say', async () => {
    const flat = (text: string) => text.replace(/\s+/g, ' ')
    const help = await runBin(['validate', '--help'], { cwd: REPO_ROOT })
    expect(help.code).toBe(0)
    expect(flat(help.stdout)).toContain(
      'default $SITE_SKILLS_ROOT, else $EGO_BROWSER_AGENT_WORKSPACE/learnings, else ./learnings)',
    )
    for (const page of ['README.md', 'docs/cli.md'])
      expect(flat(DOCS.get(page)!), page).toContain(
        'default `$SITE_SKILLS_ROOT`, else `$EGO_BROWSER_AGENT_WORKSPACE/learnings`, else `./learnings`',
      )
    // The repository's ./learnings holds six skills; the variable's root one.
    const env = { ...process.env, NO_COLOR: '1', SITE_SKILLS_ROOT: join(RULES, 'valid-basic') }
    const run = await runNode([BIN, 'validate', '--json'], { cwd: REPO_ROOT, env })
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, skills: 1 })
  })

  it('takes the root from SITE_SKILLS_ROOT, then EGO_BROWSER_AGENT_WORKSPACE with ~ expanded', async () => {
    const fromEnv = await runBin(['validate', '--json'], {
      cwd: tmp.dir,
      env: { SITE_SKILLS_ROOT: join(RULES, 'valid-basic') },
    })
    expect(JSON.parse(fromEnv.stdout).skills).toBe(1)
    const home = process.env.HOME
    process.env.HOME = join(RULES, '..')
    try {
      const run = await runBin(['validate', '--json'], {
        cwd: tmp.dir,
        env: { EGO_BROWSER_AGENT_WORKSPACE: '~/workspace' },
      })
      expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, skills: 1 })
    } finally {
      process.env.HOME = home
    }
    const workspace = await runBin(['validate', '--json'], {
      cwd: tmp.dir,
      env: {
        EGO_BROWSER_AGENT_WORKSPACE: join(RULES, '../workspace'),
      },
    })
    expect(JSON.parse(workspace.stdout)).toMatchObject({ ok: true, skills: 1 })
  })
})

describe('site-skills schema and new', () => {
  it('prints the manifest JSON Schema', async () => {
    const run = await runBin(['schema'], { cwd: REPO_ROOT })
    expect(JSON.parse(run.stdout)).toEqual(manifestSchema)
    expect(JSON.parse(await readFile(join(REPO_ROOT, 'manifest.schema.json'), 'utf8'))).toEqual(manifestSchema)
  })

  it('refuses an id so long that its tools would share one model name, saying why (exit 2)', async () => {
    const root = join(tmp.dir, 'long-ids')
    for (const id of ['a'.repeat(66), `${'a'.repeat(65)}b`, 'a'.repeat(58)]) {
      const run = await runBin(['new', id, '--domain', 'long.example.com', '--root', root], { cwd: REPO_ROOT })
      expect(run.timedOut).toBe(false)
      expect(run.code, id).toBe(2)
      expect(run.stderr, id).toContain(`is ${id.length} characters: model tool names are <id>__<tool> cut to 60`)
      expect(run.stderr, id).toContain('(tool-name-collision); use at most 57 characters')
      expect(existsSync(join(root, id)), id).toBe(false)
    }
    const longest = 'a'.repeat(57)
    expect(
      (await runBin(['new', longest, '--domain', 'long.example.com', '--root', root], { cwd: REPO_ROOT })).code,
    ).toBe(0)
    const check = await runBin(['validate', '--json', '--root', root], { cwd: REPO_ROOT })
    expect(JSON.parse(check.stdout)).toMatchObject({ ok: true, skills: 1, diagnostics: [] })
  })

  it('scaffolds a skill that validates clean, and refuses to overwrite it', async () => {
    const root = join(tmp.dir, 'scaffold')
    const run = await runBin(
      ['new', 'my-site', '--domain', 'My-Site.example.com', '--domain', '*.my-site.example.com', '--root', root],
      { cwd: REPO_ROOT },
    )
    expect(run.code).toBe(0)
    const manifest = JSON.parse(await readFile(join(root, 'my-site/manifest.json'), 'utf8'))
    expect(manifest).toMatchObject({
      id: 'my-site',
      name: 'My Site',
      domains: ['my-site.example.com', '*.my-site.example.com'],
    })
    expect(existsSync(join(root, manifest.$schema.startsWith('http') ? '' : join('my-site', manifest.$schema)))).toBe(
      true,
    )
    const check = await runBin(['validate', '--json', root], { cwd: REPO_ROOT })
    expect(JSON.parse(check.stdout)).toEqual({ ok: true, skills: 1, diagnostics: [] })
    expect(
      (await runBin(['new', 'my-site', '--domain', 'x.example.com', '--root', root], { cwd: REPO_ROOT })).code,
    ).toBe(1)
  })

  it('rejects a bad id or domain as usage errors', async () => {
    expect((await runBin(['new', '../evil', '--domain', 'x.example.com'], { cwd: tmp.dir })).code).toBe(2)
    expect((await runBin(['new', 'ok', '--domain', '*.com'], { cwd: tmp.dir })).code).toBe(2)
    expect((await runBin(['new', 'ok'], { cwd: tmp.dir })).code).toBe(2)
  })
})

describe('the installed binary', () => {
  it('runs as `site-skills` with the exit codes of the contract', async () => {
    const ok = await runBin(['validate', 'learnings'])
    expect(ok.code).toBe(0)
    expect(ok.stdout).toContain('0 errors')
    const bad = await runBin(['validate', '--json', join(RULES, 'tool-parse')])
    expect(bad.code).toBe(1)
    expect(JSON.parse(bad.stdout).ok).toBe(false)
    const usage = await runBin(['validate', '--bogus'])
    expect(usage.code).toBe(2)
  })
})

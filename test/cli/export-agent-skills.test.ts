import { execFileSync, spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { readFile, readdir, rm, truncate, writeFile } from 'node:fs/promises'
import { join, posix } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import { type StaticServer, serveFolder } from '../../playground/serve'
import { readFolder } from '../../src/export/read'
import { renderFrontmatter } from '../../src/export/frontmatter'
import { agentSkillName } from '../../src/export/name'
import { checkAgentSkill } from '../../src/export/rules'
import { writeAgentSkills } from '../../src/export/write'
import { decodeCompact } from '../helpers/compact-decode'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'
import { runBin, type Exited, cleanEnv, waitForExit } from '../helpers/spawn'

/** The Agent Skills specification's frontmatter fields and name rule (agentskills.io/specification). */
const SPEC_FIELDS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']
const SPEC_NAME_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

const LEARNINGS = join(REPO_ROOT, 'learnings')
const SHIPPED = readdirSync(LEARNINGS).filter((id) => existsSync(join(LEARNINGS, id, 'manifest.json')))

interface Manifest {
  name: string
  domains: string[]
  urls?: string[]
  nodeTools?: Record<string, unknown>
  browserTools?: Record<string, unknown>
}
const manifestOf = (id: string): Manifest => JSON.parse(readFileSync(join(LEARNINGS, id, 'manifest.json'), 'utf8'))

/** Runs a skill's script as a host does: `sh scripts/x.sh ...` from the project, which has the package installed. */
function runScript(script: string, args: string[], env: Record<string, string> = {}): Promise<Exited> {
  // npm's update notice would be noise on stderr (and a registry request): off, as CI hosts set it.
  const quiet = { npm_config_update_notifier: 'false', ...env }
  const child = spawn('sh', [script, ...args], {
    cwd: REPO_ROOT,
    env: cleanEnv(quiet),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return waitForExit(child, 30_000)
}

/** A host's reading of SKILL.md: the YAML between the first two `---` lines, and the Markdown after. */
function loadSkillMd(text: string): { frontmatter: Record<string, unknown>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text)
  if (!match) throw new Error('SKILL.md has no frontmatter')
  return { frontmatter: parseYaml(match[1]!) as Record<string, unknown>, body: match[2]! }
}

/** Inline Markdown link targets outside code, as a host follows them (relative to the skill folder). */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '')
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:|^#/.test(t))
}

let tmp: { dir: string; cleanup: () => Promise<void> }
let out: string

beforeAll(async () => {
  tmp = await makeTempDir('export-')
  out = join(tmp.dir, 'skills')
  const run = await runBin(['export', '--agent-skills', '--out', out], { limitMs: 30_000 })
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  expect(run.stdout).toContain(`wrote ${SHIPPED.length} Agent Skills folders`)
})

afterAll(async () => {
  await tmp?.cleanup()
})

describe('site-skills export --agent-skills: the shipped skills, loaded as a host loads them', () => {
  it('writes one folder per shipped skill, named by its id', async () => {
    expect(SHIPPED.length).toBeGreaterThanOrEqual(6)
    expect((await readdir(out)).sort()).toEqual([...SHIPPED].sort())
  })

  it.each(SHIPPED)('%s: frontmatter parsed as YAML keeps the specification rules', async (id) => {
    const manifest = manifestOf(id)
    const { frontmatter, body } = loadSkillMd(await readFile(join(out, id, 'SKILL.md'), 'utf8'))
    expect(Object.keys(frontmatter).every((key) => SPEC_FIELDS.includes(key))).toBe(true)
    expect(frontmatter.name).toBe(id)
    expect(frontmatter.name).toMatch(SPEC_NAME_RE)
    expect(String(frontmatter.name).length).toBeLessThanOrEqual(64)
    const description = frontmatter.description as string
    expect(typeof description).toBe('string')
    expect([...description].length).toBeGreaterThan(0)
    expect([...description].length).toBeLessThanOrEqual(1024)
    expect(description).toContain(manifest.name)
    for (const domain of manifest.domains) expect(description).toContain(domain)
    for (const tool of Object.keys({ ...manifest.nodeTools, ...manifest.browserTools }))
      expect(description).toContain(tool)
    expect([...(frontmatter.compatibility as string)].length).toBeLessThanOrEqual(500)
    expect(Object.values(frontmatter.metadata as object).every((v) => typeof v === 'string')).toBe(true)
    expect(body).toContain(`# ${manifest.name}`)
  })

  it.each(SHIPPED)(
    '%s: SKILL.md is under 500 lines and every link it has leads to a file of the folder',
    async (id) => {
      const dir = join(out, id)
      const text = await readFile(join(dir, 'SKILL.md'), 'utf8')
      expect(text.split('\n').length).toBeLessThan(500)
      const links = relativeLinks(text)
      expect(links.length).toBeGreaterThan(0)
      for (const link of links) {
        const path = posix.normalize(decodeURIComponent(link.split('#')[0]!))
        expect(path.startsWith('../'), link).toBe(false)
        expect(statSync(join(dir, path)).isFile(), link).toBe(true)
        if (path.endsWith('.md')) expect(readFileSync(join(dir, path), 'utf8').length).toBeGreaterThan(0)
      }
    },
  )

  it.each(SHIPPED)('%s: an executable script per tool, named in SKILL.md, and the export rules hold', async (id) => {
    const manifest = manifestOf(id)
    const dir = join(out, id)
    const text = await readFile(join(dir, 'SKILL.md'), 'utf8')
    for (const tool of Object.keys({ ...manifest.nodeTools, ...manifest.browserTools })) {
      const script = join(dir, 'scripts', `${tool}.sh`)
      expect(statSync(script).mode & 0o111).toBe(0o111)
      expect(text).toContain(`scripts/${tool}.sh`)
      expect(readFileSync(script, 'utf8')).toContain(`site-skills run ${id} ${tool} --root`)
    }
    expect(checkAgentSkill(id, (await readFolder(dir)).files)).toEqual([])
  })
})

describe('site-skills export --agent-skills: page scopes', () => {
  it.each(SHIPPED)('%s: SKILL.md says on which pages the skill and each scoped tool apply', async (id) => {
    const manifest = manifestOf(id)
    const text = await readFile(join(out, id, 'SKILL.md'), 'utf8')
    const scoped = Object.entries({ ...manifest.nodeTools, ...manifest.browserTools }).filter(
      ([, entry]) => (entry as { urls?: string[] }).urls?.length,
    )
    for (const [tool, entry] of scoped) {
      const line = text.split('\n').find((l) => l.startsWith(`- \`${tool}\``))
      const urls = (entry as { urls: string[] }).urls
      expect(line, tool).toContain(`Only on pages whose path matches ${urls.map((u) => `\`${u}\``).join(', ')}.`)
    }
    if (manifest.urls?.length) expect(text).toContain('It applies only on pages whose path matches')
    else expect(text).not.toContain('It applies only on pages')
  })

  it('the shipped skills have scoped tools to show (github, google-workspace)', () => {
    const scoped = SHIPPED.filter((id) =>
      Object.values({ ...manifestOf(id).nodeTools, ...manifestOf(id).browserTools }).some(
        (entry) => (entry as { urls?: string[] }).urls?.length,
      ),
    )
    expect(scoped).toEqual(expect.arrayContaining(['github', 'google-workspace']))
  })
})

describe('the exported scripts, run as a host runs them', () => {
  let site: StaticServer
  let browser: LaunchedBrowser

  beforeAll(async () => {
    site = await serveFolder(join(REPO_ROOT, 'learnings/demo-shop/site'))
    browser = await launchBrowser()
    await browser.newPage('about:blank')
    await browser.newPage(`${site.url}?q=lamp`)
  })

  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  it('a browser tool runs in the tab picked by --cdp HOST:PORT and --target, from the exported copy', async () => {
    const script = join(out, 'demo-shop/scripts/page_info.sh')
    const cdp = `127.0.0.1:${browser.port}`
    const run = await runScript(script, ['--args', '{"waitForReady":true}', '--cdp', cdp, '--target', 'q=lamp'])
    expect(run.stderr).not.toContain('site-skills:')
    expect(run.code).toBe(0)
    expect(decodeCompact(run.stdout.trimEnd())).toMatchObject({ title: 'Demo Shop', query: 'lamp' })
  })

  it('SITE_SKILLS_CDP and SITE_SKILLS_TARGET give the page once; a browser tool without one is bad usage', async () => {
    const script = join(out, 'demo-shop/scripts/page_info.sh')
    const env = { SITE_SKILLS_CDP: `127.0.0.1:${browser.port}`, SITE_SKILLS_TARGET: 'q=lamp' }
    const run = await runScript(script, ['--args', '{}'], env)
    expect(run.code).toBe(0)
    expect(decodeCompact(run.stdout.trimEnd())).toMatchObject({ title: 'Demo Shop', query: 'lamp' })
    const bare = await runScript(script, [])
    expect(bare.code).toBe(2)
    expect(bare.stderr).toContain('is a browser tool: pass --cdp')
  })

  it('a Node tool runs without a browser; a failing call exits 1; --help prints the arguments', async () => {
    const script = join(out, 'demo-shop/scripts/price_summary.sh')
    const ok = await runScript(script, ['--args', '{"items":[{"id":"a","price":2},{"id":"b","price":4}]}'])
    expect(ok.code).toBe(0)
    expect(ok.stdout).toMatch(/^count:2\nunits:/)
    expect(decodeCompact(ok.stdout.trimEnd())).toMatchObject({ count: 2, min: 2, max: 4 })
    const bad = await runScript(script, ['--args', '{"items":"x"}'])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('invalid-args: demo-shop -> price_summary')
    const help = await runScript(script, ['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('usage: sh scripts/price_summary.sh')
    expect(help.stdout).toMatch(/^ {2}items {2}Array<.*required/m)
  })
})

describe('site-skills export: output, refusals and --check', () => {
  it('is byte-identical on a second run, replaces its own earlier export, and --check passes', async () => {
    const again = join(tmp.dir, 'again')
    const first = await runBin(['export', '--agent-skills', '--out', again, 'github', 'mdn'], { limitMs: 30_000 })
    expect(first.code).toBe(0)
    const before = await readFolder(again)
    const second = await runBin(['export', '--agent-skills', '--out', again, 'github', 'mdn', '--json'], {
      limitMs: 30_000,
    })
    expect(second.code).toBe(0)
    expect(JSON.parse(second.stdout)).toMatchObject({ replaced: ['github', 'mdn'] })
    const after = await readFolder(again)
    expect([...after.files.keys()]).toEqual([...before.files.keys()])
    for (const [path, bytes] of after.files) expect(bytes.equals(before.files.get(path)!), path).toBe(true)
    expect([...after.executable]).toEqual([...before.executable])
    // The same skills as in the export of all of them: one skill's folder depends on that skill alone.
    for (const [path, bytes] of after.files) {
      if (!path.startsWith('github/')) continue
      expect(bytes.equals(readFileSync(join(out, path))), path).toBe(true)
    }
    const check = await runBin(['export', '--agent-skills', '--out', again, 'github', 'mdn', '--check'], {
      limitMs: 30_000,
    })
    expect(check.code).toBe(0)
    expect(check.stdout).toContain('is up to date (2 skills)')
  })

  it('--check exits 1 naming each file that differs from what export writes, and each rule broken', async () => {
    const dir = join(tmp.dir, 'drift')
    expect((await runBin(['export', '--agent-skills', '--out', dir, 'mdn'], { limitMs: 30_000 })).code).toBe(0)
    await writeFile(join(dir, 'mdn/SKILL.md'), 'edited\n')
    await writeFile(join(dir, 'mdn/scripts/extra.sh'), 'echo\n')
    const check = await runBin(['export', '--agent-skills', '--out', dir, 'mdn', '--check'], { limitMs: 30_000 })
    expect(check.code).toBe(1)
    expect(check.stderr).toContain('mdn/SKILL.md: changed')
    expect(check.stderr).toContain('mdn/scripts/extra.sh: not written by the export')
    expect(check.stderr).toContain('mdn/SKILL.md:1: frontmatter: line 1: must be "---"')
    expect(check.stderr).toContain('mdn/scripts/extra.sh:1: scripts/extra.sh is named neither in SKILL.md')
  })

  it('refuses to replace a folder it did not write, and writes nothing at all', async () => {
    const dir = join(tmp.dir, 'taken')
    await writeTree(dir, { 'github/SKILL.md': '---\nname: github\ndescription: mine\n---\n', 'other/notes.md': 'x' })
    const run = await runBin(['export', '--agent-skills', '--out', dir], { limitMs: 30_000 })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`${join(dir, 'github')} exists and was not written by site-skills export`)
    expect((await readdir(dir)).sort()).toEqual(['github', 'other'])
    expect(await readdir(join(dir, 'github'))).toEqual(['SKILL.md'])
    expect(await readFile(join(dir, 'github/SKILL.md'), 'utf8')).toContain('description: mine')
  })

  it('bad usage exits 2 with one line: no format, no --out, an unknown skill', async () => {
    const dir = join(tmp.dir, 'unused')
    const runs = [
      await runBin(['export', '--out', dir]),
      await runBin(['export', '--agent-skills']),
      await runBin(['export', '--agent-skills', '--out', dir, 'no-such-skill']),
    ]
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2])
    expect(runs[0]!.stderr).toContain('export needs a format, --agent-skills')
    expect(runs[1]!.stderr).toContain('export --agent-skills needs --out DIR')
    expect(runs[2]!.stderr).toContain('no skill "no-such-skill"')
    expect(existsSync(dir)).toBe(false)
  })
})

describe('site-skills export: ids that are not Agent Skills names', () => {
  const skill = (id: string) => ({
    [`${id}/manifest.json`]: `{\n  "id": ${JSON.stringify(id)},\n  "name": "Example",\n  "domains": ["example.com"],\n  "notes": [],\n  "nodeTools": {\n    "hello": { "description": "Says hello.", "path": "tools/hello.js", "callable": "hello", "args": {}, "returns": { "type": "string", "description": "A greeting." } }\n  }\n}\n`,
    [`${id}/tools/hello.js`]: 'export async function hello() {\n  return "hello"\n}\n',
  })

  it('maps an id to a name with a warning at the manifest id; the script calls the id, on its own copy', async () => {
    const { dir, cleanup } = await makeTempDir('export-names-')
    try {
      await writeTree(dir, { ...skill('My_Site'), 'package.json': '{ "type": "module" }\n' })
      const to = join(dir, 'out')
      const run = await runBin(['export', '--agent-skills', '--root', dir, '--out', to], { limitMs: 30_000 })
      expect(run.code).toBe(0)
      expect(run.stderr).toMatch(/warning agent-skill-name +\S+\/My_Site\/manifest\.json:2:3\n/)
      expect(run.stderr).toContain('skill id "My_Site" is exported as the Agent Skills folder "my-site"')
      expect(await readdir(to)).toEqual(['my-site'])
      const { frontmatter } = loadSkillMd(await readFile(join(to, 'my-site/SKILL.md'), 'utf8'))
      expect(frontmatter).toMatchObject({ name: 'my-site', metadata: { 'site-skills-id': 'My_Site' } })
      // The folder is self-contained: the script runs the copy, with the original skill gone.
      await rm(join(dir, 'My_Site'), { recursive: true })
      const hello = await runScript(join(to, 'my-site/scripts/hello.sh'), [])
      expect(hello.code).toBe(0)
      expect(hello.stdout).toBe('hello\n')
    } finally {
      await cleanup()
    }
  })

  it('a broken skill stops the export of all skills or of itself, not of another one named', async () => {
    const { dir, cleanup } = await makeTempDir('export-broken-')
    try {
      const broken = skill('broken')
      broken['broken/manifest.json'] = broken['broken/manifest.json']!.replace(
        '"callable": "hello"',
        '"callable": "nope"',
      )
      await writeTree(dir, { ...skill('good'), ...broken, 'package.json': '{ "type": "module" }\n' })
      const to = join(dir, 'out')
      const all = await runBin(['export', '--agent-skills', '--root', dir, '--out', to], { limitMs: 30_000 })
      expect(all.code).toBe(1)
      expect(all.stderr).toMatch(/broken\/manifest\.json:\d+:\d+/)
      expect(all.stderr).toContain('tool-callable-missing')
      const itself = await runBin(['export', 'broken', '--agent-skills', '--root', dir, '--out', to])
      expect(itself.code).toBe(1)
      expect(existsSync(to)).toBe(false)
      const good = await runBin(['export', 'good', '--agent-skills', '--root', dir, '--out', to], {
        limitMs: 30_000,
      })
      expect(good.stderr).toBe('')
      expect(good.code).toBe(0)
      expect(await readdir(to)).toEqual(['good'])
    } finally {
      await cleanup()
    }
  })

  it('an id mapped onto the name of another skill is an error at its id, and nothing is written', async () => {
    const { dir, cleanup } = await makeTempDir('export-names-')
    try {
      await writeTree(dir, { ...skill('my-site'), ...skill('My_Site') })
      const to = join(dir, 'out')
      const run = await runBin(['export', '--agent-skills', '--root', dir, '--out', to], { limitMs: 30_000 })
      expect(run.code).toBe(1)
      expect(run.stderr).toMatch(/error agent-skill-name-invalid +\S+\/My_Site\/manifest\.json:2:3\n/)
      expect(run.stderr).toContain('skill id "My_Site" would be exported as "my-site", the name of skill "my-site"')
      expect(existsSync(to)).toBe(false)
    } finally {
      await cleanup()
    }
  })
})

describe('site-skills export: the copy of a skill, read through the file guard', () => {
  it('copies a skill past a FIFO, loops, links out and dotfiles, and refuses a file over the limit by name', async () => {
    const { dir, cleanup } = await makeTempDir('export-guard-')
    try {
      await writeTree(dir, {
        'package.json': '{ "type": "module" }\n',
        'learnings/shop/manifest.json': {
          id: 'shop',
          name: 'Shop',
          domains: ['shop.example.com'],
          nodeTools: {
            hello: {
              description: 'Says hello.',
              path: 'tools/hello.js',
              callable: 'hello',
              args: {},
              returns: { type: 'string', description: 'A greeting.' },
            },
          },
        },
        'learnings/shop/tools/hello.js': 'export async function hello() {\n  return "hello"\n}\n',
        'learnings/shop/notes/kept.md': '# Kept\n',
        'learnings/shop/alias.md': { symlink: 'notes/kept.md' },
        'learnings/shop/a': { symlink: '.' },
        'learnings/shop/out': { symlink: '../../outside' },
        'learnings/shop/zero': { symlink: '/dev/zero' },
        'learnings/shop/.env': 'TOKEN=local\n',
        'outside/x.txt': 'not the skill\n',
      })
      execFileSync('mkfifo', [join(dir, 'learnings/shop/pipe')])
      const root = join(dir, 'learnings')
      const to = join(dir, 'out')
      const run = await runBin(['export', '--agent-skills', '--root', root, '--out', to], { limitMs: 30_000 })
      expect(run.timedOut).toBe(false)
      expect(run.code, run.stderr).toBe(0)
      const copy = join(to, 'shop/assets/learnings/shop')
      const copied = readdirSync(copy, { recursive: true, withFileTypes: true })
        .filter((e) => !e.isDirectory())
        .map((e) => posix.join(e.parentPath.slice(copy.length + 1), e.name).replace(/^\//, ''))
        .sort()
      expect(copied).toEqual(['alias.md', 'manifest.json', 'notes/kept.md', 'tools/hello.js'])
      expect(readFileSync(join(copy, 'alias.md'), 'utf8')).toBe('# Kept\n')

      // A FIFO as the marker of an earlier export is no marker: the folder is not replaced, and nothing hangs.
      await rm(join(to, 'shop/.site-skills-export.json'))
      execFileSync('mkfifo', [join(to, 'shop/.site-skills-export.json')])
      const marker = await runBin(['export', '--agent-skills', '--root', root, '--out', to], { limitMs: 30_000 })
      expect(marker.timedOut).toBe(false)
      expect(marker.code).toBe(1)
      expect(marker.stderr).toContain('exists and was not written by site-skills export')

      await writeFile(join(root, 'shop/big.bin'), '')
      await truncate(join(root, 'shop/big.bin'), 16 * 1024 * 1024 + 1)
      const big = await runBin(['export', '--agent-skills', '--root', root, '--out', join(dir, 'out-2')], {
        limitMs: 30_000,
      })
      expect(big.code).toBe(1)
      expect(big.stderr).toContain(
        'site-skills: file-too-large: cannot copy shop/big.bin: it is 16777217 bytes; the limit is 16777216 bytes (16 MiB)',
      )
      expect(existsSync(join(dir, 'out-2'))).toBe(false)
    } finally {
      await cleanup()
    }
  })
})

describe('site-skills export: a skill too big for one SKILL.md', () => {
  it('300 tools and a long note: the description fits 1,024 characters, SKILL.md 500 lines, every link a file', async () => {
    const { dir, cleanup } = await makeTempDir('export-big-')
    try {
      const names = Array.from({ length: 300 }, (_, i) => `lookup_${String(i).padStart(3, '0')}`)
      const tool = (name: string) => ({
        description: `Looks up record ${name} in the big example catalogue and returns its fields. Slow.`,
        path: 'tools/all.js',
        callable: name,
        args: { id: { type: 'string', required: true, description: 'Record id.' } },
        returns: { type: 'object', description: 'The record.' },
      })
      const manifest = {
        id: 'big',
        name: 'Big Catalogue',
        domains: ['big.example.com'],
        notes: ['notes/long.md', 'notes/short.md'],
        nodeTools: Object.fromEntries(names.map((name) => [name, tool(name)])),
      }
      await writeTree(dir, {
        'package.json': '{ "type": "module" }\n',
        'big/manifest.json': manifest,
        'big/tools/all.js': names
          .map((n) => `export async function ${n}(ctx, args) {\n  return { id: args.id }\n}\n`)
          .join(''),
        'big/notes/long.md': `# Long\n\n${'A line of the long note.\n'.repeat(150)}`,
        'big/notes/short.md': '# Short\n\nThe short note.\n',
      })
      const to = join(dir, 'out')
      const run = await runBin(['export', '--agent-skills', '--root', dir, '--out', to], { limitMs: 30_000 })
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      const text = await readFile(join(to, 'big/SKILL.md'), 'utf8')
      const { frontmatter, body } = loadSkillMd(text)
      expect([...(frontmatter.description as string)].length).toBeLessThanOrEqual(1024)
      expect(frontmatter.description).toMatch(/lookup_000, lookup_001, .* and \d+ more\./)
      expect(text.split('\n').length).toBeLessThan(500)
      expect(body).toContain('[the tool index](references/tools.md)')
      expect(body).toContain('[notes/long.md](references/notes/long.md)')
      expect(body).toContain('[notes/short.md](references/notes/short.md)')
      const index = await readFile(join(to, 'big/references/tools.md'), 'utf8')
      expect(relativeLinks(index)).toHaveLength(300)
      for (const link of relativeLinks(index)) expect(existsSync(join(to, 'big', link)), link).toBe(true)
      expect(checkAgentSkill('big', (await readFolder(join(to, 'big'))).files)).toEqual([])
    } finally {
      await cleanup()
    }
  })
})

describe("the export's validator", () => {
  it('reports each broken rule: name, description, unknown field, length, links, unnamed scripts', () => {
    const files = new Map<string, string>([
      [
        'SKILL.md',
        `---\nname: "Bad--Name"\ndescription: "${'x'.repeat(1025)}"\nversion: "1"\n---\n${'line\n'.repeat(500)}[gone](references/gone.md) [out](../x.md)\n`,
      ],
      ['scripts/lost.sh', 'echo\n'],
    ])
    const messages = checkAgentSkill('bad-name', files).map((p) => `${p.file}:${p.line}: ${p.message}`)
    expect(messages).toEqual([
      'SKILL.md:2: frontmatter field "version" is not in the specification',
      'SKILL.md:2: name "Bad--Name" may hold only a-z, 0-9 and single hyphens between them (no hyphen at either end)',
      'SKILL.md:2: name "Bad--Name" must be the folder name "bad-name"',
      'SKILL.md:3: description has 1025 characters, over 1024',
      'SKILL.md:506: SKILL.md has 506 lines, not under 500',
      'SKILL.md:506: link references/gone.md: no file references/gone.md',
      'SKILL.md:506: link ../x.md leads out of the skill folder',
      'scripts/lost.sh:1: scripts/lost.sh is named neither in SKILL.md nor in a file it links',
    ])
  })
})

describe('writeAgentSkills: nothing half-done', () => {
  const folder = (name: string, files: { path: string; content: string }[]) => ({ name, id: name, files })
  const marked = (name: string, text: string) =>
    folder(name, [
      { path: '.site-skills-export.json', content: '{ "generator": "unplugin-site-skills" }\n' },
      { path: 'SKILL.md', content: text },
    ])

  it('a write that fails leaves an earlier export as it was, no temporary folder, and no new out folder', async () => {
    const { dir, cleanup } = await makeTempDir('export-write-')
    try {
      const out = join(dir, 'skills')
      await writeAgentSkills(out, [marked('one', 'first\n')])
      // A NUL in a path makes the write throw after the first folder's files are written.
      const broken = [marked('one', 'second\n'), folder('two', [{ path: 'bad\0name', content: 'x' }])]
      await expect(writeAgentSkills(out, broken)).rejects.toThrow()
      expect(await readdir(out)).toEqual(['one'])
      expect(await readFile(join(out, 'one/SKILL.md'), 'utf8')).toBe('first\n')
      const fresh = join(dir, 'fresh/nested')
      await expect(writeAgentSkills(fresh, broken)).rejects.toThrow()
      expect(existsSync(join(dir, 'fresh'))).toBe(false)
    } finally {
      await cleanup()
    }
  })
})

describe('names and frontmatter', () => {
  it('maps ids onto Agent Skills names, or to nothing', () => {
    expect(agentSkillName('hacker-news')).toBe('hacker-news')
    expect(agentSkillName('My_Site')).toBe('my-site')
    expect(agentSkillName('Ünïcode  Café (beta)')).toBe('unicode-cafe-beta')
    expect(agentSkillName('a--b')).toBe('a-b')
    expect(agentSkillName('日本')).toBe('')
    const long = agentSkillName(`${'x'.repeat(63)}_y`)
    expect(long).toBe('x'.repeat(63))
    expect(long).toMatch(SPEC_NAME_RE)
  })

  it('writes every value so that a YAML parser reads back the same strings', () => {
    const nasty = 'Acme: "quoted" # not a comment \\ {a: [b]} - item\u2028next\u0085 \ufeff done'
    const text = renderFrontmatter({ name: 'acme', description: nasty, metadata: { 'a: b': nasty } })
    const { frontmatter } = loadSkillMd(`${text}\nbody\n`)
    expect(frontmatter).toEqual({ name: 'acme', description: nasty, metadata: { 'a: b': nasty } })
    expect(text).toContain('\nname: acme\n')
    for (const name of ['null', 'yes', '1e3'])
      expect(loadSkillMd(`${renderFrontmatter({ name, description: 'd' })}\n`).frontmatter.name).toBe(name)
  })
})

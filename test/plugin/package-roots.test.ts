import { execFile } from 'node:child_process'
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'
import { SHOP_MANIFEST } from '../helpers/shop-skill'
import { runBin, runNode } from '../helpers/spawn'

const VITE = join(REPO_ROOT, 'node_modules/vite/bin/vite.js')
const PACKAGE = '@acme/site-skills-shop'
const npm = (args: string[], cwd: string) =>
  promisify(execFile)('npm', [...args, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd })

const SHOP = SHOP_MANIFEST
const NEWS = { id: 'news', name: 'News', domains: ['news.example.com'], nodeTools: {} }

/** An agent built against the package's skills: the tool runs, the lookup knows both skills. */
const AGENT = `import { sites, siteSkillsForUrl } from 'virtual:site-skills'
console.log(await sites.shop.double({ n: 21 }), siteSkillsForUrl('https://news.example.com/').map((s) => s.id).join(','))
`
const VITE_CONFIG = `import siteSkills from 'unplugin-site-skills/vite'
export default { plugins: [siteSkills({ roots: ['${PACKAGE}'], dts: false })] }
`

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let project: string
beforeAll(async () => {
  tmp = await makeTempDir('package-roots-')
  // The skill package as its author writes it, packed by npm into a tarball.
  const source = join(tmp.dir, 'source')
  await writeTree(source, {
    'package.json': { name: PACKAGE, version: '1.0.0', files: ['learnings'], siteSkills: { root: 'learnings' } },
    'learnings/shop/manifest.json': SHOP,
    'learnings/shop/tools/double.js': 'export const double = (ctx, args) => args.n * 2\n',
    'learnings/news/manifest.json': NEWS,
  })
  const { stdout } = await npm(['pack', '--pack-destination', tmp.dir], source)
  const tarball = join(tmp.dir, stdout.trim().split('\n').pop()!)
  // A fresh project that installs it, as a user would.
  project = join(tmp.dir, 'project')
  await writeTree(project, {
    'package.json': { name: 'project', private: true, type: 'module' },
    'agent.js': AGENT,
    'vite.config.js': VITE_CONFIG,
  })
  await npm(['install', tarball], project)
}, 120_000)
afterAll(() => tmp.cleanup())

const build = (outDir: string) =>
  runNode([VITE, 'build', '--ssr', 'agent.js', '--outDir', outDir], { cwd: project, limitMs: 60_000 })

describe('a skill package installed from a tarball, as a root', () => {
  it('builds with Vite from the package name, and fails naming the package when one of its skills breaks', async () => {
    const ok = await build('out-ok')
    expect(ok.timedOut).toBe(false)
    expect(ok.code, ok.stdout + ok.stderr).toBe(0)
    const agent = await runNode([join(project, 'out-ok/agent.js')], { cwd: project })
    expect(agent.code, agent.stderr).toBe(0)
    expect(agent.stdout).toBe('42 news\n')

    const installed = join(project, 'node_modules', PACKAGE, 'learnings/shop/manifest.json')
    const manifest = await readFile(installed, 'utf8')
    await writeFile(installed, manifest.replace('"name": "Shop"', '"name": 5'))
    try {
      const broken = await build('out-broken')
      const output = broken.stdout + broken.stderr
      expect(broken.timedOut).toBe(false)
      expect(broken.code, output).toBe(1)
      // The report names the package; only the editor link (the error's `loc`) is the absolute path.
      expect(output).toContain(`${PACKAGE}/shop/manifest.json:3:3  error name-invalid`)
    } finally {
      await writeFile(installed, manifest)
    }
  })

  it('validates by the package name from the CLI, diagnostics and --json naming the package', async () => {
    const clean = await runBin(['validate', '--root', PACKAGE], { cwd: project })
    expect(clean.code, clean.stdout + clean.stderr).toBe(0)
    expect(clean.stdout).toContain('0 errors, 0 warnings in 2 skills')

    const installed = join(project, 'node_modules', PACKAGE, 'learnings/news/manifest.json')
    await writeFile(installed, '{ "id": "news", "name": "News", "domains": ["*.com"], "nodeTools": {} }\n')
    try {
      const human = await runBin(['validate', '--root', PACKAGE], { cwd: project })
      expect(human.code).toBe(1)
      expect(human.stdout).toContain(`${PACKAGE}/news/manifest.json:1:45`)
      const json = await runBin(['validate', '--json', '--root', PACKAGE], { cwd: project })
      expect(json.code).toBe(1)
      const report = JSON.parse(json.stdout)
      expect(
        report.diagnostics.map((d: { root: string; file: string; code: string }) => [d.root, d.file, d.code]),
      ).toEqual([[PACKAGE, 'news/manifest.json', 'domain-public-suffix']])
    } finally {
      await writeFile(installed, `${JSON.stringify(NEWS)}\n`)
    }
  })
})

describe('package names that name no skill package', () => {
  it('a package that is not installed is package-missing, exit 2, with the npm i line', async () => {
    const missing = await runBin(['validate', '--root', '@acme/not-installed'], { cwd: project })
    expect(missing.timedOut).toBe(false)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('package-missing: package "@acme/not-installed" is not installed')
    expect(missing.stderr).toContain('npm i -D @acme/not-installed')
  })

  it('a Vite build with a missing package fails with package-missing instead of building an empty agent', async () => {
    await writeFile(join(project, 'vite.missing.config.js'), VITE_CONFIG.replace(PACKAGE, '@acme/not-installed'))
    const failed = await runNode(
      [VITE, 'build', '--ssr', 'agent.js', '--outDir', 'out-missing', '-c', 'vite.missing.config.js'],
      {
        cwd: project,
        limitMs: 60_000,
      },
    )
    const output = failed.stdout + failed.stderr
    expect(failed.code, output).toBe(1)
    expect(output).toContain('package-missing')
    expect(output).toContain('package "@acme/not-installed" is not installed')
  })

  it('a package without siteSkills, or whose siteSkills.root leaves it, is package-invalid at its package.json', async () => {
    const modules = join(project, 'node_modules/@acme')
    await writeTree(modules, {
      'plain/package.json': { name: '@acme/plain', version: '1.0.0' },
      'escape/package.json': '{\n  "name": "@acme/escape",\n  "siteSkills": { "root": "../plain" }\n}\n',
      'linked/package.json': '{\n  "name": "@acme/linked",\n  "siteSkills": {\n    "root": "learnings"\n  }\n}\n',
    })
    await mkdir(join(tmp.dir, 'outside/shop'), { recursive: true })
    await symlink(join(tmp.dir, 'outside'), join(modules, 'linked/learnings'))
    const plain = await runBin(['validate', '--root', '@acme/plain'], { cwd: project })
    expect(plain.code).toBe(2)
    expect(plain.stderr).toContain(
      '@acme/plain/package.json:1:1: package-invalid: package "@acme/plain": its package.json has no "siteSkills" field',
    )
    const escaping = await runBin(['validate', '--root', '@acme/escape'], { cwd: project })
    expect(escaping.code).toBe(2)
    expect(escaping.stderr).toContain('@acme/escape/package.json:3:19: package-invalid')
    expect(escaping.stderr).toContain('must be a relative path inside the package')
    const linked = await runBin(['validate', '--root', '@acme/linked'], { cwd: project })
    expect(linked.code).toBe(2)
    expect(linked.stderr).toContain('@acme/linked/package.json:4:5: package-invalid')
    expect(linked.stderr).toContain('resolves outside the package (a symlink)')
  })

  it('a skill folder of a package that is a symlink out of the package is path-escape, and never served', async () => {
    const modules = join(project, 'node_modules/@acme')
    await writeTree(join(tmp.dir, 'elsewhere'), {
      'shop/manifest.json': SHOP,
      'shop/tools/double.js': 'export const double = (ctx, args) => args.n * 2\n',
    })
    await writeTree(modules, {
      'leaky/package.json': { name: '@acme/leaky', version: '1.0.0', siteSkills: { root: 'learnings' } },
      'leaky/learnings/news/manifest.json': NEWS,
      // A symlinked skill folder that stays inside the package is served.
      'leaky/extra/blog/manifest.json': { ...NEWS, id: 'blog', name: 'Blog', domains: ['blog.example.com'] },
      'leaky/learnings/blog': { symlink: '../extra/blog' },
    })
    await symlink(join(tmp.dir, 'elsewhere/shop'), join(modules, 'leaky/learnings/shop'))
    const run = await runBin(['validate', '--json', '--root', '@acme/leaky'], { cwd: project })
    expect(run.timedOut).toBe(false)
    expect(run.code, run.stderr).toBe(1)
    const report = JSON.parse(run.stdout)
    expect(report.skills).toBe(2)
    expect(report.diagnostics).toMatchObject([
      {
        code: 'path-escape',
        severity: 'error',
        siteId: 'shop',
        root: '@acme/leaky',
        file: 'shop',
        message: 'this skill folder of package "@acme/leaky" is a symlink to outside the package: it is not served',
      },
    ])
    const match = await runBin(
      ['match', '--json', 'https://shop.example.com/', 'https://blog.example.com/', '--root', '@acme/leaky'],
      { cwd: project },
    )
    expect(match.code, match.stderr).toBe(0)
    expect(JSON.parse(match.stdout)).toEqual({ 'https://shop.example.com/': [], 'https://blog.example.com/': ['blog'] })
  })
})

describe('a workspace package, symlinked into node_modules as npm workspaces do', () => {
  it('is followed to its real folder, read by the no-build API and named by the package', async () => {
    const workspace = join(tmp.dir, 'workspace')
    await writeTree(workspace, {
      'package.json': { name: 'workspace', private: true, type: 'module', workspaces: ['packages/*'] },
      'packages/skills/package.json': { name: '@acme/ws-skills', version: '1.0.0', siteSkills: { root: 'skills' } },
      'packages/skills/skills/shop/manifest.json': SHOP,
      'packages/skills/skills/shop/tools/double.js': 'export const double = (ctx, args) => args.n * 2\n',
      'node_modules/@acme/ws-skills': { symlink: '../../packages/skills' },
      'app.js': `import { siteSkillsForUrl, runNodeSiteTool, validateSiteSkills } from 'unplugin-site-skills'
const roots = ['@acme/ws-skills']
console.log((await siteSkillsForUrl('https://shop.example.com/x', { roots })).map((s) => s.id).join(','))
console.log(await runNodeSiteTool('shop', 'double', { n: 4 }, {}, { roots }))
console.log(JSON.stringify(await validateSiteSkills({ roots })))
try { await validateSiteSkills({ roots: ['@acme/absent'] }) } catch (error) { console.log(error.code) }
`,
    })
    const app = await runNode([join(workspace, 'app.js')], { cwd: workspace })
    expect(app.code, app.stderr).toBe(0)
    expect(app.stdout.split('\n')).toEqual(['shop', '8', '[]', 'package-missing', ''])
    const cli = await runBin(['validate', '--json', '--root', '@acme/ws-skills'], { cwd: workspace })
    expect(cli.code, cli.stderr).toBe(0)
    expect(JSON.parse(cli.stdout)).toMatchObject({ ok: true, skills: 1 })
  })

  it('is watched like a local root: an edit in the workspace package is seen by the next no-build call', async () => {
    const workspace = join(tmp.dir, 'workspace')
    const api = (await import(pathToFileURL(join(REPO_ROOT, 'dist/index.js')).href)) as typeof import('../../src/index')
    const roots = ['@acme/ws-skills']
    const manifest = join(workspace, 'packages/skills/skills/shop/manifest.json')
    const before = process.cwd()
    // The package name resolves from the working directory, as for the CLI.
    process.chdir(workspace)
    try {
      expect((await api.siteSkillsForUrl('https://shop.example.com/', { roots })).map((s) => s.id)).toEqual(['shop'])
      await writeFile(manifest, `${JSON.stringify({ ...SHOP, domains: ['store.example.com'] })}\n`)
      await vi.waitFor(
        async () =>
          expect((await api.siteSkillsForUrl('https://store.example.com/', { roots })).map((s) => s.id)).toEqual([
            'shop',
          ]),
        { timeout: 20_000, interval: 50 },
      )
    } finally {
      process.chdir(before)
      api.closeSiteSkills()
    }
  })
})

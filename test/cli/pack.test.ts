import { execFile, execFileSync } from 'node:child_process'
import { createHmac, generateKeyPairSync } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'
import { SHOP_MANIFEST } from '../helpers/shop-skill'
import { runBin, runNode } from '../helpers/spawn'

const VITE = join(REPO_ROOT, 'node_modules/vite/bin/vite.js')
const LEARNINGS = join(REPO_ROOT, 'learnings')
const npm = (args: string[], cwd: string) =>
  promisify(execFile)('npm', [...args, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd })

/** Every file of a folder, relative path to bytes (base64), sorted. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const entry of (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())) {
    const path = join(entry.parentPath, entry.name)
    out[relative(dir, path)] = (await readFile(path)).toString('base64')
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)))
}

const SHOP = {
  ...SHOP_MANIFEST,
  nodeTools: {
    double: { ...SHOP_MANIFEST.nodeTools.double, examples: [{ name: 'five', args: { n: 5 }, expect: 10 }] },
  },
}

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('pack-')
})
afterAll(() => tmp.cleanup())

describe('site-skills pack', () => {
  it('packs every shipped skill (no false positives), the same bytes twice, with digests and a siteSkills root', async () => {
    const first = await runBin(['pack', '--root', LEARNINGS, '--out', join(tmp.dir, 'all-1'), '--json'], {
      cwd: tmp.dir,
      limitMs: 60_000,
    })
    expect(first.timedOut).toBe(false)
    expect(first.code, first.stdout + first.stderr).toBe(0)
    expect(first.stderr).toBe('')
    const summary = JSON.parse(first.stdout)
    expect(summary).toMatchObject({ ok: true, name: 'site-skills-pack', version: '0.0.0' })
    expect(summary.skills).toEqual(['demo-shop', 'github', 'google-workspace', 'hacker-news', 'mdn', 'wikipedia'])
    const second = await runBin(['pack', '--root', LEARNINGS, '--out', join(tmp.dir, 'all-2')], {
      cwd: tmp.dir,
      limitMs: 60_000,
    })
    expect(second.code, second.stdout + second.stderr).toBe(0)
    const [a, b] = [await tree(join(tmp.dir, 'all-1')), await tree(join(tmp.dir, 'all-2'))]
    expect(Object.keys(a).length).toBe(summary.files)
    expect(b).toEqual(a)

    const manifest = JSON.parse(Buffer.from(a['package.json']!, 'base64').toString('utf8'))
    expect(manifest.siteSkills).toEqual({ root: 'learnings' })
    expect(manifest.files).toEqual(Object.keys(a).filter((p) => p !== 'package.json'))
    const digests = JSON.parse(Buffer.from(a['digests.json']!, 'base64').toString('utf8'))
    expect(digests.algorithm).toBe('sha256')
    const github = 'learnings/github/manifest.json'
    expect(Buffer.from(a[github]!, 'base64')).toEqual(await readFile(join(LEARNINGS, 'github/manifest.json')))
    expect(digests.files[github]).toMatch(/^[0-9a-f]{64}$/)

    // Packing again into the same folder replaces the pack there with the same bytes.
    const again = await runBin(['pack', '--root', LEARNINGS, '--out', join(tmp.dir, 'all-1')], {
      cwd: tmp.dir,
      limitMs: 60_000,
    })
    expect(again.code, again.stderr).toBe(0)
    expect(await tree(join(tmp.dir, 'all-1'))).toEqual(a)
  })

  it('a packed skill, npm-packed and installed into a fresh project, is a root there: validate and a Vite build', async () => {
    const source = join(tmp.dir, 'author')
    await writeTree(source, {
      // A note under a dot-name and a dotfile travel with the skill (its record hashes them); what npm never packs does not.
      'learnings/shop/manifest.json': { ...SHOP, notes: ['notes/.team.md'] },
      'learnings/shop/notes/.team.md': '# Team\n\nAsk Ada.\n',
      'learnings/shop/.editorconfig': 'root = true\n',
      'learnings/shop/.DS_Store': 'finder state',
      'learnings/shop/tools/double.js': 'export const double = (ctx, args) => args.n * 2\n',
      'learnings/shop/notes/about.md': '# Shop\n\nPrices are in cents.\n',
      'learnings/other/manifest.json': { id: 'other', name: 'Other', domains: ['other.example.com'], nodeTools: {} },
    })
    // The author's verification record travels with the skill, byte for byte, and stays current there.
    const record = await runBin(['test', 'shop', '--record', '--root', 'learnings'], { cwd: source, limitMs: 60_000 })
    expect(record.code, record.stdout + record.stderr).toBe(0)
    const out = join(source, 'dist/pack')
    const pack = await runBin(
      ['pack', 'shop', '--out', 'dist/pack', '--name', '@acme/site-skills-shop', '--package-version', '1.2.3'],
      { cwd: source, limitMs: 60_000 },
    )
    expect(pack.code, pack.stdout + pack.stderr).toBe(0)
    expect(pack.stdout).toContain('packed 1 skill (shop) into dist/pack')
    expect(pack.stdout).toContain('npm i ./dist/pack')
    expect(Object.keys(await tree(out))).toEqual([
      'README.md',
      'digests.json',
      'learnings/shop/.editorconfig',
      'learnings/shop/manifest.json',
      'learnings/shop/notes/.team.md',
      'learnings/shop/notes/about.md',
      'learnings/shop/tools/double.js',
      'learnings/shop/verification.json',
      'package.json',
    ])
    const recorded = JSON.parse(await readFile(join(out, 'learnings/shop/verification.json'), 'utf8')).files
    expect(Object.keys(recorded)).toEqual([
      '.editorconfig',
      'manifest.json',
      'notes/.team.md',
      'notes/about.md',
      'tools/double.js',
    ])
    const { stdout } = await npm(['pack', '--pack-destination', tmp.dir], out)
    const tarball = join(tmp.dir, stdout.trim().split('\n').pop()!)
    expect(tarball).toMatch(/acme-site-skills-shop-1\.2\.3\.tgz$/)

    const project = join(tmp.dir, 'consumer')
    await writeTree(project, {
      'package.json': { name: 'consumer', private: true, type: 'module' },
      'agent.js': "import { sites } from 'virtual:site-skills'\nconsole.log(await sites.shop.double({ n: 5 }))\n",
      'vite.config.js':
        "import siteSkills from 'unplugin-site-skills/vite'\nexport default { plugins: [siteSkills({ roots: ['@acme/site-skills-shop'], dts: false })] }\n",
    })
    await npm(['install', tarball], project)
    const validate = await runBin(['validate', '--root', '@acme/site-skills-shop'], { cwd: project })
    expect(validate.code, validate.stdout + validate.stderr).toBe(0)
    expect(validate.stdout).toContain('0 errors, 0 warnings in 1 skill')
    const build = await runNode([VITE, 'build', '--ssr', 'agent.js', '--outDir', 'out'], {
      cwd: project,
      limitMs: 60_000,
    })
    expect(build.code, build.stdout + build.stderr).toBe(0)
    const agent = await runNode([join(project, 'out/agent.js')], { cwd: project })
    expect(agent.stdout).toBe('10\n')
    // The CLI imports the installed Node tool itself (an ES module by the pack's "type").
    const run = await runBin(
      ['run', 'shop', 'double', '--args', '{"n":4}', '--json', '--root', '@acme/site-skills-shop'],
      { cwd: project },
    )
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout.trim()).toBe('8')
  })

  it('refuses a planted private key, GitHub token and JWT at their line and column: exit 1, nothing written', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: '42', name: 'Ada' })}`
    const jwt = `${unsigned}.${createHmac('sha256', 'k').update(unsigned).digest('base64url')}`
    // Assembled here, so that no token is written in this repository.
    const token = ['ghp', 'Zx8d7Q2mN4pL6vB1cR9sT3wY5kH0jF2gA7eU'].join('_')
    const fixture = [
      '<!doctype html>',
      '<title>Orders</title>',
      `<script>window.__SESSION = { token: "${token}" }</script>`,
      `<meta name="csrf" content="${jwt}">`,
      `<pre>${pem}</pre>`,
      '',
    ].join('\n')
    const root = join(tmp.dir, 'leaky')
    await writeTree(root, {
      'learnings/shop/manifest.json': SHOP,
      'learnings/shop/tools/double.js': 'export const double = (ctx, args) => args.n * 2\n',
      'learnings/shop/fixtures/orders.html': fixture,
      'learnings/shop/notes/login.md': '# Login\n\nThe form posts `user=ada&password=Tr0ub4dor3` to /session.\n',
    })
    const out = join(root, 'dist/pack')
    const pack = await runBin(['pack', '--out', 'dist/pack'], { cwd: root, limitMs: 60_000 })
    expect(pack.timedOut).toBe(false)
    expect(pack.code).toBe(1)
    expect(pack.stdout).toBe('')
    const lines = pack.stderr.split('\n').filter((l) => l.startsWith('✖'))
    expect(lines).toEqual([
      expect.stringMatching(
        /^✖ learnings\/shop\/fixtures\/orders\.html:3:38 {2}error secret-found {2}.*GitHub Token.*\(secretlint\/github\)$/,
      ),
      expect.stringMatching(
        /^✖ learnings\/shop\/fixtures\/orders\.html:4:28 {2}error secret-found {2}a JSON Web Token eyJh\*+ \(site-skills\/jwt\)$/,
      ),
      expect.stringMatching(/^✖ learnings\/shop\/fixtures\/orders\.html:5:6 {2}error secret-found {2}.*private key.*$/),
      expect.stringMatching(
        /^✖ learnings\/shop\/notes\/login\.md:3:35 {2}error secret-found {2}a password value Tr0u\*+ under "password" \(site-skills\/password\)$/,
      ),
    ])
    expect(pack.stderr).toContain('4 findings in 2 files: nothing was written')
    // The secret itself is never printed.
    for (const secret of [token, jwt, 'Tr0ub4dor3', pem.split('\n')[1]!]) expect(pack.stderr).not.toContain(secret)
    expect(existsSync(out)).toBe(false)
    expect(await readdir(join(root))).toEqual(['learnings'])

    const json = await runBin(['pack', '--out', 'dist/pack', '--json'], { cwd: root, limitMs: 60_000 })
    expect(json.code).toBe(1)
    const report = JSON.parse(json.stdout)
    expect(report.ok).toBe(false)
    expect(report.diagnostics.every((d: { root: string }) => d.root === 'learnings')).toBe(true)
    expect(
      report.diagnostics.map((d: { file: string; line: number; column: number }) => `${d.file}:${d.line}:${d.column}`),
    ).toEqual([
      'shop/fixtures/orders.html:3:38',
      'shop/fixtures/orders.html:4:28',
      'shop/fixtures/orders.html:5:6',
      'shop/notes/login.md:3:35',
    ])
  })

  it('finds session cookies, cloud and forge tokens in a recording, and lets placeholders and empty fields through', async () => {
    const join_ = (...parts: string[]) => parts.join('')
    const recording = JSON.stringify(
      {
        log: {
          entries: [
            {
              request: {
                url: 'https://shop.example.com/api/orders',
                headers: [{ name: 'Cookie', value: join_('sessionid=', '8f14e45fceea167a5a36dedd4bea2543') }],
              },
              response: {
                cookies: [{ name: 'sid', value: join_('d41d8cd98f00', 'b204e9800998ecf8427e'), path: '/' }],
                content: {
                  text: [
                    join_('aws_secret_access_key = "', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQXAMPLEKE', '"'),
                    join_('xoxb-', '1234567890-1234567890123-', 'Zx8d7Q2mN4pL6vB1cR9sT3wY'),
                    join_('npm_', 'Zx8d7Q2mN4pL6vB1cR9sT3wY5kH0jF2gA7eU'),
                    join_('glpat-', 'Zx8d7Q2mN4pL6vB1cR9s'),
                  ].join(' | '),
                },
              },
            },
          ],
        },
      },
      null,
      1,
    )
    const placeholders = [
      '<form><input type="password" name="pw" value=""><input type="password" autocomplete="current-password"></form>',
      '<p>Cookie: none. Passwords: "password": "<your password>", password=******</p>',
      '<script>const s = { token: "${TOKEN}", password: process.env.PASSWORD }</script>',
      '',
    ].join('\n')
    const root = join(tmp.dir, 'recorded')
    await writeTree(root, {
      'learnings/shop/manifest.json': SHOP,
      'learnings/shop/tools/double.js': 'export const double = (ctx, args) => args.n * 2\n',
      'learnings/shop/recordings/orders.har': recording,
      'learnings/shop/fixtures/login.html': placeholders,
    })
    const pack = await runBin(['pack', '--out', 'dist/pack', '--json'], { cwd: root, limitMs: 60_000 })
    expect(pack.code, pack.stderr).toBe(1)
    const found = JSON.parse(pack.stdout).diagnostics.map(
      (d: { file: string; message: string }) => `${d.file} ${/\((\S+)\)$/.exec(d.message)?.[1]}`,
    )
    expect(found.sort()).toEqual(
      [
        'shop/recordings/orders.har site-skills/cookie',
        'shop/recordings/orders.har site-skills/cookie',
        'shop/recordings/orders.har site-skills/aws',
        'shop/recordings/orders.har secretlint/slack',
        'shop/recordings/orders.har secretlint/npm',
        'shop/recordings/orders.har secretlint/gitlab',
      ].sort(),
    )
    expect(existsSync(join(root, 'dist'))).toBe(false)
  })

  it('refuses a symlink that leads out of the skill (pack-file), and packs one that stays inside as a file', async () => {
    const root = join(tmp.dir, 'linked')
    await writeTree(root, {
      'outside.txt': 'not part of the skill\n',
      'learnings/shop/manifest.json': SHOP,
      'learnings/shop/tools/double.js': 'export const double = (ctx, args) => args.n * 2\n',
      'learnings/shop/notes/about.md': '# Shop\n',
      'learnings/shop/notes/same.md': { symlink: 'about.md' },
      'learnings/shop/notes/out.md': { symlink: '../../../outside.txt' },
    })
    const refused = await runBin(['pack', '--out', 'dist/pack'], { cwd: root, limitMs: 60_000 })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(
      '✖ learnings/shop/notes/out.md:1:1  error pack-file  cannot be packed: it is a symlink that leads out of the skill folder',
    )
    expect(existsSync(join(root, 'dist'))).toBe(false)
    await rm(join(root, 'learnings/shop/notes/out.md'))
    const packed = await runBin(['pack', '--out', 'dist/pack'], { cwd: root, limitMs: 60_000 })
    expect(packed.code, packed.stderr).toBe(0)
    expect(await readFile(join(root, 'dist/pack/learnings/shop/notes/same.md'), 'utf8')).toBe('# Shop\n')
  })

  it('bad usage exits 2: no --out, an unknown skill, a bad --name; an invalid skill or a foreign --out folder exits 1', async () => {
    const root = join(tmp.dir, 'usage')
    await writeTree(root, {
      'learnings/shop/manifest.json': SHOP,
      'learnings/shop/tools/double.js': 'export const double = (ctx, args) => args.n * 2\n',
      'elsewhere/mine.txt': 'not a pack\n',
    })
    const noOut = await runBin(['pack'], { cwd: root })
    expect([noOut.code, noOut.stderr]).toEqual([2, expect.stringContaining('pack needs --out DIR')])
    const unknown = await runBin(['pack', 'shpo', '--out', 'x'], { cwd: root })
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      expect.stringContaining('no skill "shpo" in the roots (known: shop)'),
    ])
    const name = await runBin(['pack', '--out', 'x', '--name', 'Not A Name'], { cwd: root })
    expect([name.code, name.stderr]).toEqual([2, expect.stringContaining('is no npm package name')])
    const foreign = await runBin(['pack', '--out', 'elsewhere'], { cwd: root })
    expect(foreign.code).toBe(1)
    expect(foreign.stderr).toContain('pack-out: elsewhere is not empty and holds no pack')
    expect(await readdir(join(root, 'elsewhere'))).toEqual(['mine.txt'])

    await writeFile(join(root, 'learnings/shop/manifest.json'), JSON.stringify({ ...SHOP, name: '' }))
    const invalid = await runBin(['pack', '--out', 'x'], { cwd: root })
    expect(invalid.code).toBe(1)
    expect(invalid.stdout).toContain('name-invalid')
    expect(invalid.stderr).toContain('the skills to pack have errors')
    expect(existsSync(join(root, 'x'))).toBe(false)
  })

  it('a FIFO or a link to /dev/zero as the digests.json of --out, and symlink loops in a skill, hang nothing', async () => {
    const root = join(tmp.dir, 'hostile')
    await writeTree(root, {
      'learnings/shop/manifest.json': SHOP,
      'learnings/shop/tools/double.js': 'export const double = (ctx, args) => args.n * 2\n',
      'learnings/shop/a': { symlink: '.' },
      'learnings/shop/b': { symlink: '.' },
      'fifo/README.md': 'a pack?\n',
      'zero/README.md': 'a pack?\n',
      'zero/digests.json': { symlink: '/dev/zero' },
    })
    execFileSync('mkfifo', [join(root, 'fifo/digests.json')])
    for (const out of ['fifo', 'zero']) {
      const run = await runBin(['pack', '--out', out], { cwd: root, limitMs: 30_000 })
      expect(run.timedOut).toBe(false)
      expect(run.code).toBe(1)
      expect(run.stderr).toContain(`pack-out: ${out} is not empty and holds no pack (no digests.json)`)
    }
    const loops = await runBin(['pack', '--out', 'dist/pack'], { cwd: root, limitMs: 30_000 })
    expect(loops.timedOut).toBe(false)
    expect(loops.code).toBe(1)
    expect(loops.stderr).toContain(
      'learnings/shop/a:1:1  error pack-file  cannot be packed: it is a symlink to a folder it is in (a loop)',
    )
    expect(loops.stderr).toContain('learnings/shop/b:1:1  error pack-file')
  })
})

import { readFileSync } from 'node:fs'
import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer } from '../helpers/server'
import { REPO_ROOT } from '../helpers/tmp'
import { DOCS, readmeCommands, readmeFile, readmeSays } from './readme'
import { type Exited, runAsUser, words } from '../helpers/spawn'

/** The version of a package in this repository's node_modules: the one npm's cache holds. */
const installed = (name: string): string =>
  (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version
const OURS = 'unplugin-site-skills'
/** SPEC section 9: what the plugin, compiler, runtime and one-shot commands need, this package included. */
const MOST_PACKAGES = 22
/** What a lean install never brings: the MCP SDK, HTTP frameworks, zod, ajv, a browser launcher. */
const HEAVY = [
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/node',
  '@modelcontextprotocol/core',
  '@modelcontextprotocol/sdk',
  'express',
  'hono',
  '@hono/node-server',
  'zod',
  'ajv',
  'chrome-launcher',
]
const FLAGS = ['--prefer-offline', '--no-audit', '--no-fund']

function expectSuccess(result: Exited, what: string): void {
  const output = `${what} (exit ${result.code}, ${result.ms} ms${result.timedOut ? ', killed: timed out' : ''})\n`
  expect(result.timedOut, output + result.stdout + result.stderr).toBe(false)
  expect(result.code, output + result.stdout + result.stderr).toBe(0)
}

interface Manifest {
  peerDependencies: Record<string, string>
}

let project = ''
let tarballInstall: Exited

/** `npm ls --all --omit=dev --parseable`: the packages a production install holds, by name (the project left out). */
async function productionPackages(): Promise<string[]> {
  const listed = await runAsUser('npm', ['ls', '--all', '--omit=dev', '--parseable'], project, 60_000)
  expectSuccess(listed, 'npm ls --all --omit=dev --parseable')
  const paths = listed.stdout.split('\n').filter((line) => line.includes('node_modules'))
  return paths.map((path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)).sort()
}

/** `du -sk node_modules` in MB, for the log. */
async function sizeMb(): Promise<number> {
  const du = await runAsUser('du', ['-sk', 'node_modules'], project, 30_000)
  return Math.round(Number.parseInt(du.stdout, 10) / 1024)
}

/** The `-p` packages of every client snippet (in README.md or a docs/ page) that starts `site-skills mcp` with npx. */
function mcpSnippetPackages(): string[][] {
  const docs = [...DOCS.values()].join('\n')
  const shell = [...docs.matchAll(/npx -y((?: -p \S+)+) site-skills mcp/g)].map((m) => m[1]!)
  const json = [...docs.matchAll(/"-y",((?:\s*"-p", "[^"]+",)+)\s*"site-skills", "mcp"/g)].map((m) => m[1]!)
  const shellPackages = shell.map((flags) => [...flags.matchAll(/-p (\S+)/g)].map((m) => m[1]!))
  const jsonPackages = json.map((flags) => [...flags.matchAll(/"-p", "([^"]+)"/g)].map((m) => m[1]!))
  return [...shellPackages, ...jsonPackages]
}

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'site-skills-lean-'))
  const packed = await runAsUser(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', project],
    REPO_ROOT,
    60_000,
  )
  expectSuccess(packed, 'npm pack')
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }]
  await writeFile(join(project, 'package.json'), `${JSON.stringify({ name: 'lean', private: true, type: 'module' })}\n`)
  tarballInstall = await runAsUser('npm', ['i', '--omit=dev', `./${filename}`, ...FLAGS], project, 240_000)
  expectSuccess(tarballInstall, 'npm i --omit=dev <tarball>')
  await cp(join(REPO_ROOT, 'learnings/demo-shop'), join(project, 'learnings/demo-shop'), { recursive: true })
}, 300_000)

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true })
})

describe('a lean install: the packed tarball with --omit=dev into an empty project', () => {
  it(`holds at most ${MOST_PACKAGES} packages, this one included, and none of the heavy ones`, async () => {
    const packages = await productionPackages()
    console.log(`lean install: ${packages.length} packages, ${await sizeMb()} MB of node_modules`)
    expect(packages).toContain(OURS)
    expect(packages.length, packages.join(' ')).toBeLessThanOrEqual(MOST_PACKAGES)
    expect(packages.filter((name) => HEAVY.includes(name))).toEqual([])
  })

  it('runs no install script of this package, so npm 11 has none of ours to warn about (built files ship)', async () => {
    const manifest = JSON.parse(await readFile(join(project, 'node_modules', OURS, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>
    }
    const lifecycle = ['preinstall', 'install', 'postinstall', 'prepare']
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => lifecycle.includes(name))).toEqual([])
    expect(tarballInstall.stderr).not.toMatch(new RegExp(`${OURS}@\\S+ \\(`))
    expect(readFileSync(join(project, 'node_modules', OURS, 'dist/cli.js'), 'utf8')).toContain('runCli')
  })

  it('validate and types run on the lean install', async () => {
    const bin = join(project, 'node_modules/.bin/site-skills')
    const validate = await runAsUser(bin, ['validate'], project, 20_000)
    expectSuccess(validate, 'site-skills validate')
    expect(validate.stdout).toMatch(/0 errors, 0 warnings in 1 skills?\b/)
    expectSuccess(await runAsUser(bin, ['types'], project, 20_000), 'site-skills types')
    expect(readFileSync(join(project, 'site-skills.d.ts'), 'utf8')).toContain('"demo-shop": {')
  })

  it("builds the README's Vite agent with vite installed beside it, and the agent runs", async () => {
    const vite = await runAsUser('npm', ['i', '-D', `vite@${installed('vite')}`, ...FLAGS], project, 240_000)
    expectSuccess(vite, 'npm i -D vite')
    // Getting started's steps: the scaffolded skill, then the agent that serves its page and reads it.
    const [scaffold] = readmeCommands('npx site-skills new my-site --domain localhost')
    const bin = join(project, 'node_modules/.bin/site-skills')
    expectSuccess(await runAsUser(bin, words(scaffold ?? '')[1].slice(1), project, 20_000), scaffold ?? '')
    for (const file of ['vite.config.ts', 'serve.ts', 'agent.ts'])
      await writeFile(join(project, file), readmeFile(file))
    const [build, start] = readmeCommands('vite build --ssr agent.ts')
    const [command, args] = words(build ?? '')
    expectSuccess(await runAsUser(command, args, project, 120_000), build ?? '')
    const agent = await runAsUser('node', ['dist/agent.js'], project, 60_000)
    expectSuccess(agent, start ?? '')
    // The project also holds the demo shop (for the mcp tests below), which matches localhost too.
    expect(agent.stdout).toBe("[ 'demo-shop', 'my-site' ]\n# My Site\n## Getting started\n## Next steps\n")
  })

  it('mcp without the MCP SDK exits 2 with one line naming the npm i -D to run, and starts nothing', async () => {
    const mcp = await runAsUser(join(project, 'node_modules/.bin/site-skills'), ['mcp'], project, 20_000)
    expect(mcp.timedOut).toBe(false)
    expect(mcp.code).toBe(2)
    expect(mcp.stdout).toBe('')
    const lines = mcp.stderr.trim().split('\n')
    expect(lines).toEqual([
      'site-skills: mcp needs @modelcontextprotocol/server, which is not installed: ' +
        'run npm i -D @modelcontextprotocol/server @modelcontextprotocol/node',
    ])
    expect(readmeSays('npm i -D @modelcontextprotocol/server @modelcontextprotocol/node')).toBe(true)
    // Token counts: the tokenizer is a peer of its own, loaded before anything is read.
    const bin = join(project, 'node_modules/.bin/site-skills')
    const tokens = await runAsUser(bin, ['context', 'https://demo-shop.test/', '--tokens'], project, 20_000)
    expect({ code: tokens.code, stdout: tokens.stdout, stderr: tokens.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: 'site-skills: token counts need gpt-tokenizer, which is not installed: run npm i -D gpt-tokenizer\n',
    })
    expect(readmeSays('npm i -D gpt-tokenizer')).toBe(true)
    // The secret scan of `pack`: secretlint and its rules, named together, before anything is read or written.
    const pack = await runAsUser(bin, ['pack', '--out', 'pack-out'], project, 20_000)
    expect({ code: pack.code, stdout: pack.stdout, stderr: pack.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'site-skills: pack needs @secretlint/core, which is not installed: run npm i -D @secretlint/core ' +
        '@secretlint/secretlint-rule-preset-recommend\n',
    })
  })

  it("mcp with the README snippets' packages installed: an SDK client lists and calls the demo shop's tools over stdio", async () => {
    const snippets = mcpSnippetPackages()
    expect(snippets.length).toBeGreaterThanOrEqual(3)
    for (const packages of snippets) expect(packages).toEqual(snippets[0])
    const peers = snippets[0]!.filter((name) => name !== OURS)
    expect(peers).toEqual(expect.arrayContaining(['@modelcontextprotocol/server', '@modelcontextprotocol/node']))
    const specs = peers.map((name) => `${name}@${installed(name)}`)
    expectSuccess(
      await runAsUser('npm', ['i', '-D', ...specs, ...FLAGS], project, 240_000),
      `npm i -D ${specs.join(' ')}`,
    )
    const all = await runAsUser('npm', ['ls', '--all', '--parseable'], project, 60_000)
    const count = all.stdout.split('\n').filter((line) => line.includes('node_modules')).length
    console.log(`with vite and ${peers.join(', ')}: ${count} packages, ${await sizeMb()} MB of node_modules`)

    const bin = join(project, 'node_modules/.bin/site-skills')
    // The HTTP adapter, a peer of its own: without it the command names both to install.
    const adapter = join(project, 'node_modules/@modelcontextprotocol/node')
    await rename(adapter, `${adapter}-away`)
    const withoutAdapter = await runAsUser(bin, ['mcp'], project, 20_000)
    await rename(`${adapter}-away`, adapter)
    expect({ code: withoutAdapter.code, stderr: withoutAdapter.stderr }).toEqual({
      code: 2,
      stderr:
        'site-skills: mcp needs @modelcontextprotocol/node, which is not installed: ' +
        'run npm i -D @modelcontextprotocol/server @modelcontextprotocol/node\n',
    })
    // An older SDK, without ./ext/skills (the Skills extension's constants).
    const sdkManifest = join(project, 'node_modules/@modelcontextprotocol/server/package.json')
    const original = await readFile(sdkManifest, 'utf8')
    const older = JSON.parse(original) as { exports: Record<string, unknown> }
    delete older.exports['./ext/skills']
    await writeFile(sdkManifest, JSON.stringify(older))
    const withOlder = await runAsUser(bin, ['mcp'], project, 20_000)
    await writeFile(sdkManifest, original)
    const range = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest).peerDependencies[
      '@modelcontextprotocol/server'
    ]
    expect({ code: withOlder.code, stderr: withOlder.stderr }).toEqual({
      code: 2,
      stderr: `site-skills: mcp needs a newer @modelcontextprotocol/server than the one installed: run npm i -D @modelcontextprotocol/server@${range}\n`,
    })

    const site = join(REPO_ROOT, 'learnings/demo-shop/site')
    const shop = await startServer({
      '/': readFileSync(join(site, 'index.html'), 'utf8'),
      '/products.json': (_req, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(readFileSync(join(site, 'products.json'))),
    })
    const transport = new StdioClientTransport({
      command: join(project, 'node_modules/.bin/site-skills'),
      args: ['mcp', '--root', join(project, 'learnings')],
      cwd: project,
      stderr: 'pipe',
    })
    const client = new Client({ name: 'lean-test', version: '1.0.0' })
    try {
      await client.connect(transport)
      const before = (await client.listTools()).tools.map((tool) => tool.name)
      expect(before).toContain('site_skills_navigate')
      await client.callTool({ name: 'site_skills_navigate', arguments: { url: shop.url('/') } })
      const tools = (await client.listTools()).tools.map((tool) => tool.name)
      expect(tools).toContain('demo-shop__read_products')
      const read = await client.callTool({ name: 'demo-shop__read_products', arguments: {} })
      expect(read.isError, JSON.stringify(read.content)).toBeFalsy()
      expect(read.structuredContent).toMatchObject({ query: '' })
      const { products } = read.structuredContent as { products: { id: string }[] }
      expect(products.map((product) => product.id)).toContain('field-notebook')
    } finally {
      await client.close()
      await shop.close()
    }
  }, 120_000)
})

import { existsSync, readFileSync } from 'node:fs'
import { lstat, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/tmp'
import { startTsserver } from '../helpers/tsserver'
import { readmeCommands, readmeFile, readmeSays } from './readme'
import { type Exited, runAsUser, words } from '../helpers/spawn'

/** The version of a package in this repository's node_modules: the one npm's cache holds. */
const installed = (name: string): string =>
  (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version
const OURS = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string }

/** A command that should end on its own: fails with its output when it did not succeed. */
function expectSuccess(result: Exited, what: string): void {
  const output = `${what} (exit ${result.code}, ${result.ms} ms${result.timedOut ? ', killed: timed out' : ''})\n`
  expect(result.timedOut, output + result.stdout + result.stderr).toBe(false)
  expect(result.code, output + result.stdout + result.stderr).toBe(0)
}

/** Runs one README command line (`npx vite build --ssr agent.ts`) in the project. */
function runLine(project: string, line: string, timeoutMs: number): Promise<Exited> {
  const [command, args] = words(line)
  return runAsUser(command, args, project, timeoutMs)
}

let project = ''

const TOOLS = ['vite', 'typescript', '@types/node']
const BUNDLERS = ['esbuild', 'rollup', 'rolldown', 'webpack', 'webpack-cli']
/**
 * The Playwright and Puppeteer snippets run as a newcomer's shell has them: no `$CHROME_PATH`
 * (their -core packages bring no browser; the snippet finds the installed one).
 */
const NO_CHROME_PATH = { CHROME_PATH: '' }
/** What agent.ts prints (README step 5): the skill for the page, then the page's headings. */
const AGENT_OUTPUT = "[ 'my-site' ]\n# My Site\n## Getting started\n## Next steps\n"

/** Runs a README line that builds, then `node dist/<name>.js`; returns what the built program printed. */
async function buildAndRun(line: string, name: string, env: Record<string, string> = {}): Promise<string> {
  const [build, start, ...rest] = line.split(' && ')
  expect([start, rest]).toEqual([`node dist/${name}.js`, []])
  await rm(join(project, 'dist'), { recursive: true, force: true })
  expectSuccess(await runLine(project, build ?? '', 180_000), build ?? '')
  const agent = await runAsUser('node', [`dist/${name}.js`], project, 60_000, env)
  expectSuccess(agent, line)
  return agent.stdout
}

beforeAll(async () => {
  // Outside the repository, so nothing resolves to this checkout's node_modules or sources.
  project = await mkdtemp(join(tmpdir(), 'site-skills-newcomer-'))
  const packed = await runAsUser(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', project],
    REPO_ROOT,
    60_000,
  )
  expectSuccess(packed, 'npm pack')
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }]
  await writeFile(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'newcomer', private: true, type: 'module' })}\n`,
  )
  // README: `npm i -D unplugin-site-skills`, then `npm i -D vite typescript @types/node` (and esbuild for its
  // variant). The package comes from the tarball; the tools at the versions npm's cache holds after `npm ci`.
  // The README's other bundlers, for their snippets (the browser libraries are installed by their own test).
  const tools = [...TOOLS, ...BUNDLERS].map((name) => `${name}@${installed(name)}`)
  const flags = ['--prefer-offline', '--no-audit', '--no-fund']
  const install = await runAsUser('npm', ['i', '-D', `./${filename}`, ...tools, ...flags], project, 240_000)
  expectSuccess(install, `npm i -D <tarball> ${tools.join(' ')}`)
  console.log(`newcomer: npm pack ${packed.ms} ms, npm install ${install.ms} ms`)
}, 400_000)

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true })
})

describe('a newcomer following README.md, with the packed tarball installed', () => {
  it('is the README install: the package from the tarball, with its licence, outside the repository', async () => {
    expect(readmeSays('npm i -D unplugin-site-skills')).toBe(true)
    expect(readmeSays('npm i -D vite typescript @types/node')).toBe(true)
    const dir = join(project, 'node_modules', OURS.name)
    expect((await lstat(dir)).isSymbolicLink()).toBe(false)
    expect(await realpath(dir)).toBe(join(await realpath(project), 'node_modules', OURS.name))
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }
    expect(manifest.version).toBe(OURS.version)
    expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toMatch(/^MIT License/)
    expect(existsSync(join(dir, 'README.md'))).toBe(true)
  })

  it('scaffolds a skill with site-skills new and runs its browser tool on its page in headless Chromium', async () => {
    const [scaffold, test, ...rest] = readmeCommands('npx site-skills new my-site --domain localhost')
    expect([scaffold, test, rest]).toEqual([
      'npx site-skills new my-site --domain localhost',
      'npx site-skills test',
      [],
    ])
    expectSuccess(await runLine(project, scaffold ?? '', 30_000), scaffold ?? '')
    const tested = await runLine(project, test ?? '', 60_000)
    expectSuccess(tested, test ?? '')
    expect(readmeSays('`test` prints `✔ my-site › page_headings › home` and `1 passed, 0 failed (1 example)`')).toBe(
      true,
    )
    expect(tested.stdout).toContain('✔ my-site › page_headings › home')
    expect(tested.stdout).toContain('1 passed, 0 failed (1 example)')
    // The manifest's $schema is the installed package's schema, for the editor.
    const manifest = join(project, 'learnings/my-site/manifest.json')
    const schema = (JSON.parse(readFileSync(manifest, 'utf8')) as { $schema: string }).$schema
    expect(await realpath(join(project, 'learnings/my-site', schema))).toBe(
      await realpath(join(project, 'node_modules', OURS.name, 'manifest.schema.json')),
    )
  }, 120_000)

  it('builds agent.ts with the installed Vite (vite build --ssr) and runs it with node', async () => {
    await writeFile(join(project, 'vite.config.ts'), readmeFile('vite.config.ts'))
    await writeFile(join(project, 'serve.ts'), readmeFile('serve.ts'))
    await writeFile(join(project, 'agent.ts'), readmeFile('agent.ts'))
    const [build, start, ...rest] = readmeCommands('vite build --ssr agent.ts')
    expect([build, start, rest]).toEqual(['npx vite build --ssr agent.ts', 'node dist/agent.js', []])
    expectSuccess(await runLine(project, build ?? '', 120_000), build ?? '')
    expect(existsSync(join(project, 'site-skills.d.ts'))).toBe(true)
    const agent = await runLine(project, start ?? '', 60_000)
    expectSuccess(agent, start ?? '')
    expect(agent.stdout).toBe(AGENT_OUTPUT)
  }, 240_000)

  it('type-checks with the README tsconfig.json after site-skills types, and tsc catches a misspelt tool', async () => {
    await writeFile(join(project, 'tsconfig.json'), readmeFile('tsconfig.json'))
    await rm(join(project, 'site-skills.d.ts'), { force: true })
    expect(readmeSays('`npx site-skills types`')).toBe(true)
    expectSuccess(await runAsUser('npx', ['site-skills', 'types'], project, 20_000), 'npx site-skills types')
    expect(readmeSays('Then `npx tsc`')).toBe(true)
    expectSuccess(await runAsUser('npx', ['tsc'], project, 120_000), 'npx tsc')

    const typo = readmeFile('agent.ts').replace("['my-site'].page_headings(", "['my-site'].page_headngs(")
    await writeFile(join(project, 'typo.ts'), typo)
    const failed = await runAsUser('npx', ['tsc'], project, 120_000)
    await rm(join(project, 'typo.ts'))
    expect(failed.timedOut).toBe(false)
    expect(failed.code).not.toBe(0)
    expect(failed.stdout).toMatch(/typo\.ts\(\d+,\d+\): error TS\d+: Property 'page_headngs' does not exist/)
  })

  it("in the editor (the installed tsserver, README tsconfig): runTool('x', '|') completions and hovers carry the manifest's description", async () => {
    // The previous test wrote the README tsconfig.json (with the plugin) and site-skills.d.ts.
    expect(readFileSync(join(project, 'tsconfig.json'), 'utf8')).toContain('"unplugin-site-skills/ts-plugin"')
    const skill = JSON.parse(readFileSync(join(project, 'learnings/my-site/manifest.json'), 'utf8')) as {
      nodeTools: Record<string, { description: string }>
      browserTools: Record<string, { description: string }>
    }
    const file = join(project, 'editor.ts')
    const line = "void runTool('my-site', 'page_headings', {}, 'localhost:9222')"
    await writeFile(file, `import { runTool } from 'virtual:site-skills'\n${line}\n`)
    const log = join(project, 'tsserver.log')
    const server = startTsserver(join(project, 'node_modules/typescript/lib/tsserver.js'), project, log)
    try {
      server.open(file, project)
      const offset = line.indexOf("'page_headings'") + 2
      type Parts = { text: string }[]
      const text = (parts: Parts | undefined) => (parts ?? []).map((p) => p.text).join('')
      const entries = await server.request<{ entries: { name: string }[] }>('completionInfo', { file, line: 2, offset })
      const tools = [...Object.keys(skill.nodeTools), ...Object.keys(skill.browserTools)]
      expect(entries.entries.map((e) => e.name).sort()).toEqual(tools.sort())
      const [details] = await server.request<{ documentation: Parts }[]>('completionEntryDetails', {
        file,
        line: 2,
        offset,
        entryNames: ['page_headings'],
      })
      expect(text(details?.documentation)).toContain(skill.browserTools.page_headings!.description)
      const hover = await server.request<{ documentation: string; displayString: string }>('quickinfo', {
        file,
        line: 2,
        offset: offset + 3,
      })
      expect(hover.documentation).toContain(skill.browserTools.page_headings!.description)
      expect(hover.displayString).toMatch(/^\(tool\) "page_headings": /)
    } finally {
      expect(await server.close()).toBe(0)
    }
    // tsserver loaded the plugin from the installed package, not from anywhere else.
    expect(readFileSync(log, 'utf8')).toContain('Loading unplugin-site-skills/ts-plugin from')
    await rm(file)
  }, 120_000)

  it('runs the README dev.mjs: ssrLoadModule through the plugin, then the process ends', async () => {
    await writeFile(join(project, 'dev.mjs'), readmeFile('dev.mjs'))
    expect(readmeSays('`node dev.mjs`')).toBe(true)
    const dev = await runAsUser('node', ['dev.mjs'], project, 60_000)
    expectSuccess(dev, 'node dev.mjs')
    expect(dev.stdout).toBe("[ 'my-site' ]\n[ [ 'page_headings' ] ]\n")
  })

  it.each([
    ['esbuild', 'build.mjs', 'node build.mjs && node dist/agent.js'],
    ['Rollup', 'rollup.config.js', 'npx rollup -c && node dist/agent.js'],
    ['Rolldown', 'rolldown.config.js', 'npx rolldown -c rolldown.config.js && node dist/agent.js'],
    ['webpack', 'webpack.config.js', 'npx webpack && node dist/agent.js'],
  ])(
    'builds the same agent with the README %s config (%s) and runs it',
    async (_, file, line) => {
      await writeFile(join(project, file), readmeFile(file))
      expect(readmeSays(`\`${line}\``)).toBe(true)
      expect(await buildAndRun(line, 'agent')).toBe(AGENT_OUTPUT)
      await rm(join(project, file))
    },
    240_000,
  )

  it('runs the README models.ts: learned context, tool definitions, and a model call run by name', async () => {
    await writeFile(join(project, 'models.ts'), readmeFile('models.ts'))
    const line = 'npx vite build --ssr models.ts && node dist/models.js'
    expect(readmeSays(`\`${line}\``)).toBe(true)
    expect(await buildAndRun(line, 'models')).toBe(
      "My Site [ 'overview.md' ]\n[ 'my-site__page_headings' ]\n[ { level: 1, text: 'My Site' } ]\n",
    )
  }, 240_000)

  it.each([
    ['Playwright', 'playwright-agent', 'playwright-core'],
    ['Puppeteer', 'puppeteer-agent', 'puppeteer-core'],
  ])(
    'installs what the README %s snippet says, runs it without $CHROME_PATH: a browser tool over its CDP session',
    async (_, name, library) => {
      // `npm i -D <library>` as the README says, at the version npm's cache holds.
      expect(readmeSays(`\`npm i -D ${library}\``)).toBe(true)
      const flags = ['--prefer-offline', '--no-audit', '--no-fund']
      const install = await runAsUser(
        'npm',
        ['i', '-D', `${library}@${installed(library)}`, ...flags],
        project,
        240_000,
      )
      expectSuccess(install, `npm i -D ${library}`)
      await writeFile(join(project, `${name}.ts`), readmeFile(`${name}.ts`))
      const line = `npx vite build --ssr ${name}.ts && node dist/${name}.js`
      expect(readmeSays(`\`${line}\``)).toBe(true)
      expect(await buildAndRun(line, name, NO_CHROME_PATH)).toBe("[ { level: 1, text: 'My Site' } ]\n")
    },
    400_000,
  )

  it('type-checks every README TypeScript file written so far with npx tsc', async () => {
    expectSuccess(await runAsUser('npx', ['tsc'], project, 180_000), 'npx tsc')
  }, 200_000)

  it('runs the README nobuild.mjs on the same skills, without a build', async () => {
    await writeFile(join(project, 'nobuild.mjs'), readmeFile('nobuild.mjs'))
    expect(readmeSays('`node nobuild.mjs`')).toBe(true)
    const script = await runAsUser('node', ['nobuild.mjs'], project, 60_000)
    expectSuccess(script, 'node nobuild.mjs')
    expect(script.stdout.startsWith('[]\nmy-site [')).toBe(true)
    expect(script.stdout).toContain(`'await runBrowserSiteTool("my-site", "page_headings", { ... }, target)'`)
    expect(script.stdout.endsWith(']\ntrue\n')).toBe(true)
  })

  it('installed site-skills binary: validate exits 0, and 1 on a broken manifest, each within seconds', async () => {
    const bin = join(project, 'node_modules/.bin/site-skills')
    const clean = await runAsUser(bin, ['validate'], project, 10_000)
    expectSuccess(clean, 'site-skills validate')
    expect(clean.ms).toBeLessThan(5_000)
    expect(clean.stdout).toMatch(/0 errors, 0 warnings in 1 skills?\b/)

    const manifest = join(project, 'learnings/my-site/manifest.json')
    const original = readFileSync(manifest, 'utf8')
    await writeFile(manifest, original.replace('"domains"', '"domains": ["*.com"], "domainz"'))
    const broken = await runAsUser(bin, ['validate'], project, 10_000)
    await writeFile(manifest, original)
    expect(broken.timedOut).toBe(false)
    expect(broken.code).toBe(1)
    expect(broken.ms).toBeLessThan(5_000)
    expect(broken.stdout + broken.stderr).toContain('learnings/my-site/manifest.json:')
  })

  it('installed site-skills binary: --version prints the package version and exits 0 within seconds', async () => {
    const version = await runAsUser(join(project, 'node_modules/.bin/site-skills'), ['--version'], project, 10_000)
    expectSuccess(version, 'site-skills --version')
    expect(version.ms).toBeLessThan(5_000)
    expect(version.stdout.trim()).toContain(OURS.version)
  })
})

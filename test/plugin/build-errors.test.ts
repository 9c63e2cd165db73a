import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BROKEN_DIAGNOSTICS, diagnosticSections, writeBrokenProject } from '../helpers/broken'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('build-errors-')
  await writeBrokenProject(tmp.dir)
  await writeTree(tmp.dir, SCRIPTS)
})
afterAll(() => tmp.cleanup())

const config = (bundler: string) =>
  `import siteSkills from 'unplugin-site-skills/${bundler}'\n` +
  `export default { input: 'main.js', output: { dir: 'out-${bundler}' }, plugins: [siteSkills()] }\n`

/** How users build: the bundlers' CLIs; esbuild and webpack (no CLI installed here) by their API in a script. */
const SCRIPTS = {
  'vite.config.js': "import siteSkills from 'unplugin-site-skills/vite'\nexport default { plugins: [siteSkills()] }\n",
  'rollup.config.mjs': config('rollup'),
  'rolldown.config.mjs': config('rolldown'),
  'esbuild.mjs': [
    "import { build } from 'esbuild'",
    "import siteSkills from 'unplugin-site-skills/esbuild'",
    "const options = { entryPoints: ['main.js'], bundle: true, outdir: 'out-esbuild', plugins: [siteSkills()] }",
    'await build(options).catch(() => process.exit(1))',
  ].join('\n'),
  // As webpack-cli does: a fatal error is printed with util.inspect, a failed compilation with its stats.
  'webpack.mjs': [
    "import webpack from 'webpack'",
    "import siteSkills from 'unplugin-site-skills/webpack'",
    "const config = { mode: 'none', context: process.cwd(), entry: './main.js', plugins: [siteSkills()] }",
    'webpack(config, (error, stats) => {',
    '  if (error) { console.error(error); process.exit(2) }',
    '  console.error(stats.toString()); process.exit(stats.hasErrors() ? 1 : 0)',
    '})',
  ].join('\n'),
}

const bin = (path: string) => join(REPO_ROOT, 'node_modules', path)
const COMMANDS = {
  vite: [bin('vite/bin/vite.js'), 'build'],
  rollup: [bin('rollup/dist/bin/rollup'), '-c'],
  rolldown: [bin('rolldown/bin/cli.mjs'), '-c', 'rolldown.config.mjs'],
  esbuild: ['esbuild.mjs'],
  webpack: ['webpack.mjs'],
} as const

interface Run {
  code: number | null
  output: string
  ms: number
}

/** Runs a bundler in the project; its stdout and stderr together, without colours. */
function run(args: readonly string[]): Promise<Run> {
  const start = Date.now()
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }
  const child = spawn(process.execPath, args, { cwd: tmp.dir, env })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output: stripVTControlCharacters(output), ms: Date.now() - start })
    })
  })
}

/** `at` lines of the package's own files (a stack of the plugin's internals). */
const OWN_STACK = new RegExp(`^\\s+at .*${join(REPO_ROOT, 'dist').replace(/[/\\]/g, '.')}`, 'm')

describe.each(['vite', 'rollup', 'rolldown', 'webpack'] as const)('%s prints a failed build', (bundler) => {
  let result: Run
  beforeAll(async () => {
    result = await run(COMMANDS[bundler])
  })

  it('exits non-zero, on its own', () => {
    expect(result.code, result.output).not.toBe(0)
    expect(result.code).not.toBeNull()
  })

  it('prints every diagnostic with its own frame and hint', () => {
    const sections = diagnosticSections(
      result.output,
      BROKEN_DIAGNOSTICS.map((d) => d.head),
    )
    BROKEN_DIAGNOSTICS.forEach((d, i) => {
      for (const line of [...d.frame, d.hint]) expect(sections[i]).toContain(line)
      // No other diagnostic's frame in this one's section.
      for (const other of BROKEN_DIAGNOSTICS.filter((o) => o !== d)) expect(sections[i]).not.toContain(other.frame[0])
    })
  })

  it('prints no stack of the plugin and no [Getter/Setter]', () => {
    expect(result.output).not.toMatch(OWN_STACK)
    expect(result.output).not.toContain('[Getter/Setter]')
    expect(result.output).not.toContain('diagnostics: [')
  })
})

describe('vite build', () => {
  it("prints the first error's location in its header with the diagnostic's column, and no stack", async () => {
    const { code, output } = await run(COMMANDS.vite)
    expect(code).toBe(1)
    const [first] = BROKEN_DIAGNOSTICS
    const header = `[plugin unplugin-site-skills] ${join(tmp.dir, first.file)}:${first.line}:${first.column}\n`
    expect(output).toContain(header)
    expect(output).not.toMatch(/^\s+at /m)
  })
})

describe('rollup', () => {
  it("prints the first error's location with the diagnostic's own column", async () => {
    const { output } = await run(COMMANDS.rollup)
    const [first] = BROKEN_DIAGNOSTICS
    expect(output).toContain(`${first.file} (${first.line}:${first.column})`)
  })
})

describe('esbuild', () => {
  it('prints each diagnostic as a message of its own, with its frame and hint, and exits non-zero', async () => {
    const { code, output } = await run(COMMANDS.esbuild)
    expect(code).toBe(1)
    // esbuild prints its own 0-based columns, after the message and before the frame.
    const texts = BROKEN_DIAGNOSTICS.map((d) => d.head.slice(d.head.indexOf(' error ') + ' error '.length))
    const sections = diagnosticSections(output, texts)
    BROKEN_DIAGNOSTICS.forEach((d, i) => {
      expect(sections[i]).toContain(`${d.file}:${d.line}:${d.column - 1}:`)
      expect(sections[i]).toContain(d.frame[0].slice(2).replace(' | ', ' │ '))
      expect(sections[i]).toContain(d.hint)
    })
    expect(output).toContain('virtual:site-skills is unavailable until the learnings are fixed')
    expect(output).not.toMatch(/^\s+at /m)
  })
})

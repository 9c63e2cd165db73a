import { join, relative } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { build as esbuild } from 'esbuild'
import { rolldown } from 'rolldown'
import { type RollupLog, rollup } from 'rollup'
import { type Logger, type ViteDevServer, build as vite, createLogger, createServer } from 'vite'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import webpack, { type Stats } from 'webpack'
import { esbuildPlugin, rolldownPlugin, rollupPlugin, vitePlugin, webpackConfig } from '../helpers/bundlers'
import { makeTempDir, writeTree } from '../helpers/tmp'

/** Two skills on one domain: valid, with one warning (`domain-shadowed`) on the second. */
const SHADOWED = {
  'learnings/alpha/manifest.json': '{"id":"alpha","name":"Alpha","domains":["shared.example.com"]}\n',
  'learnings/beta/manifest.json': '{"id":"beta","name":"Beta","domains":["shared.example.com"]}\n',
  'main.js': "import { skills } from 'virtual:site-skills'\nexport const main = () => skills.length\n",
}
/** The warning as every bundler's channel carries it: the prefix, where, the code and the message. */
const WARNING =
  '[site-skills] learnings/beta/manifest.json:1:39  warning domain-shadowed  ' +
  'domain "shared.example.com" is also claimed by skill "alpha"'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let app: string
beforeAll(async () => {
  tmp = await makeTempDir('warnings-')
  app = tmp.dir
  await writeTree(app, SHADOWED)
})
afterAll(() => tmp.cleanup())

/** What reached the process's own output while a build ran (the plugin must print nothing itself). */
let printed: string[]
beforeEach(() => {
  printed = []
  const keep = (...args: unknown[]) => void printed.push(args.map(String).join(' '))
  vi.spyOn(console, 'warn').mockImplementation(keep)
  vi.spyOn(console, 'log').mockImplementation(keep)
  vi.spyOn(console, 'error').mockImplementation(keep)
  const write = (chunk: unknown) => {
    printed.push(String(chunk))
    return true
  }
  vi.spyOn(process.stderr, 'write').mockImplementation(write)
  vi.spyOn(process.stdout, 'write').mockImplementation(write)
})
afterEach(() => vi.restoreAllMocks())

const ours = (lines: readonly string[]) =>
  lines.map((line) => stripVTControlCharacters(line)).filter((line) => line.includes('[site-skills]'))
const options = { dts: false } as const
const outDir = (name: string) => join(app, `out-${name}`)

/** A Vite logger that keeps what it is told to warn. */
function keepingLogger(warned: string[]): Logger {
  const logger = createLogger('silent')
  return { ...logger, warn: (message) => void warned.push(message), warnOnce: (m) => void warned.push(m) }
}

describe('warnings of the learnings go through each bundler’s own channel, once, never console.warn', () => {
  it("Vite with logLevel 'silent' prints nothing", async () => {
    const build = { outDir: outDir('vite-silent'), ssr: join(app, 'main.js') }
    await vite({ root: app, configFile: false, logLevel: 'silent', plugins: [vitePlugin(options)], build })
    expect(ours(printed)).toEqual([])
  })

  it('a Vite customLogger receives it', async () => {
    const warned: string[] = []
    const build = { outDir: outDir('vite-logger'), ssr: join(app, 'main.js') }
    const customLogger = keepingLogger(warned)
    await vite({ root: app, configFile: false, customLogger, plugins: [vitePlugin(options)], build })
    expect(ours(warned)).toEqual([`[plugin unplugin-site-skills] ${WARNING}`])
    expect(ours(printed)).toEqual([])
  })

  /** A Rollup-shaped build's warnings, as `onwarn` and as `onLog` saw them. */
  async function rollupLike(name: 'rollup' | 'rolldown'): Promise<RollupLog[][]> {
    const warned: RollupLog[] = []
    const logged: RollupLog[] = []
    const input = join(app, 'main.js')
    const roots = join(app, 'learnings')
    const onwarn = (log: RollupLog) => void warned.push(log)
    const onLog = (level: string, log: RollupLog, next: (level: 'warn', log: RollupLog) => void) => {
      if (level === 'warn') logged.push(log)
      next('warn', log)
    }
    // Rolldown runs the build when asked for its output.
    const bundle =
      name === 'rollup'
        ? await rollup({ input, plugins: [rollupPlugin({ ...options, roots })], onwarn, onLog })
        : await rolldown({ input, plugins: [rolldownPlugin({ ...options, roots })], onwarn, onLog })
    await bundle.generate({ format: 'esm' })
    await bundle.close()
    return [warned, logged]
  }

  it.each(['rollup', 'rolldown'] as const)('%s onwarn and onLog receive it, from the plugin', async (name) => {
    const seen = await rollupLike(name)
    // No root of their own: files are shown relative to the working directory, as Rollup shows them.
    const warning = WARNING.replace('learnings/', `${relative(process.cwd(), app)}/learnings/`)
    for (const logs of seen) {
      const messages = logs.map((log) => log.message).filter((message) => message.includes('[site-skills]'))
      // Rollup puts `[plugin unplugin-site-skills] ` before it; Rolldown does not.
      expect(messages).toHaveLength(1)
      expect(messages[0]!.endsWith(warning), messages[0]).toBe(true)
      expect(logs.find((log) => log.message.includes('[site-skills]'))?.plugin).toBe('unplugin-site-skills')
    }
    expect(ours(printed)).toEqual([])
  })

  it("esbuild's result.warnings has it, with its location, frame and hint", async () => {
    const result = await esbuild({
      entryPoints: [join(app, 'main.js')],
      absWorkingDir: app,
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      logLevel: 'silent',
      plugins: [esbuildPlugin(options)],
    })
    const text = WARNING.replace(' learnings/beta/manifest.json:1:39  warning', '')
    expect(result.warnings.filter((w) => w.text.includes('[site-skills]'))).toMatchObject([
      {
        text,
        pluginName: 'unplugin-site-skills',
        location: { file: 'learnings/beta/manifest.json', line: 1, column: 38 },
        notes: [{ text: 'hint: Another skill claims the same pattern; both will match.' }],
      },
    ])
    expect(ours(printed)).toEqual([])
  })

  it("webpack's stats warnings have it", async () => {
    const compiler = webpack(webpackConfig(join(app, 'main.js'), outDir('webpack'), options, false, app))
    const stats = await new Promise<Stats>((resolve, reject) =>
      compiler.run((error, result) => compiler.close(() => (error || !result ? reject(error) : resolve(result)))),
    )
    expect(stats.hasErrors()).toBe(false)
    expect(stats.compilation.warnings.map((w) => w.message)).toEqual([WARNING])
    expect(stats.toString()).toContain(WARNING)
    expect(ours(printed)).toEqual([])
  })
})

describe("Vite's dev server", () => {
  let server: ViteDevServer | undefined
  afterAll(() => server?.close())

  it('warns through its logger at start, and of a warning a change brings, once', async () => {
    const warned: string[] = []
    server = await createServer({
      root: app,
      configFile: false,
      customLogger: keepingLogger(warned),
      plugins: [vitePlugin(options)],
      server: { port: 0, host: '127.0.0.1', hmr: false },
    })
    await server.listen()
    await server.ssrLoadModule('virtual:site-skills')
    await expect.poll(() => ours(warned)).toHaveLength(1)
    expect(ours(warned)[0]).toContain(WARNING)
    const gamma = '{"id":"gamma","name":"Gamma","domains":["shared.example.com"]}\n'
    await writeTree(app, { 'learnings/gamma/manifest.json': gamma })
    await expect.poll(() => ours(warned), { timeout: 10_000 }).toHaveLength(2)
    expect(ours(warned)[1]).toBe(
      '[site-skills] learnings/gamma/manifest.json:1:41  warning domain-shadowed  ' +
        'domain "shared.example.com" is also claimed by skill "alpha"',
    )
    expect(ours(printed)).toEqual([])
  })
})

import { execFile } from 'node:child_process'
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { build as esbuild } from 'esbuild'
import { rolldown } from 'rolldown'
import { rollup } from 'rollup'
import { build as vite } from 'vite'
import webpack, { type Configuration } from 'webpack'
import type { Options } from '../../src/plugin/options'
import { REPO_ROOT } from './tmp'

/** A plugin factory from `dist/` (what users import), typed from its source so tsc needs no build. */
const fromDist = async <T>(name: string): Promise<T> =>
  (await import(pathToFileURL(join(REPO_ROOT, 'dist', `${name}.js`)).href)).default

export const vitePlugin = await fromDist<typeof import('../../src/vite').default>('vite')
export const rollupPlugin = await fromDist<typeof import('../../src/rollup').default>('rollup')
export const rolldownPlugin = await fromDist<typeof import('../../src/rolldown').default>('rolldown')
export const esbuildPlugin = await fromDist<typeof import('../../src/esbuild').default>('esbuild')
const webpackPlugin = await fromDist<typeof import('../../src/webpack').default>('webpack')

export const APP = join(REPO_ROOT, 'test/fixtures/app')
/** Exercises the whole API under Node. */
export const APP_ENTRY = join(APP, 'entry.js')
/** What a browser bundle may call. */
export const BROWSER_ENTRY = join(APP, 'browser.js')

export const BUNDLERS = ['vite', 'rollup', 'rolldown', 'esbuild', 'webpack'] as const
export type BundlerName = (typeof BUNDLERS)[number]

export interface BuildCase {
  outDir: string
  /**
   * Plugin options. Without `roots`, Vite, esbuild and webpack resolve the default `learnings`
   * against their own root (the app); Rollup and Rolldown get the app's folder here.
   */
  options?: Options
  entry?: string
  /** The app's folder (Vite's root, esbuild's working directory, webpack's context): default the fixture's. */
  app?: string
  /** Vite client (lib) build, esbuild `platform: 'browser'`, webpack `target: 'web'`; Rollup has no such notion. */
  browser?: boolean
}

/** Builds `entry` (default: the app's) into `outDir`; resolves with the output entry, rejects as the bundler does. */
export async function buildApp(bundler: BundlerName, input: BuildCase): Promise<string> {
  const entry = input.entry ?? APP_ENTRY
  await BUILDERS[bundler]({ ...input, entry })
  return join(input.outDir, `${entryName(entry, input.app)}.js`)
}

type Builder = (input: BuildCase & { entry: string }) => Promise<void>

/** `roots` for bundlers without a root of their own (Rollup, Rolldown use the working directory). */
const absoluteRoots = (options: Options = {}): Options => ({ roots: join(APP, 'learnings'), ...options })

const entryName = (entry: string, app = APP) => relative(app, entry).replace(/\.js$/, '')

const BUILDERS: Record<BundlerName, Builder> = {
  async vite({ entry, outDir, options, browser, app = APP }) {
    await vite({
      root: app,
      configFile: false,
      logLevel: 'silent',
      plugins: [vitePlugin(options)],
      build: {
        outDir,
        emptyOutDir: false,
        minify: false,
        ...(browser ? { lib: { entry, formats: ['es'], fileName: entryName(entry, app) } } : { ssr: entry }),
      },
    })
  },
  async rollup({ entry, outDir, options }) {
    const bundle = await rollup({ input: entry, plugins: [rollupPlugin(absoluteRoots(options))], logLevel: 'silent' })
    await bundle.write({ dir: outDir, format: 'esm' })
    await bundle.close()
  },
  async rolldown({ entry, outDir, options, browser }) {
    const bundle = await rolldown({
      input: entry,
      platform: browser ? 'browser' : 'node',
      plugins: [rolldownPlugin(absoluteRoots(options))],
      logLevel: 'silent',
    })
    await bundle.write({ dir: outDir, format: 'esm' })
    await bundle.close()
  },
  async esbuild({ entry, outDir, options, browser, app = APP }) {
    await esbuild({
      entryPoints: [entry],
      absWorkingDir: app,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: browser ? 'browser' : 'node',
      outdir: outDir,
      logLevel: 'silent',
      plugins: [esbuildPlugin(options)],
    })
  },
  webpack: ({ entry, outDir, options, browser, app }) =>
    runWebpack(webpackConfig(entry, outDir, options, browser, app)),
}

/** webpack's configuration for building `entry` of the app in `app` (default: the fixture's). */
export function webpackConfig(
  entry: string,
  outDir: string,
  options: Options | undefined,
  browser: boolean | undefined,
  app = APP,
): Configuration {
  return {
    mode: 'none',
    context: app,
    entry: { [entryName(entry, app)]: entry },
    target: browser ? 'web' : 'node',
    devtool: false,
    output: {
      path: outDir,
      filename: '[name].js',
      chunkFilename: '[name].[contenthash:8].js',
      module: true,
      chunkFormat: 'module',
      chunkLoading: 'import',
      library: { type: 'module' },
    },
    experiments: { outputModule: true },
    plugins: [webpackPlugin(options)],
  }
}

/** Runs webpack; a build with errors in its stats rejects, as the webpack CLI exits non-zero. */
function runWebpack(config: Configuration): Promise<void> {
  return new Promise((resolve, reject) => {
    const compiler = webpack(config)
    compiler.run((error, stats) => {
      compiler.close(() => {
        if (error) reject(error)
        else if (stats?.hasErrors()) reject(new WebpackErrors(stats.compilation.errors))
        else resolve()
      })
    })
  })
}

/** A failed webpack build: the compilation's errors, their messages joined. */
class WebpackErrors extends Error {
  constructor(readonly errors: readonly Error[]) {
    super(errors.map((e) => e.message).join('\n'))
  }
}

const exec = promisify(execFile)
const RUN_MAIN =
  'const m = await import(process.argv[1]); process.stdout.write(JSON.stringify(await m[process.argv[2]]()))'

/** Imports a built entry in a fresh Node process and returns what its `main()` (or another export) resolves to. */
export async function runMain(file: string, name = 'main'): Promise<unknown> {
  const { stdout } = await exec(
    process.execPath,
    ['--input-type=module', '-e', RUN_MAIN, pathToFileURL(file).href, name],
    { cwd: APP },
  )
  return JSON.parse(stdout)
}

/** Every file of an output folder (relative posix path -> text), sorted by path. */
export async function readOutput(dir: string): Promise<Record<string, string>> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
  const entries = await Promise.all(
    files.map(
      async (f) =>
        [
          relative(dir, join(f.parentPath, f.name)).split('\\').join('/'),
          await readFile(join(f.parentPath, f.name), 'utf8'),
        ] as const,
    ),
  )
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1)))
}

import { join } from 'node:path'
import { type BuildResult, type Plugin as EsbuildPlugin, context as esbuildContext } from 'esbuild'
import { type RolldownWatcher, watch as rolldownWatch } from 'rolldown'
import { type RollupWatcher, watch as rollupWatch } from 'rollup'
import { build as vite } from 'vite'
import webpack, { type Stats } from 'webpack'
import { type BundlerName, esbuildPlugin, rolldownPlugin, rollupPlugin, vitePlugin, webpackConfig } from './bundlers'

/** The outcome of one build of a watcher: its errors' messages when it failed. */
export interface BuildEvent {
  ok: boolean
  message: string
}

export interface WatchSession {
  /** The output entry, rewritten by every successful build. */
  entry: string
  /** The next build the watcher finishes (builds are queued: none is missed); rejects after `timeoutMs`. */
  next: (timeoutMs: number) => Promise<BuildEvent>
  close: () => Promise<void>
}

type Report = (event: BuildEvent) => void
interface WatchCase {
  /** The app's folder, holding `entry.js` and `learnings/`. */
  app: string
  outDir: string
  report: Report
}
type Close = () => Promise<void>

/** Starts a watch build of `app/entry.js` for Node into `outDir` (the plugin writes no d.ts). */
export async function watchApp(bundler: BundlerName, app: string, outDir: string): Promise<WatchSession> {
  const queue = createQueue<BuildEvent>()
  const close = await WATCHERS[bundler]({ app, outDir, report: queue.push })
  return { entry: join(outDir, 'entry.js'), next: queue.next, close }
}

/** Items wait for a taker; a taker waits for an item, or for `timeoutMs`. */
function createQueue<T>(): { push: (item: T) => void; next: (timeoutMs: number) => Promise<T> } {
  const items: T[] = []
  const waiters: ((item: T) => void)[] = []
  return {
    push: (item) => (waiters.length > 0 ? waiters.shift()!(item) : items.push(item)),
    next: (timeoutMs) => {
      if (items.length > 0) return Promise.resolve(items.shift()!)
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1)
          reject(new Error(`no build within ${timeoutMs} ms`))
        }, timeoutMs)
        const waiter = (item: T) => {
          clearTimeout(timer)
          resolve(item)
        }
        waiters.push(waiter)
      })
    },
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Rollup-style events: a build ends with `END`, after an `ERROR` if it failed. Vite closes its results itself. */
function reportRollupEvents(watcher: RollupWatcher | RolldownWatcher, report: Report, closeResults: boolean): void {
  let failure: string | undefined
  watcher.on('event', (event) => {
    if (closeResults && 'result' in event && event.result) void event.result.close()
    if (event.code === 'ERROR') failure = messageOf(event.error)
    if (event.code !== 'END') return
    report({ ok: failure === undefined, message: failure ?? '' })
    failure = undefined
  })
}

function reportEsbuildResults(report: Report): EsbuildPlugin {
  // The plugin gives esbuild each diagnostic with its location (0-based column): written as others report it.
  const text = ({ text, location }: BuildResult['errors'][number]) =>
    location ? `${location.file}:${location.line}:${location.column + 1}  error ${text}` : text
  const message = (result: BuildResult) => result.errors.map(text).join('\n')
  return {
    name: 'report',
    setup: (build) => build.onEnd((result) => report({ ok: result.errors.length === 0, message: message(result) })),
  }
}

function reportWebpackStats(report: Report) {
  return (error: Error | null, stats?: Stats) => {
    const errors = error ? [error] : (stats?.compilation.errors ?? [])
    report({ ok: errors.length === 0, message: errors.map(messageOf).join('\n') })
  }
}

const WATCHERS: Record<BundlerName, (input: WatchCase) => Promise<Close>> = {
  async vite({ app, outDir, report }) {
    const watcher = (await vite({
      root: app,
      configFile: false,
      logLevel: 'silent',
      plugins: [vitePlugin({ dts: false })],
      build: { outDir, emptyOutDir: false, minify: false, ssr: join(app, 'entry.js'), watch: {} },
    })) as RolldownWatcher
    reportRollupEvents(watcher, report, false)
    return () => watcher.close()
  },
  async rollup({ app, outDir, report }) {
    const plugins = [rollupPlugin({ roots: join(app, 'learnings'), dts: false })]
    const watcher = rollupWatch({
      input: join(app, 'entry.js'),
      plugins,
      output: { dir: outDir, format: 'esm' },
      logLevel: 'silent',
      watch: { clearScreen: false },
    })
    reportRollupEvents(watcher, report, true)
    return () => watcher.close()
  },
  async rolldown({ app, outDir, report }) {
    const plugins = [rolldownPlugin({ roots: join(app, 'learnings'), dts: false })]
    const watcher = rolldownWatch({
      input: join(app, 'entry.js'),
      platform: 'node',
      plugins,
      output: { dir: outDir, format: 'esm' },
      logLevel: 'silent',
    })
    reportRollupEvents(watcher, report, true)
    return () => watcher.close()
  },
  async esbuild({ app, outDir, report }) {
    const ctx = await esbuildContext({
      entryPoints: [join(app, 'entry.js')],
      absWorkingDir: app,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      outdir: outDir,
      logLevel: 'silent',
      plugins: [esbuildPlugin({ dts: false }), reportEsbuildResults(report)],
    })
    await ctx.watch()
    return () => ctx.dispose()
  },
  async webpack({ app, outDir, report }) {
    const compiler = webpack(webpackConfig(join(app, 'entry.js'), outDir, { dts: false }, false, app))
    const watching = compiler.watch({ aggregateTimeout: 20 }, reportWebpackStats(report))
    if (!watching) throw new Error('webpack did not start watching')
    return () => new Promise<void>((resolve, reject) => watching.close((error) => (error ? reject(error) : resolve())))
  },
}

import { isAbsolute } from 'node:path'
import { transform } from 'esbuild'
import type { OnStartResult, PluginBuild } from 'esbuild'
import { type UnpluginBuildContext, type UnpluginContextMeta, type UnpluginFactory, createUnplugin } from 'unplugin'
import type { Compilation, Compiler } from 'webpack'
import {
  CHUNK_ID_RE,
  GENERATED_ID_RE,
  MAIN_ID_RE,
  PLUGIN_NAME,
  RESOLVED_ID,
  RUNTIME_ID,
  RUNTIME_ID_RE,
  VIRTUAL_ID_RE,
} from '../ids'
import { TS_FILE_RE } from '../compiler/paths'
import { type SiteSkillsContext, UNAVAILABLE, createSiteSkillsContext } from './context'
import { attachDevServer } from './dev-server'
import type { Options } from './options'
import { tidyViteBuildErrors } from './vite-build'
import { isBuildError, toEsbuildMessages, watchableFiles } from './bundlers/esbuild'

/** Compiles TypeScript skill files for bundlers that cannot (Rollup, webpack). */
async function compileTypeScript(code: string, id: string) {
  const out = await transform(code, { loader: 'ts', format: 'esm', target: 'es2022', sourcemap: true, sourcefile: id })
  return { code: out.code, map: out.map }
}

/** Vite runs one plugin for several environments: a client one never gets Node tools. Unknown elsewhere. */
function isClientEnvironment(context: object): boolean | undefined {
  const consumer = (context as { environment?: { config?: { consumer?: string } } }).environment?.config?.consumer
  return consumer === undefined ? undefined : consumer === 'client'
}

/**
 * unplugin's esbuild adapter puts every id `resolveId` returns in the plugin's namespace, where
 * nothing loads real files: the runtime and the Node tools that generated modules import are
 * resolved here to plain files instead. The main module is resolved here too, with what esbuild
 * must watch: its resolution (unlike its load) succeeds with invalid learnings, so a fix is noticed.
 */
function resolveFilesForEsbuild(build: PluginBuild, ctx: SiteSkillsContext): void {
  build.onResolve({ filter: MAIN_ID_RE }, () => ({
    path: RESOLVED_ID,
    namespace: PLUGIN_NAME,
    watchDirs: ctx.watchDirs(),
    watchFiles: watchableFiles(ctx.watchFiles()),
  }))
  build.onResolve({ filter: RUNTIME_ID_RE }, () => ({ path: ctx.resolveId(RUNTIME_ID)! }))
  build.onResolve({ filter: /.*/, namespace: PLUGIN_NAME }, (args) =>
    isAbsolute(args.path) ? { path: args.path } : undefined,
  )
  // After `startEsbuild` reported the errors, a generated module fails with a short message and no
  // callback's stack (this runs before unplugin's own `onLoad`).
  build.onLoad({ filter: /.*/, namespace: PLUGIN_NAME }, (args) =>
    ctx.failed && ctx.isGenerated(args.path) ? { errors: [{ text: UNAVAILABLE }] } : undefined,
  )
}

/** esbuild's start: compiles, and reports each diagnostic as an esbuild message of its own. */
async function startEsbuild(ctx: SiteSkillsContext, build: PluginBuild): Promise<OnStartResult | undefined> {
  try {
    await ctx.build()
    return undefined
  } catch (error) {
    if (!isBuildError(error)) throw error
    return { errors: toEsbuildMessages(error, build.initialOptions.absWorkingDir ?? process.cwd()) }
  }
}

/** webpack's compilation, in hooks that run in one (`buildStart`). */
function getWebpackCompilation(context: UnpluginBuildContext): Compilation | undefined {
  const native = context.getNativeBuildContext?.()
  return native?.framework === 'webpack' ? native.compilation : undefined
}

/** Rollup, Rolldown and Vite say whether they watch (`this.meta.watchMode`); webpack and esbuild do not. */
function isOneOffBuild(context: UnpluginBuildContext): boolean {
  return (context as { meta?: { watchMode?: boolean } }).meta?.watchMode === false
}

/**
 * Tells the bundler what the skills depend on (also after a failed compile, so a fix is noticed);
 * a build that will not watch is not told (thousands of files at 1,000 skills, for nothing).
 * webpack watches folders only as context dependencies (unplugin makes every watch file a file
 * dependency); esbuild's adapter forbids this here (see `resolveFilesForEsbuild`).
 */
function addWatchFiles(
  context: UnpluginBuildContext,
  ctx: SiteSkillsContext,
  framework: UnpluginContextMeta['framework'],
): void {
  if (framework === 'esbuild' || isOneOffBuild(context)) return
  const compilation = getWebpackCompilation(context)
  if (compilation) compilation.contextDependencies.addAll(ctx.watchDirs())
  else for (const dir of ctx.watchDirs()) context.addWatchFile(dir)
  for (const file of ctx.watchFiles()) context.addWatchFile(file)
}

/**
 * Throws; webpack gets its own kind of error, without a stack (its CLI and stats print a
 * WebpackError's stack, not its message), and in watch mode the compilation fails instead,
 * as a throw would stop the watcher for good.
 */
function failBuild(context: UnpluginBuildContext, error: unknown): void {
  const compilation = getWebpackCompilation(context)
  if (!compilation) throw error
  const failure = new compilation.compiler.webpack.WebpackError(error instanceof Error ? error.message : String(error))
  failure.name = error instanceof Error ? error.name : 'Error'
  failure.stack = `${failure.name}: ${failure.message}`
  failure.hideStack = true
  if (!compilation.compiler.watchMode) throw failure
  compilation.errors.push(failure)
}

/**
 * webpack reads `virtual:` as a URL scheme and never asks resolver plugins about it: such
 * requests are renamed to the resolved id (`\0virtual:...`), which `resolveId` accepts.
 */
function escapeVirtualScheme(compiler: Compiler): void {
  compiler.hooks.normalModuleFactory.tap(PLUGIN_NAME, (factory) => {
    factory.hooks.beforeResolve.tap(PLUGIN_NAME, (data) => {
      if (VIRTUAL_ID_RE.test(data.request)) data.request = `\0${data.request}`
    })
  })
}

/** Whether webpack builds for Node (Node tools are left out of web targets). */
function isNodeTarget(compiler: Compiler): boolean {
  const { target } = compiler.options
  return (Array.isArray(target) ? target : [target]).some(
    (t) => typeof t === 'string' && /^(node|async-node|electron-main)/.test(t),
  )
}

/** The plugin: every hook delegates to the context in a line or two. */
const unpluginFactory: UnpluginFactory<Options | undefined> = (options, meta) => {
  const ctx: SiteSkillsContext = createSiteSkillsContext(options)
  const nativeTypeScript = meta.framework === 'vite' || meta.framework === 'esbuild' || meta.framework === 'rolldown'
  let devServer = false
  let stopDevServer: (() => void) | undefined
  return {
    name: PLUGIN_NAME,
    enforce: 'pre',
    async buildStart() {
      // esbuild compiles in its own `onStart` (see `startEsbuild`).
      if (meta.framework === 'esbuild') return
      const failure = await ctx.build().then(
        () => undefined,
        (error: unknown) => ({ error }),
      )
      addWatchFiles(this, ctx, meta.framework)
      // The dev server must come up even with invalid learnings: loading the module shows the errors.
      if (failure && !devServer) failBuild(this, failure.error)
    },
    resolveId: (id) => ctx.resolveId(id),
    load: {
      filter: { id: GENERATED_ID_RE },
      handler(id) {
        return ctx.load(id, isClientEnvironment(this))
      },
    },
    // Vite, esbuild and Rolldown compile TypeScript themselves.
    ...(nativeTypeScript
      ? {}
      : {
          transform: {
            filter: { id: TS_FILE_RE },
            handler: (code: string, id: string) => (ctx.isWatched(id) ? compileTypeScript(code, id) : undefined),
          },
        }),
    vite: {
      configResolved(config) {
        ctx.setRoot(config.root)
        devServer = config.command === 'serve'
        ctx.setDevServer(devServer)
      },
      configureServer(server) {
        stopDevServer = attachDevServer(server, ctx)
      },
      // Vite calls it when the dev server closes (and after a build, where nothing is attached).
      closeBundle() {
        stopDevServer?.()
        stopDevServer = undefined
      },
      buildApp: { order: 'pre', handler: tidyViteBuildErrors },
      /** For other plugins and tests: the last compile result (skills, diagnostics, revalidated ids). */
      api: { lastResult: () => ctx.last, compiles: () => ctx.compiles },
    },
    esbuild: {
      // The main module is resolved in `resolveFilesForEsbuild`.
      onResolveFilter: CHUNK_ID_RE,
      setup(build) {
        if (build.initialOptions.absWorkingDir) ctx.setRoot(build.initialOptions.absWorkingDir)
        if (build.initialOptions.platform === 'browser') ctx.setNodeTools(false)
        resolveFilesForEsbuild(build, ctx)
        build.onStart(() => startEsbuild(ctx, build))
      },
    },
    webpack(compiler) {
      ctx.setRoot(compiler.options.context ?? process.cwd())
      if (!isNodeTarget(compiler)) ctx.setNodeTools(false)
      escapeVirtualScheme(compiler)
    },
  }
}

export const unplugin = /* #__PURE__ */ createUnplugin(unpluginFactory)

import { transform } from 'esbuild'
import { type UnpluginFactory, createUnplugin } from 'unplugin'
import { PLUGIN_NAME } from './constants'
import { type SiteSkillsContext, createSiteSkillsContext } from './context'
import type { Options } from './options'

const TS_RE = /\.[mc]?ts$/

/** Compiles TypeScript skill files for bundlers that cannot (Rollup, webpack). */
async function compileTypeScript(code: string, id: string) {
  const out = await transform(code, { loader: 'ts', format: 'esm', target: 'es2022', sourcemap: true, sourcefile: id })
  return { code: out.code, map: out.map }
}

/** The plugin: every hook delegates to the context in a line or two. */
export const unpluginFactory: UnpluginFactory<Options | undefined> = (options, meta) => {
  const ctx: SiteSkillsContext = createSiteSkillsContext(options)
  const nativeTypeScript = meta.framework === 'vite' || meta.framework === 'esbuild' || meta.framework === 'rolldown'
  return {
    name: PLUGIN_NAME,
    enforce: 'pre',
    async buildStart() {
      await ctx.build()
      for (const file of ctx.watchFiles()) this.addWatchFile(file)
    },
    resolveId: (id) => ctx.resolveId(id),
    loadInclude: (id) => ctx.isGenerated(id),
    load(id) {
      // Vite runs one plugin for several environments: a client one never gets Node tools.
      const consumer = (this as { environment?: { config?: { consumer?: string } } }).environment?.config?.consumer
      return ctx.load(id, consumer === undefined ? undefined : consumer === 'client')
    },
    transformInclude: (id) => !nativeTypeScript && TS_RE.test(id) && ctx.isWatched(id),
    transform: (code, id) => compileTypeScript(code, id),
    vite: {
      configResolved(config) {
        ctx.setRoot(config.root)
      },
    },
    esbuild: {
      setup(build) {
        if (build.initialOptions.absWorkingDir) ctx.setRoot(build.initialOptions.absWorkingDir)
        if (build.initialOptions.platform === 'browser') ctx.setNodeTools(false)
      },
    },
    webpack(compiler) {
      ctx.setRoot(compiler.options.context ?? process.cwd())
      const target = compiler.options.target
      const targets = Array.isArray(target) ? target : [target]
      if (!targets.some((t) => typeof t === 'string' && (t.startsWith('node') || t.startsWith('electron-main') || t === 'async-node'))) ctx.setNodeTools(false)
    },
  }
}

export const unplugin = /* #__PURE__ */ createUnplugin(unpluginFactory)
export default unplugin

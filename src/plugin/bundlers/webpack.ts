import type { UnpluginBuildContext, UnpluginOptions } from 'unplugin'
import type { Compilation, Compiler } from 'webpack'
import { PLUGIN_NAME, VIRTUAL_ID_RE } from '../../ids'
import type { RootContext } from '../root-context'
import type { PluginContexts } from '../plugin-contexts'
import { typeScriptTransform } from '../typescript-transform'

/**
 * webpack: the root is `context`, Node tools are left out of web targets. The skills compile
 * in each compilation (`buildStart` runs in its `make`): warnings go to `compilation.warnings`,
 * and invalid skills fail the compilation.
 */
export function webpackHooks(contexts: PluginContexts): Partial<UnpluginOptions> {
  return {
    webpack(compiler) {
      contexts.use({ root: compiler.options.context ?? process.cwd(), nodeTools: isNodeTarget(compiler) })
      escapeVirtualScheme(compiler)
    },
    async buildStart() {
      const compilation = compilationOf(this)
      const ctx = contexts.current
      const { warnings, error } = await ctx.compile()
      for (const warning of warnings) compilation.warnings.push(toWebpackError(compilation, warning.message))
      addWatchFiles(this, compilation, ctx)
      if (error) failBuild(compilation, error)
    },
    transform: typeScriptTransform(contexts),
  }
}

/** webpack's compilation, in hooks that run in one (`buildStart`). */
function compilationOf(context: UnpluginBuildContext): Compilation {
  const native = context.getNativeBuildContext?.()
  if (native?.framework !== 'webpack' || !native.compilation)
    throw new Error(`${PLUGIN_NAME}: webpack started a build outside a compilation`)
  return native.compilation
}

/**
 * What the skills depend on, also after a failed compile (so a fix is noticed): folders as
 * context dependencies (unplugin makes every watch file a file dependency), files as files.
 */
function addWatchFiles(context: UnpluginBuildContext, compilation: Compilation, ctx: RootContext): void {
  compilation.contextDependencies.addAll(ctx.watchDirs())
  for (const file of ctx.watchFiles()) context.addWatchFile(file)
}

/**
 * webpack's own kind of error, without a stack: its CLI and stats print a WebpackError's stack,
 * not its message.
 */
function toWebpackError(compilation: Compilation, message: string, name = 'SiteSkillsWarning') {
  const error = new compilation.compiler.webpack.WebpackError(message)
  error.name = name
  error.stack = `${name}: ${message}`
  error.hideStack = true
  return error
}

/** Throws; in watch mode the compilation fails instead, as a throw would stop the watcher for good. */
function failBuild(compilation: Compilation, error: Error): void {
  const failure = toWebpackError(compilation, error.message, error.name)
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

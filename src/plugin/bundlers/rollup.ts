import type { UnpluginOptions } from 'unplugin'
import type { BuildError } from '../build-error'
import type { RootContext } from '../root-context'
import type { PluginContexts } from '../plugin-contexts'
import { typeScriptTransform } from '../typescript-transform'

/** What Rollup, Rolldown and Vite give a hook as `this`, as far as the plugin uses it. */
export interface RollupHookContext {
  warn: (message: string) => void
  addWatchFile: (id: string) => void
  meta: { watchMode?: boolean }
}

/**
 * Compiles; reports every new warning with `this.warn` (to `onwarn`/`onLog`, or Vite's logger; its
 * line says where, so it gets no `loc`: Rollup would print the place twice, Vite not at all); tells the bundler what
 * the skills depend
 * on (also after a failed compile, so a fix is noticed), unless the build will not watch
 * (thousands of files at 1,000 skills, for nothing). Returns the error of invalid skills.
 */
export async function compileInHook(hook: RollupHookContext, ctx: RootContext): Promise<BuildError | undefined> {
  const { warnings, error } = await ctx.compile()
  for (const warning of warnings) hook.warn(warning.message)
  if (hook.meta.watchMode !== false)
    for (const path of [...ctx.watchDirs(), ...ctx.watchFiles()]) hook.addWatchFile(path)
  return error
}

/**
 * Rollup and Rolldown: no root of their own, so the working directory when the build starts, as
 * they resolve `input` and `output.dir`. Invalid skills fail the build with the report.
 */
export function rollupHooks(contexts: PluginContexts, framework: 'rollup' | 'rolldown'): Partial<UnpluginOptions> {
  async function buildStart(this: RollupHookContext): Promise<void> {
    const error = await compileInHook(this, contexts.use({ root: process.cwd() }))
    if (error) throw error
  }
  // Rolldown compiles TypeScript itself.
  return framework === 'rollup'
    ? { rollup: { buildStart }, transform: typeScriptTransform(contexts) }
    : { rolldown: { buildStart } }
}

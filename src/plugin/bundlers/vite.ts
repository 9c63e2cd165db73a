import { inspect } from 'node:util'
import type { UnpluginOptions } from 'unplugin'
import type { ViteBuilder } from 'vite'
import { GENERATED_ID_RE } from '../../ids'
import { type BuildError, isBuildError } from '../build-error'
import type { PluginContexts } from '../plugin-contexts'
import { type AttachedDevServer, attachDevServer } from '../dev-server'
import { type RollupHookContext, compileInHook } from './rollup'

/** Vite runs one plugin for several environments: a client one never gets Node tools. Unknown elsewhere. */
function isClientEnvironment(context: object): boolean | undefined {
  const consumer = (context as { environment?: { config?: { consumer?: string } } }).environment?.config?.consumer
  return consumer === undefined ? undefined : consumer === 'client'
}

/**
 * Vite: the root and the command from `configResolved`. A build fails on invalid skills; the
 * dev server comes up anyway (loading the module shows the errors, in the overlay too) and
 * follows the skills as they change (`dev-server`).
 */
export function viteHooks(contexts: PluginContexts): Partial<UnpluginOptions> {
  let devServer: AttachedDevServer | undefined
  /** Compiles; a build (not the dev server) throws the report of invalid skills. */
  async function compile(hook: RollupHookContext): Promise<void> {
    const ctx = contexts.current
    const error = await compileInHook(hook, ctx)
    if (error && !ctx.host.devServer) throw error
  }
  return {
    vite: {
      configResolved(config) {
        contexts.use({ root: config.root, devServer: config.command === 'serve' })
      },
      async buildStart() {
        await compile(this)
      },
      load: {
        filter: { id: GENERATED_ID_RE },
        async handler(id) {
          // A server environment can load before the client's `buildStart` ran (middleware mode).
          if (!contexts.current.last) await compile(this)
          else await devServer?.beforeLoad?.()
          return contexts.current.load(id, isClientEnvironment(this))
        },
      },
      configureServer(server) {
        devServer = attachDevServer(server, contexts.current)
      },
      // Vite calls it when the dev server closes (and after a build, where nothing is attached).
      closeBundle() {
        devServer?.stop()
        devServer = undefined
      },
      buildApp: { order: 'post', handler: buildEnvironments },
      /** For other plugins and tests: the last compile result (skills, diagnostics, revalidated ids). */
      api: { lastResult: () => contexts.made?.last, compiles: () => contexts.made?.compiles ?? 0 },
    },
  }
}

/**
 * `vite build` prints a failed environment's error with `util.inspect`, and the error is Rolldown's
 * wrapper of the plugin's report: its enumerable `errors` getter prints as `[Getter/Setter]`, its
 * stack as Rolldown's `at` lines. Vite 8.3 has no hook that shapes how a failed build is printed,
 * but `buildApp` may build the environments: when nothing else built them (the user's
 * `builder.buildApp` runs before this `post` hook), this builds each in turn, as Vite would, and
 * rethrows a failure of only the skills' reports as a `SkillsBuildFailure`.
 */
async function buildEnvironments(builder: ViteBuilder): Promise<void> {
  const environments = Object.values(builder.environments)
  if (environments.some((environment) => environment.isBuilt)) return
  for (const environment of environments) {
    try {
      await builder.build(environment)
    } catch (error) {
      throw asSkillsFailure(error)
    }
  }
}

/** A failed build whose every error is the skills' report: it prints as its message, no more. */
class SkillsBuildFailure extends Error {
  declare readonly errors: readonly BuildError[]

  constructor(message: string, errors: readonly BuildError[]) {
    super(message)
    this.stack = message
    Object.defineProperty(this, 'errors', { value: errors, enumerable: false })
  }

  /** The message already holds every diagnostic with its frame and hint (and where the first one is). */
  [inspect.custom](): string {
    return this.message
  }
}

function asSkillsFailure(error: unknown): unknown {
  const errors: unknown = error instanceof Error ? (error as Error & { errors?: unknown }).errors : undefined
  if (!(error instanceof Error) || !Array.isArray(errors) || errors.length === 0 || !errors.every(isBuildError))
    return error
  return new SkillsBuildFailure(error.message, errors)
}

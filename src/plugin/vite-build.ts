import { inspect } from 'node:util'
import type { ViteBuilder } from 'vite'

const isSiteSkillsError = (error: unknown) => error instanceof Error && error.name === 'SiteSkillsError'

/**
 * Rolldown wraps a failed build's errors in one error with an enumerable `errors` getter and its
 * own stack, which `vite build` prints with `util.inspect` (`errors: [Getter/Setter]`, Rolldown's
 * `at` lines). When every error is the learnings' report, the wrapper prints as its message only.
 */
function tidyBuildError(error: unknown): unknown {
  const errors: unknown = error instanceof Error ? (error as Error & { errors?: unknown }).errors : undefined
  const ours = error instanceof Error && Array.isArray(errors) && errors.length > 0 && errors.every(isSiteSkillsError)
  if (!ours) return error
  Object.defineProperty(error, 'errors', { value: errors, enumerable: false, writable: true, configurable: true })
  error.stack = error.message
  Object.defineProperty(error, inspect.custom, { value: () => error.message, enumerable: false })
  return error
}

/** Vite's `buildApp` hook (run before others): each environment's build fails with a tidy error (`tidyBuildError`). */
export async function tidyViteBuildErrors(builder: ViteBuilder): Promise<void> {
  const build = builder.build.bind(builder)
  builder.build = async (environment) => {
    try {
      return await build(environment)
    } catch (error) {
      throw tidyBuildError(error)
    }
  }
}

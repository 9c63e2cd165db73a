import type { CompileResult } from '../compiler/compile'
import type { Diagnostic } from '../compiler/diagnostics/catalog'
import type { Root } from '../compiler/discover/roots'
import { fileOf, formatReport } from '../compiler/diagnostics/report'

/** A diagnostic with its absolute file. */
export interface LocatedDiagnostic {
  diagnostic: Diagnostic
  file: string
}

/**
 * The error of a failed build, as Rollup, Rolldown, Vite and its overlay read it. `message` holds
 * every error diagnostic with its own frame and hint; `id` and `loc` point at the first one.
 * There is no `frame` (bundlers print it once, after the whole message) and no stack: the
 * diagnostics are the report, a stack would only show the plugin's internals. Hosts that show
 * each diagnostic themselves (esbuild) read `located`.
 */
export class BuildError extends Error {
  declare id?: string
  /**
   * The first error. `column` is 1-based, unlike Rollup's convention: Rollup, Rolldown and Vite
   * print it as is (`file:6:18`, next to the diagnostic's own `6:18`) and Vite's overlay opens
   * the editor at it, so a 0-based column would be shown and followed one character off.
   */
  declare loc?: { file: string; line: number; column: number }
  /** The plugin that reports it, as Vite's overlay shows it (set in Vite's dev server). */
  declare plugin?: string
  declare readonly diagnostics: readonly Diagnostic[]
  declare readonly located: readonly LocatedDiagnostic[]

  constructor(message: string, errors: readonly Diagnostic[], diagnostics: readonly Diagnostic[]) {
    super(message)
    this.name = 'SiteSkillsError'
    const located = errors.map((d) => ({ diagnostic: d, file: fileOf(d) }))
    Object.defineProperty(this, 'diagnostics', { value: diagnostics, enumerable: false })
    Object.defineProperty(this, 'located', { value: located, enumerable: false })
  }
}

/**
 * One error for a failed build: every error diagnostic with its frame, files shown relative to
 * `base` (the bundler's root); the first one as the error's location. With `links` (Vite's dev
 * server), the stack lists the absolute `file:line:col` of every error: the overlay shows the
 * stack's `at` lines, each as a link to the editor.
 */
export function createBuildError(
  result: CompileResult,
  base: string,
  roots: readonly Root[],
  links = false,
): BuildError {
  // Folder by folder, as the compile reports them.
  const reported = result.reports.flatMap((r) => r.diagnostics)
  const errors = reported.filter((d) => d.severity === 'error')
  const error = new BuildError(formatReport(reported, base, roots), errors, result.diagnostics)
  const at = (d: Diagnostic) => `    at ${fileOf(d)}:${d.line}:${d.column}`
  error.stack = links ? errors.map(at).join('\n') : ''
  const first = errors[0]
  if (first) {
    const file = fileOf(first)
    error.id = file
    error.loc = { file, line: first.line, column: first.column }
  }
  return error
}

/** Whether an error is the report of invalid skills. */
export const isBuildError = (error: unknown): error is BuildError => error instanceof BuildError

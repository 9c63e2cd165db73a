import { join } from 'node:path'
import { createCompiler, type CompileResult } from '../../src/compiler/compile'
import type { Diagnostic } from '../../src/compiler/diagnostics/catalog'
import { REPO_ROOT } from './tmp'

export const RULES = join(REPO_ROOT, 'test/fixtures/rules')

export function compileRoots(roots: string[], compat?: 'ego-lite'): Promise<CompileResult> {
  return createCompiler({ roots, compat }).compile()
}

/** One line per diagnostic, machine paths removed: what the snapshots hold. */
export function describe(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) =>
    `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code}: ${d.message}`.replaceAll(REPO_ROOT, '<repo>'),
  )
}

export function at(diagnostics: readonly Diagnostic[], code: string): { file: string; line: number; column: number }[] {
  return diagnostics.filter((d) => d.code === code).map(({ file, line, column }) => ({ file, line, column }))
}

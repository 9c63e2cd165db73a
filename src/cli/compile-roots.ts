import { stat } from 'node:fs/promises'
import { type PackageProblem, packageDiagnostic } from '../compiler/discover/skill-packages'
import type { Root } from '../compiler/discover/roots'
import { displayFile } from '../compiler/diagnostics/report'
import type { CompileResult } from '../compiler/compile'
import { createBudgetedCompiler } from '../tokens/budget'
import { type CliIO, UsageError } from './io'
import { type RootArgs, compatOf, rootsOf } from './roots'

/** A package root that cannot be used, as one line: where (its package.json), code, message, hint. */
function packageUsage(problem: PackageProblem, root: Root, cwd: string): string {
  const d = packageDiagnostic(problem, root.path)
  const where = d.file === '.' ? '' : `${displayFile(d, cwd, [root])}:${d.line}:${d.column}: `
  return `${where}${d.code}: ${d.message}; ${d.hint}`
}

/** The command's roots; a root that is not a folder is a usage error (a typo must not read as "no skill"). */
export async function existingRoots(args: RootArgs, io: CliIO, extra: string[] = []): Promise<readonly Root[]> {
  const roots = rootsOf(args, io, extra)
  for (const root of roots) {
    if (root.problem) throw new UsageError(packageUsage(root.problem, root, io.cwd))
    const isDir = await stat(root.path).then(
      (s) => s.isDirectory(),
      () => false,
    )
    if (!isDir) throw new UsageError(`no learnings folder at ${root.path} (pass --root DIR, or set SITE_SKILLS_ROOT)`)
  }
  return roots
}

/**
 * Compiles the command's roots; a root that does not exist is a usage error. Browser tools are
 * compiled to shippable code only with `code` (validate and types need diagnostics and metadata).
 */
export async function compileRoots(
  args: RootArgs,
  io: CliIO,
  extra: string[] = [],
  code = false,
): Promise<CompileResult> {
  const roots = await existingRoots(args, io, extra)
  const compat = compatOf(args)
  return createBudgetedCompiler({ roots, compat, checkOnly: !code }).compile()
}

/** The most ids a "no skill" message lists: a root may hold thousands. */
const KNOWN_SHOWN = 20

/**
 * A usage error (exit 2) when an id names no skill of the roots, in the one message of every
 * command that takes skill ids: `no skill "x" in the roots (known: a, b)`, after `flag` if given.
 */
export function checkSkillIds(ids: readonly string[], known: Iterable<string>, flag?: string): void {
  const set = new Set(known)
  const unknown = [...new Set(ids.filter((id) => !set.has(id)))]
  if (unknown.length === 0) return
  const all = [...set]
  const shown = all.slice(0, KNOWN_SHOWN).join(', ') || 'none'
  const more = all.length > KNOWN_SHOWN ? ` and ${all.length - KNOWN_SHOWN} more` : ''
  const names = unknown.map((id) => JSON.stringify(id)).join(', ')
  throw new UsageError(`${flag ? `${flag}: ` : ''}no skill ${names} in the roots (known: ${shown}${more})`)
}

import { stat } from 'node:fs/promises'
import { type CompileResult, createCompiler } from '../compiler/compile'
import { checkTokenBudgets } from '../tokens/budget'
import { type CliIO, type RootArgs, UsageError, compatOf, rootsOf } from './args'

/** The command's roots; a root that is not a folder is a usage error (a typo must not read as "no skill"). */
export async function existingRoots(args: RootArgs, io: CliIO, extra: string[] = []): Promise<readonly string[]> {
  const roots = rootsOf(args, io, extra)
  for (const root of roots) {
    const isDir = await stat(root).then(
      (s) => s.isDirectory(),
      () => false,
    )
    if (!isDir) throw new UsageError(`no learnings folder at ${root} (pass --root DIR, or set SITE_SKILLS_ROOT)`)
  }
  return roots
}

/** Compiles the command's roots; a root that does not exist is a usage error. */
export async function compileRoots(args: RootArgs, io: CliIO, extra: string[] = []): Promise<CompileResult> {
  const roots = await existingRoots(args, io, extra)
  const compat = compatOf(args)
  // validate and types need diagnostics and metadata, not shippable code.
  return checkTokenBudgets(await createCompiler({ roots, compat, checkOnly: true }).compile())
}

import { type Compat, parseCompat } from '../compiler/compat'
import type { CompileResult } from '../compiler/compile'
import { type Root, resolveRoots } from '../compiler/discover/roots'
import type { CliIO } from './io'

/*
 * What the commands that read skills share: their roots (and those a compile read), the compat mode.
 * Apart from args.ts because resolving roots loads the compiler's discovery (package roots parse
 * package.json): the CLI's entry, --help and --version load none of it.
 */

/** What the commands that read skills take: `--root DIR...` and `--compat MODE`. */
export interface RootArgs {
  root: readonly string[]
  compat?: string
}

/** The roots of a command: `--root` (and extra positional dirs), else the environment's default. */
export function rootsOf(args: Pick<RootArgs, 'root'>, io: CliIO, extra: string[] = []): readonly Root[] {
  return resolveRoots([...args.root, ...extra], io.cwd, io.env)
}

/** The roots a compile read, as given (a package root with its package): how its files are shown. */
export const givenRoots = (result: Pick<CompileResult, 'roots'>): readonly Root[] =>
  result.roots.map((scan) => scan.from)

/** The compat mode the command was given (checked when parsed). */
export function compatOf(args: Pick<RootArgs, 'compat'>): Compat | undefined {
  return parseCompat(args.compat)
}

import { isAbsolute, relative } from 'node:path'
import { type Compat, parseCompat } from '../compiler/compat'
import { packagePath } from '../compiler/discover/packages'
import { resolveRoots } from '../compiler/discover/roots'
import { toPosix } from '../compiler/fs/paths'
import type { CliIO } from './args'

/*
 * What the commands that read skills share: their roots, how a root is shown, the compat mode.
 * Apart from args.ts because resolving roots loads the compiler's discovery (package roots parse
 * package.json): the CLI's entry, --help and --version load none of it.
 */

/** What the commands that read skills take: `--root DIR...` and `--compat MODE`. */
export interface RootArgs {
  root: readonly string[]
  compat?: string
}

/** The roots of a command: `--root` (and extra positional dirs), else the environment's default. */
export function rootsOf(args: Pick<RootArgs, 'root'>, io: CliIO, extra: string[] = []): readonly string[] {
  return resolveRoots([...args.root, ...extra], io.cwd, io.env)
}

/**
 * How a root (or a path) is shown: by its package's name in a package root, else relative to the working directory when
 * inside it.
 */
export function displayRoot(root: string, cwd: string): string {
  const named = packagePath(root)
  if (named !== undefined) return named
  const rel = relative(cwd, root)
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? toPosix(root) : toPosix(rel)
}

/** The compat mode the command was given (checked when parsed). */
export function compatOf(args: Pick<RootArgs, 'compat'>): Compat | undefined {
  return parseCompat(args.compat)
}

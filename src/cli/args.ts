import { relative, isAbsolute } from 'node:path'
import { resolveRoots } from '../compiler/discover/roots'
import { type Compat, parseCompat } from '../compiler/compat'
import { toPosix } from '../compiler/fs/paths'

export interface CliIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean }
  stderr: NodeJS.WritableStream & { isTTY?: boolean }
  cwd: string
  env: Record<string, string | undefined>
}

export { UsageError } from './options'

/** What the commands that read skills take: `--root DIR...` and `--compat MODE`. */
export interface RootArgs {
  root: readonly string[]
  compat?: string
}

/** The roots of a command: `--root` (and extra positional dirs), else the environment's default. */
export function rootsOf(args: Pick<RootArgs, 'root'>, io: CliIO, extra: string[] = []): readonly string[] {
  return resolveRoots([...args.root, ...extra], io.cwd, io.env)
}

/** How a root is shown: relative to the working directory when inside it. */
export function displayRoot(root: string, cwd: string): string {
  const rel = relative(cwd, root)
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? toPosix(root) : toPosix(rel)
}

export function writeLine(stream: NodeJS.WritableStream, text = ''): void {
  stream.write(`${text}\n`)
}

/** The compat mode the command was given (checked when parsed). */
export function compatOf(args: Pick<RootArgs, 'compat'>): Compat | undefined {
  return parseCompat(args.compat)
}

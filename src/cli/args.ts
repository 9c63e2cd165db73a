import { parseArgs } from 'node:util'
import { relative, isAbsolute } from 'node:path'
import { resolveRootInputs } from '../core/discover'
import { toPosix } from '../core/paths'

export interface CliIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean }
  stderr: NodeJS.WritableStream & { isTTY?: boolean }
  cwd: string
  env: Record<string, string | undefined>
}

export interface ParsedArgs {
  positionals: string[]
  root: string[]
  json: boolean
  compat?: string
  out?: string
  args?: string
  cdp?: string
  target?: string
  domain: string[]
  help: boolean
}

/** Bad usage: printed with the usage line, exit code 2. */
export class UsageError extends Error {}

export function parseCliArgs(argv: string[]): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        root: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        compat: { type: 'string' },
        out: { type: 'string' },
        args: { type: 'string' },
        cdp: { type: 'string' },
        target: { type: 'string' },
        domain: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    })
    if (values.compat !== undefined && values.compat !== 'ego-lite') throw new UsageError(`--compat accepts only "ego-lite", not ${JSON.stringify(values.compat)}`)
    return { positionals, root: values.root ?? [], json: values.json ?? false, compat: values.compat, out: values.out, args: values.args, cdp: values.cdp, target: values.target, domain: values.domain ?? [], help: values.help ?? false }
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw new UsageError((error as Error).message)
  }
}

/** The roots of a command: `--root` (and extra positional dirs), else the environment's default. */
export function rootsOf(args: ParsedArgs, io: CliIO, extra: string[] = []): string[] {
  return resolveRootInputs([...args.root, ...extra], io.cwd, io.env)
}

/** How a root is shown: relative to the working directory when inside it. */
export function displayRoot(root: string, cwd: string): string {
  const rel = relative(cwd, root)
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? toPosix(root) : toPosix(rel)
}

export function writeLine(stream: NodeJS.WritableStream, text = ''): void {
  stream.write(`${text}\n`)
}

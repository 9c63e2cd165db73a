import { parseArgs } from 'node:util'
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

export interface ParsedArgs {
  positionals: string[]
  root: string[]
  json: boolean
  compat?: string
  out?: string
  args?: string
  cdp?: string
  target?: string
  /** `run --url URL`: the page a Node tool is about (`ctx.url`, `ctx.baseUrl`). */
  url?: string
  domain: string[]
  /** `test --live`: run the examples against their live pages. */
  live: boolean
  /** `snapshot --site ID` and `--name NAME`. */
  site?: string
  name?: string
  allow: string[]
  deny: string[]
  http?: string
  help: boolean
  version: boolean
  /** `check --watch`: run again on every change until interrupted. */
  watch: boolean
  /** `context --tokens`: count the tokens of what the URL gets. */
  tokens: boolean
  /** `mcp --tools page|all|search`. */
  tools?: string
  /** `mcp --allow-write DIR`: the root the server's authoring tools may write. */
  allowWrite?: string
}

/** Bad usage: printed as one line with a pointer to `--help`, exit code 2. */
export class UsageError extends Error {}

/** Node's parseArgs messages, shortened to one line in the CLI's words. */
function usageMessage(error: Error & { code?: string }): string {
  const option = /'([^']+)'/.exec(error.message)?.[1]
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `unknown option ${JSON.stringify(option)}`
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    const [flag, value] = option.split(' ')
    return value ? `${flag} needs a value` : `${flag} takes no value`
  }
  return error.message.split('\n')[0]!
}

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
        url: { type: 'string' },
        domain: { type: 'string', multiple: true },
        live: { type: 'boolean' },
        site: { type: 'string' },
        name: { type: 'string' },
        allow: { type: 'string', multiple: true },
        deny: { type: 'string', multiple: true },
        http: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        watch: { type: 'boolean' },
        tokens: { type: 'boolean' },
        tools: { type: 'string' },
        'allow-write': { type: 'string' },
      },
    })
    if (values.compat !== undefined && !parseCompat(values.compat))
      throw new UsageError(`--compat accepts only "ego-lite", not ${JSON.stringify(values.compat)}`)
    const {
      root = [],
      json = false,
      domain = [],
      live = false,
      allow = [],
      deny = [],
      help = false,
      version = false,
      watch = false,
      tokens = false,
      'allow-write': allowWrite,
      ...text
    } = values
    const parsed = { ...text, positionals, root, json, domain, live, allow, deny, help, version, watch, tokens }
    return allowWrite === undefined ? parsed : { ...parsed, allowWrite }
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw new UsageError(usageMessage(error as Error))
  }
}

/** The roots of a command: `--root` (and extra positional dirs), else the environment's default. */
export function rootsOf(args: ParsedArgs, io: CliIO, extra: string[] = []): readonly string[] {
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
export function compatOf(args: ParsedArgs): Compat | undefined {
  return parseCompat(args.compat)
}

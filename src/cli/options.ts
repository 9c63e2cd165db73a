import { parseArgs } from 'node:util'

/** One option of a command: what `util.parseArgs` needs, and what the command's usage and help show. */
export interface OptionSpec {
  type: 'string' | 'boolean'
  /** Repeatable: the value is the list of every occurrence. */
  multiple?: boolean
  short?: string
  /** The placeholder of a string option's value in the usage (`--root DIR`). */
  value?: string
  /** The only values it accepts (checked when parsed). */
  choices?: readonly string[]
  /** Shown without brackets: the command does not run without it (the command checks it, with its own words). */
  required?: boolean
  help: string
}

/** A command as the CLI knows it before loading it: enough to parse its options and print its help. */
export interface CommandSpec {
  /** The operands after the command's name (`URL...`, `[DIR...]`); a command without takes none. */
  operands?: string
  /** One line for the list of commands. */
  summary: string
  /** More lines for the command's own help. */
  details?: readonly string[]
  options: Readonly<Record<string, OptionSpec>>
}

type ValueOf<O extends OptionSpec> = O['type'] extends 'boolean'
  ? boolean
  : O['multiple'] extends true
    ? string[]
    : string | undefined

/** What a command gets: its operands, and each of its options (false, [] or undefined when not given). */
export type ArgsOf<C extends CommandSpec> = { positionals: string[] } & {
  -readonly [K in keyof C['options']]: ValueOf<C['options'][K]>
}

/** Bad usage: one line on stderr (then the usage, when it is the command's options that were wrong), exit 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The usage line printed after the message. */
    readonly usage?: string,
  ) {
    super(message)
  }
}

const HELP = { help: { type: 'boolean', short: 'h', help: 'this help' } } as const satisfies Record<string, OptionSpec>

/** `--root DIR`: what every command that reads skills takes. */
export const ROOT = {
  root: {
    type: 'string',
    multiple: true,
    value: 'DIR',
    help:
      'a learnings root (repeatable; default $SITE_SKILLS_ROOT, else $EGO_BROWSER_AGENT_WORKSPACE/learnings, ' +
      'else ./learnings)',
  },
} as const satisfies Record<string, OptionSpec>

export const JSON_OUTPUT = {
  json: { type: 'boolean', help: 'machine output on stdout, nothing else' },
} as const satisfies Record<string, OptionSpec>

const flag = (name: string, spec: OptionSpec) => {
  const value = spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : ''
  return `--${name}${value}`
}

/**
 * `validate [DIR...] [--root DIR]... [--json]`: the command, its operands and its options (but
 * those in `omit`).
 */
export function synopsis(name: string, spec: CommandSpec, omit: ReadonlySet<string> = new Set()): string {
  const parts = [name]
  if (spec.operands) parts.push(spec.operands)
  for (const [option, o] of Object.entries(spec.options)) {
    if (omit.has(option)) continue
    const shown = o.required ? flag(option, o) : `[${flag(option, o)}]`
    parts.push(o.multiple ? `${shown}...` : shown)
  }
  return parts.join(' ')
}

/** `usage: site-skills validate [DIR...] [--root DIR]... [--json] [--compat ego-lite]`. */
export const usageLine = (name: string, spec: CommandSpec) => `usage: site-skills ${synopsis(name, spec)}`

/** The lines of `text`, each at most `width` characters where the words allow. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  return [...lines, line]
}

/** Option rows: the flag, then its help wrapped beside it. */
export function optionRows(options: Readonly<Record<string, OptionSpec>>): string[] {
  const rows = Object.entries(options).map(([name, o]) => {
    const short = o.short ? `, -${o.short}` : ''
    return [`${flag(name, o)}${short}`, o.help] as const
  })
  const width = Math.max(...rows.map(([left]) => left.length)) + 2
  return rows.flatMap(([left, help]) =>
    wrap(help, 96 - width).map((text, i) => `  ${(i ? '' : left).padEnd(width)}${text}`),
  )
}

/** `site-skills NAME --help`. */
export function commandHelp(name: string, spec: CommandSpec): string {
  const details = (spec.details ?? []).map((line) => `${line}\n`).join('')
  const rows = optionRows({ ...spec.options, ...HELP }).join('\n')
  return `${usageLine(name, spec)}\n\n${spec.summary}\n${details}\noptions:\n${rows}`
}

/** Node's parseArgs messages, shortened to one line in the CLI's words. */
function usageMessage(error: Error & { code?: string }, name: string, known: ReadonlySet<string>): string {
  const option = /'([^']+)'/.exec(error.message)?.[1]
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option)
    return known.has(option) ? `${name} does not take ${option}` : `unknown option ${JSON.stringify(option)}`
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    const [flagName, value] = option.split(' ')
    return value ? `${flagName} needs a value` : `${flagName} takes no value`
  }
  if (error.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return `${name} takes no arguments, got ${JSON.stringify(/'([^']*)'/.exec(error.message)?.[1] ?? '')}`
  return error.message.split('\n')[0]!
}

/** Whether `--help` or `-h` is among the options (before any `--`), whatever else is wrong with them. */
function asksHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--')
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h')
}

function checkChoices(spec: CommandSpec, values: Record<string, unknown>): void {
  for (const [name, o] of Object.entries(spec.options)) {
    const value = values[name]
    if (!o.choices || typeof value !== 'string' || o.choices.includes(value)) continue
    const accepted = o.choices.length === 1 ? `only ${JSON.stringify(o.choices[0])}` : o.choices.join(', ')
    throw new UsageError(`--${name} accepts ${accepted}, not ${JSON.stringify(value)}`)
  }
}

/** Defaults: false for a flag, [] for a repeatable option; a string option not given stays undefined. */
function withDefaults(spec: CommandSpec, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [name, o] of Object.entries(spec.options))
    out[name] = values[name] ?? (o.multiple ? [] : o.type === 'boolean' ? false : undefined)
  return out
}

/**
 * The arguments of one command, parsed against its own options only. `help` is true for
 * `--help`/`-h` (then nothing else is checked). `known` holds every option of any command, so an
 * option of another command is named as such.
 */
export function parseCommand<C extends CommandSpec>(
  name: string,
  spec: C,
  argv: string[],
  known: ReadonlySet<string> = new Set(),
): { help: true } | ({ help: false } & ArgsOf<C>) {
  if (asksHelp(argv)) return { help: true }
  const options = Object.fromEntries(
    Object.entries(spec.options).map(([key, o]) => [
      key,
      { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) },
    ]),
  )
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: spec.operands !== undefined })
  } catch (error) {
    throw new UsageError(usageMessage(error as Error, name, known), usageLine(name, spec))
  }
  checkChoices(spec, parsed.values)
  return { help: false, positionals: parsed.positionals, ...withDefaults(spec, parsed.values) } as {
    help: false
  } & ArgsOf<C>
}

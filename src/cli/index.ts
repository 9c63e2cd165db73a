import { parseArgs } from 'node:util'
import { type CliIO, UsageError, writeLine } from './io'
import { reportFailure } from './failure'
import { guardProcess } from './process-guard'
import { type CommandSpec, JSON_OUTPUT, ROOT, commandHelp, optionRows, parseCommand, synopsis } from './options'
import { type Args, COMMANDS, type CommandName, KNOWN_OPTIONS } from './command-table'
import { MissingPeerError, loadWithPeers } from '../own/peers'
import { packageVersion } from '../own/version'

type Handler<N extends CommandName> = (args: Args<N>, io: CliIO) => Promise<number>

/**
 * Each command's module is loaded when it runs: `validate` does not load the MCP server, the
 * browser launcher or the test runner (their packages took a third of a second to load). A
 * command on an optional peer (`mcp`) is loaded through `loadWithPeers`. Its options are declared
 * in `./registry` (one entry per command); TypeScript refuses a command without its loader here.
 */
const LOADERS: { [N in CommandName]: () => Promise<Handler<N>> } = {
  validate: async () => (await import('./commands/validate')).validateCommand,
  match: async () => (await import('./commands/lookup')).matchCommand,
  context: async () => (await import('./commands/lookup')).contextCommand,
  run: async () => (await import('./commands/run')).runCommand,
  types: async () => (await import('./commands/types')).typesCommand,
  check: async () => (await import('./commands/check')).checkCommand,
  schema: async () => (await import('./commands/schema')).schemaCommand,
  new: async () => (await import('./commands/new')).newCommand,
  test: async () => (await import('./commands/test')).testCommand,
  snapshot: async () => (await import('./commands/snapshot')).snapshotCommand,
  export: async () => (await import('./commands/export')).exportCommand,
  mcp: () => loadWithPeers('mcp', async () => (await import('./commands/mcp')).mcpCommand),
  pack: () => loadWithPeers('pack', async () => (await import('./commands/pack')).packCommand),
}

const SHORT_USAGE = 'usage: site-skills <command> [options]'
const SPECS = COMMANDS as Record<CommandName, CommandSpec>
const NAMES = Object.keys(COMMANDS) as CommandName[]
/** The options most commands share, listed once below the commands rather than on each. */
const SHARED = { ...ROOT, ...JSON_OUTPUT, compat: COMMANDS.validate.options.compat }

/** `site-skills --help`: every command with its own options, then the shared ones. */
export function globalHelp(): string {
  const omit = new Set(Object.keys(SHARED))
  const commands = NAMES.flatMap((name) => [`  ${synopsis(name, SPECS[name], omit)}`, `      ${SPECS[name].summary}`])
  const version = { type: 'boolean', short: 'v', help: 'the package version' } as const
  const help = { type: 'boolean', short: 'h', help: 'this help (after a command: its own)' } as const
  return [
    SHORT_USAGE,
    '',
    'commands:',
    ...commands,
    '',
    'options (site-skills COMMAND --help lists those a command takes):',
    ...optionRows({ ...SHARED, help, version }),
  ].join('\n')
}

const TOP_LEVEL = { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } } as const

/** What comes before a command: `--help` and `--version` only. */
function parseTopLevel(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: TOP_LEVEL })
  } catch {
    const option = argv.find((a) => a.startsWith('-') && !['--help', '-h', '--version', '-v'].includes(a)) ?? argv[0]!
    const after = KNOWN_OPTIONS.has(option.split('=')[0]!) ? ': options go after the command' : ''
    throw new UsageError(`unknown option ${JSON.stringify(option)}${after}`)
  }
}

/** Before a command: `--help` (`--help COMMAND` is that command's help) and `--version`. */
function topLevel(argv: string[], io: CliIO): number {
  const parsed = parseTopLevel(argv)
  const [name] = parsed.positionals
  if (parsed.values.help && name && Object.hasOwn(COMMANDS, name))
    writeLine(io.stdout, commandHelp(name, SPECS[name as CommandName]))
  else if (parsed.values.help) writeLine(io.stdout, globalHelp())
  else if (parsed.values.version) writeLine(io.stdout, packageVersion())
  else throw new UsageError(`the command comes first: site-skills ${name ?? '<command>'} ${argv[0]}`)
  return 0
}

async function runCommand<N extends CommandName>(name: N, argv: string[], io: CliIO): Promise<number> {
  const spec = SPECS[name]
  const args = parseCommand(name, spec, argv, KNOWN_OPTIONS)
  if (args.help) {
    writeLine(io.stdout, commandHelp(name, spec))
    return 0
  }
  const { help: _, ...values } = args
  const handler = await (LOADERS[name] as () => Promise<Handler<N>>)()
  return handler(values as unknown as Args<N>, io)
}

/** Runs the CLI and returns its exit code: 0 ok, 1 failure, 2 bad usage. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [first, ...rest] = argv
  const name = first && Object.hasOwn(COMMANDS, first) ? (first as CommandName) : undefined
  try {
    if (first === undefined) {
      writeLine(io.stderr, `${SHORT_USAGE}\ncommands: ${NAMES.join(', ')} (see site-skills --help)`)
      return 2
    }
    if (first.startsWith('-')) return topLevel(argv, io)
    if (!name) throw new UsageError(`unknown command ${JSON.stringify(first)}`)
    return await runCommand(name, rest, io)
  } catch (error) {
    if (error instanceof UsageError) {
      if (error.usage) writeLine(io.stderr, `site-skills: ${error.message}\n${error.usage}`)
      else writeLine(io.stderr, `site-skills: ${error.message} (see site-skills${name ? ` ${name}` : ''} --help)`)
      return 2
    }
    if (error instanceof MissingPeerError) {
      writeLine(io.stderr, `site-skills: ${error.message}`)
      return 2
    }
    return reportFailure(io, error)
  }
}

export function runCli(): void {
  const io: CliIO = { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env }
  const finish = guardProcess(io)
  main(process.argv.slice(2), io).then(finish)
}

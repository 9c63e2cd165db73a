import { type CliIO, type ParsedArgs, UsageError, parseCliArgs, writeLine } from './args'
import { packageVersion } from './version'
import { contextCommand, matchCommand } from './commands/lookup'
import { newCommand } from './commands/new'
import { runCommand } from './commands/run'
import { schemaCommand } from './commands/schema'
import { typesCommand } from './commands/types'
import { validateCommand } from './commands/validate'

type Command = (args: ParsedArgs, io: CliIO) => Promise<number>

const COMMANDS: Record<string, Command> = {
  validate: validateCommand,
  match: matchCommand,
  context: contextCommand,
  run: runCommand,
  types: typesCommand,
  schema: schemaCommand,
  new: newCommand,
}

const SHORT_USAGE = 'usage: site-skills <command> [options]'
const HELP_POINTER = '(see site-skills --help)'

export const USAGE = `${SHORT_USAGE}

commands:
  validate [DIR...]            check every skill; exit 1 on any error
  match URL...                 which skills apply to each URL
  context URL                  notes and tool signatures for a URL, as an agent gets them
  run SITE TOOL --args JSON    run a Node or browser tool (--cdp ws://...|HOST:PORT, --target ID|URL)
  types [--out FILE]           write the declarations of virtual:site-skills (- for stdout)
  schema                       print the manifest JSON Schema
  new ID --domain D            scaffold a skill that validates clean

options:
  --root DIR        a learnings root (repeatable; default ./learnings, $SITE_SKILLS_ROOT,
                    or $EGO_BROWSER_AGENT_WORKSPACE/learnings)
  --json            machine output on stdout, nothing else
  --compat ego-lite also reject what the original ego-lite runtime cannot load
  --help, -h        this help
  --version, -v     the package version`

/** Runs the CLI and returns its exit code: 0 ok, 1 failure, 2 bad usage. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  try {
    const args = parseCliArgs(argv)
    const [name, ...positionals] = args.positionals
    if (args.help) writeLine(io.stdout, USAGE)
    else if (args.version) writeLine(io.stdout, packageVersion())
    if (args.help || args.version) return 0
    if (!name) {
      writeLine(io.stderr, `${SHORT_USAGE}\ncommands: ${Object.keys(COMMANDS).join(', ')} ${HELP_POINTER}`)
      return 2
    }
    const command = COMMANDS[name]
    if (!command) throw new UsageError(`unknown command ${JSON.stringify(name)}`)
    return await command({ ...args, positionals }, io)
  } catch (error) {
    if (error instanceof UsageError) {
      writeLine(io.stderr, `site-skills: ${error.message} ${HELP_POINTER}`)
      return 2
    }
    writeLine(io.stderr, `site-skills: ${(error as Error).stack ?? String(error)}`)
    return 1
  }
}

export function runCli(): void {
  const io: CliIO = { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env }
  main(process.argv.slice(2), io).then((code) => {
    process.exitCode = code
  })
}

import { type CliIO, type ParsedArgs, UsageError, parseCliArgs, writeLine } from './args'
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

export const USAGE = `usage: site-skills <command> [options]

commands:
  validate [DIR...]            check every skill; exit 1 on any error
  match URL...                 which skills apply to each URL
  context URL                  notes and tool signatures for a URL, as an agent gets them
  run SITE TOOL --args JSON    run a Node or browser tool (--cdp ws://...|HOST:PORT, --target ID|URL)
  types [--out FILE]           write the TypeScript declarations of virtual:site-skills
  schema                       print the manifest JSON Schema
  new ID --domain D            scaffold a skill that validates clean

options:
  --root DIR        a learnings root (repeatable; default ./learnings, $SITE_SKILLS_ROOT,
                    or $EGO_BROWSER_AGENT_WORKSPACE/learnings)
  --json            machine output on stdout, nothing else
  --compat ego-lite also reject what the original ego-lite runtime cannot load`

/** Runs the CLI and returns its exit code: 0 ok, 1 failure, 2 bad usage. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  try {
    const args = parseCliArgs(argv)
    const [name, ...positionals] = args.positionals
    if (args.help || !name) {
      writeLine(args.help ? io.stdout : io.stderr, USAGE)
      return args.help ? 0 : 2
    }
    const command = COMMANDS[name]
    if (!command) throw new UsageError(`unknown command ${JSON.stringify(name)}`)
    return await command({ ...args, positionals }, io)
  } catch (error) {
    if (error instanceof UsageError) {
      writeLine(io.stderr, `site-skills: ${error.message}\n\n${USAGE}`)
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

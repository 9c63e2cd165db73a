import { type CliIO, type ParsedArgs, UsageError, parseCliArgs, writeLine } from './args'
import { reportFailure } from './failure'
import { guardProcess } from './guard'
import { MissingPeerError, loadWithPeers } from '../package/peers'
import { packageVersion } from '../package/version'

type Command = (args: ParsedArgs, io: CliIO) => Promise<number>

/**
 * Each command's module is loaded when it runs: `validate` does not load the MCP server, the
 * browser launcher or the test runner (their packages took a third of a second to load). A
 * command on an optional peer (`mcp`) is loaded through `loadWithPeers`.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
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
  mcp: () => loadWithPeers('mcp', async () => (await import('./commands/mcp')).mcpCommand),
}

const SHORT_USAGE = 'usage: site-skills <command> [options]'
const HELP_POINTER = '(see site-skills --help)'

export const USAGE = `${SHORT_USAGE}

commands:
  validate [DIR...]            check every skill; exit 1 on any error
  match URL...                 which skills apply to each URL
  context URL                  notes and tool signatures for a URL, as an agent gets them
                               (--tokens: their tokens per tool, note and skill; needs gpt-tokenizer)
  run SITE TOOL --args JSON    run a Node or browser tool (--cdp ws://...|HOST:PORT, --target ID|URL)
                               (--url URL: the page a Node tool is about; default: the --target page's)
  types [--out FILE]           write the declarations of virtual:site-skills (- for stdout)
  check [--out FILE] [--watch] validate, write the declarations, type-check every tool against its manifest
  schema                       print the manifest JSON Schema
  new ID --domain D            scaffold a skill that validates clean
  test [SITE...]               run the tools' examples on their saved pages; exit 1 on any failure
                               (--live: also on the live pages; --cdp HOST:PORT: in that browser)
  snapshot URL --site ID       save the open tab at URL as a fixture (--cdp HOST:PORT, --name NAME)
  mcp                          an MCP server of the skills' tools, run in browser tabs
                               (--tools page|all|search, default all within 4,000 tokens, else
                               search; --cdp HOST:PORT|ws://..., else a headless browser; --allow
                               SITE, --deny SITE repeatable; --http PORT for Streamable HTTP, else
                               stdio; --allow-write DIR: authoring tools that write the root DIR;
                               needs npm i -D @modelcontextprotocol/sdk gpt-tokenizer)

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
    const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined
    if (!load) throw new UsageError(`unknown command ${JSON.stringify(name)}`)
    return await (await load())({ ...args, positionals }, io)
  } catch (error) {
    if (error instanceof UsageError) {
      writeLine(io.stderr, `site-skills: ${error.message} ${HELP_POINTER}`)
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

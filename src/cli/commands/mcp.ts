import { realpath } from 'node:fs/promises'
import { resolve } from 'node:path'
import { isSiteToolError } from '../../../runtime/index'
import { type Root, effectiveRoot, rootPath } from '../../compiler/discover/roots'
import { scanRoot } from '../../compiler/discover/skills'
import { TOOLS_MODES, type ToolsMode } from '../../mcp/tool-catalog'
import { runMcp } from '../../mcp/index'
import type { SkillFilter } from '../../mcp/watched-skills'
import { resolveBrowser } from '../../cdp/endpoint'
import { loadTokenizer } from '../../tokens/tokenizer'
import { MissingPeerError } from '../../own/peers'
import { type CliIO, UsageError, writeLine } from '../io'
import { cdpChoice } from '../cdp-choice'
import { checkSkillIds, existingRoots } from '../compile-roots'
import { compatOf } from '../roots'
import type { Args } from '../command-table'

function portOf(text: string, flag: string, allowZero: boolean): number {
  const port = Number(text)
  if (!/^\d+$/.test(text) || port > 65535 || (port === 0 && !allowZero))
    throw new UsageError(`${flag} needs a port from ${allowZero ? 0 : 1} to 65535, not ${JSON.stringify(text)}`)
  return port
}

/** `--max-sessions` and `--session-idle`: whole numbers of at least 1. */
function countOf(text: string | undefined, flag: string, fallback: number): number {
  if (text === undefined) return fallback
  const count = Number(text)
  if (!/^\d+$/.test(text) || count < 1 || count > 1_000_000)
    throw new UsageError(`${flag} needs a whole number from 1 to 1000000, not ${JSON.stringify(text)}`)
  return count
}

/** The session limits of `--http`: 64 at once, closed after 30 idle minutes, unless told otherwise. */
function sessionLimits(args: Args<'mcp'>) {
  return {
    max: countOf(args['max-sessions'], '--max-sessions', 64),
    idleMs: countOf(args['session-idle'], '--session-idle', 1800) * 1000,
  }
}

/** The tokenizer the default needs is named as `mcp`'s own peer. */
function asMcpPeer(error: unknown): never {
  if (error instanceof MissingPeerError) throw new MissingPeerError('mcp', error.peer, error.outdated)
  throw error
}

function toolsMode(text: string | undefined): ToolsMode | undefined {
  if (text === undefined || (TOOLS_MODES as readonly string[]).includes(text)) return text as ToolsMode | undefined
  throw new UsageError(`--tools accepts ${TOOLS_MODES.join(', ')}, not ${JSON.stringify(text)}`)
}

/**
 * `--allow-write DIR`: DIR must be one of the roots (a workspace stands for its learnings/, as a
 * root does). Returns the real path of the root it names, and the real paths of every root.
 */
async function writableRoot(dir: string, roots: readonly Root[], cwd: string) {
  const real = async (path: string) => effectiveRoot(await realpath(path).catch(() => resolve(cwd, path)))
  const all = await Promise.all(roots.map((root) => real(root.path)))
  const wanted = await real(resolve(cwd, dir))
  if (!all.includes(wanted))
    throw new UsageError(
      `--allow-write ${dir} is not one of the roots (${roots.map(rootPath).join(', ')}): ` +
        'the server writes only a root it serves; pass it as --root too',
    )
  return { dir: wanted, roots: all }
}

/**
 * `--allow` and `--deny`, refused when they name a skill no root holds (a typo would serve nothing,
 * silently) or leave nothing to serve. With `--allow-write` an allowed skill may be one still to write.
 */
async function skillFilter(args: Args<'mcp'>, roots: readonly Root[]): Promise<SkillFilter> {
  const filter = { allow: args.allow, deny: args.deny }
  const known = (await Promise.all(roots.map(scanRoot))).flatMap((scan) => scan.folders.map((f) => f.id))
  if (args['allow-write'] === undefined) checkSkillIds(filter.allow, known, '--allow')
  checkSkillIds(filter.deny, known, '--deny')
  if (filter.allow.length > 0 && filter.allow.every((id) => filter.deny.includes(id)))
    throw new UsageError(`--deny takes every skill --allow gives (${filter.allow.join(', ')}): nothing would be served`)
  return filter
}

/** `site-skills mcp`: serves the site tools to MCP clients until stdin closes or a signal. */
export async function mcpCommand(args: Args<'mcp'>, io: CliIO): Promise<number> {
  const choice = cdpChoice(args)
  const http = args.http === undefined ? undefined : portOf(args.http, '--http', true)
  const sessions = sessionLimits(args)
  const mode = toolsMode(args.tools)
  // The default counts the tokens of its list: without the tokenizer it exits 2 before it starts anything.
  if (!mode) await loadTokenizer().catch(asMcpPeer)
  const roots = await existingRoots(args, io)
  const filter = await skillFilter(args, roots)
  const allowWrite =
    args['allow-write'] === undefined ? undefined : await writableRoot(args['allow-write'], roots, io.cwd)
  const log = (line: string) => writeLine(io.stderr, `site-skills mcp: ${line}`)
  try {
    const browser = choice && (await resolveBrowser(choice))
    const options = { roots, compat: compatOf(args), browser, http, sessions, mode, filter, log }
    await runMcp(allowWrite ? { ...options, allowWrite } : options)
    return 0
  } catch (error) {
    if (!isSiteToolError(error)) throw error
    log(`${error.code}: ${error.message}`)
    return 1
  }
}

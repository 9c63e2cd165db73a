/**
 * Optional peer dependencies: packages a command needs that `npm i -D unplugin-site-skills` does
 * not install (Vitest's `--ui` convention). A command that needs one is loaded through
 * `loadWithPeers`; when the package is missing or too old, the CLI exits 2 with the line to install it.
 */
import { ownManifest } from './version'

/** The packages each command (or feature) loads beyond the package's own dependencies. */
export const COMMAND_PEERS = {
  // The MCP SDK (v2): the server, and its Node.js HTTP adapter; installed together.
  mcp: ['@modelcontextprotocol/server', '@modelcontextprotocol/node'],
  // Token counts: `context --tokens`, `tokenBudget`, and the MCP server's default mode.
  tokens: ['gpt-tokenizer'],
  // The secret scan of `site-skills pack`: secretlint and its recommended rules, installed together.
  pack: ['@secretlint/core', '@secretlint/secretlint-rule-preset-recommend'],
} as const satisfies Record<string, readonly string[]>

type PeerCommand = keyof typeof COMMAND_PEERS

/** Commands whose peers are installed as one set: the npm i line names them all. */
const TOGETHER: Record<string, readonly string[]> = { mcp: COMMAND_PEERS.mcp, pack: COMMAND_PEERS.pack }

/** How the error names what needs the peer (a command by its name). */
const NEEDS: Record<string, string> = { tokens: 'token counts need' }

/** A command's optional peer is not installed where the package imports it from, or is too old. */
export class MissingPeerError extends Error {
  constructor(
    readonly command: string,
    readonly peer: string,
    readonly outdated: boolean,
  ) {
    const range = ownManifest().peerDependencies?.[peer]
    const spec = outdated && range ? `${peer}@${range}` : (TOGETHER[command]?.join(' ') ?? peer)
    const what = outdated ? `a newer ${peer} than the one installed` : `${peer}, which is not installed`
    super(`${NEEDS[command] ?? `${command} needs`} ${what}: run npm i -D ${spec}`)
    this.name = 'MissingPeerError'
  }
}

/** A package name in a path or specifier, `@scope/name` or `name` (either slash on Windows). */
const PACKAGE_NAME = "((?:@[^/'\\\\]+[/\\\\])?[^/'\\\\]+)"
/** `Cannot find package 'zod' imported from ...` (ERR_MODULE_NOT_FOUND). */
const MISSING_RE = new RegExp(`^Cannot find (?:package|module) '${PACKAGE_NAME}`)
/** `Package subpath './x' is not defined by "exports" in .../node_modules/NAME/package.json`. */
const NO_SUBPATH_RE = new RegExp(`node_modules[/\\\\]${PACKAGE_NAME}[/\\\\]package\\.json`)
/** `Cannot find module '.../node_modules/NAME/dist/x'`: a file the package's exports map to is not there. */
const NO_FILE_RE = new RegExp(`^Cannot find module '[^']*node_modules[/\\\\]${PACKAGE_NAME}[/\\\\]`)
/** `The requested module 'NAME/x.js' does not provide an export named 'y'` (a SyntaxError at link time). */
const NO_EXPORT_RE = new RegExp(`^The requested module '${PACKAGE_NAME}[^']*' does not provide an export named`)

const normalName = (name: string) => name.replace(/\\/g, '/')

/** The package a failed import could not find (`@scope/name` without a subpath), or undefined. */
export function missingPackage(error: unknown): string | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  if (code !== 'ERR_MODULE_NOT_FOUND' || typeof message !== 'string') return undefined
  const name = MISSING_RE.exec(message)?.[1]
  return name && normalName(name)
}

/** The package whose installed version lacks what a failed import asked of it, or undefined. */
export function outdatedPackage(error: unknown): string | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  if (typeof message !== 'string') return undefined
  const re =
    code === 'ERR_PACKAGE_PATH_NOT_EXPORTED'
      ? NO_SUBPATH_RE
      : code === 'ERR_MODULE_NOT_FOUND'
        ? NO_FILE_RE
        : error instanceof SyntaxError
          ? NO_EXPORT_RE
          : undefined
  const name = re?.exec(message)?.[1]
  return name && normalName(name)
}

/** Runs `load` (a dynamic import); a missing or outdated peer of `command` becomes a MissingPeerError. */
export async function loadWithPeers<T>(command: PeerCommand, load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (error) {
    const peers: readonly string[] = COMMAND_PEERS[command]
    const missing = missingPackage(error)
    if (missing && peers.includes(missing)) throw new MissingPeerError(command, missing, false)
    const outdated = outdatedPackage(error)
    if (outdated && peers.includes(outdated)) throw new MissingPeerError(command, outdated, true)
    throw error
  }
}

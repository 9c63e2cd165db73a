/**
 * Optional peer dependencies: packages a command needs that `npm i -D unplugin-site-skills` does
 * not install (Vitest's `--ui` convention). A command that needs one is loaded through
 * `loadWithPeers`; when the package is missing, the CLI exits 2 with the line to install it.
 */

/** The packages each command loads beyond the package's own dependencies, by command. */
export const COMMAND_PEERS = {
  // zod is the SDK's own required peer: npm installs it with the SDK, other clients may not.
  mcp: ['@modelcontextprotocol/sdk', 'zod'],
} as const satisfies Record<string, readonly string[]>

/** A command's optional peer is not installed where the package can import it from. */
export class MissingPeerError extends Error {
  constructor(
    readonly command: string,
    readonly packages: readonly string[],
  ) {
    const names = packages.join(' ')
    super(`${command} needs ${names}, which is not installed: run npm i -D ${names}`)
    this.name = 'MissingPeerError'
  }
}

const MISSING_PACKAGE_RE = /^Cannot find (?:package|module) '((?:@[^/']+\/)?[^/']+)/

/** The package a failed import could not find (`@scope/name` without a subpath), or undefined. */
export function missingPackage(error: unknown): string | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  if (code !== 'ERR_MODULE_NOT_FOUND' || typeof message !== 'string') return undefined
  return MISSING_PACKAGE_RE.exec(message)?.[1]
}

/** Runs `load` (a dynamic import); a missing package among `command`'s peers becomes a MissingPeerError. */
export async function loadWithPeers<T>(command: keyof typeof COMMAND_PEERS, load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (error) {
    const missing = missingPackage(error)
    const peers: readonly string[] = COMMAND_PEERS[command]
    if (missing && peers.includes(missing)) throw new MissingPeerError(command, [missing])
    throw error
  }
}

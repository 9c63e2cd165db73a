import { existsSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import type { NodeToolFunction } from '../../../../runtime/index'
import { compileNodeTool } from '../../../session/node-tools'
import type { NodeToolLoader } from '../../../session/session'
import { runSandboxed } from './run-sandboxed'

/** An example may run this long when its tool names no `timeoutMs`, and never longer than MAX_MS. */
const EXAMPLE_MS = 15_000
const MAX_MS = 60_000
/** The JavaScript heap of an example's process (MB). */
const HEAP_MB = 128

/** Where a sandboxed run may read and write. */
export interface Grants {
  /** The folder of the skill the tools run from: a copy that holds no link (see copySkill), read-only. */
  skillDir: string
  /** The writable root: the node_modules folders above it are readable (packages a tool imports). */
  root: string
  /** The one folder the run may write. */
  scratch: string
}

/** Every node_modules folder from `dir` up: where a tool's imports of packages resolve. */
function packageFolders(dir: string): string[] {
  const found: string[] = []
  for (let at = dir; ; at = dirname(at)) {
    const folder = join(at, 'node_modules')
    if (existsSync(folder)) found.push(`${folder}/`)
    if (dirname(at) === at) return found
  }
}

/**
 * Node tools that run in a sandboxed child process (see runSandboxed), from the folder of
 * `grants`: a tool of a skill compiled elsewhere (its real folder `from`) runs from the copy there.
 */
export function sandboxedTools(grants: Grants, from?: string): NodeToolLoader {
  const reads = [`${grants.skillDir}/`, ...packageFolders(grants.root)]
  return async (_model, tool) => {
    const source = from ? join(grants.skillDir, relative(from, tool.absPath)) : tool.absPath
    const file = await compileNodeTool(source, grants.skillDir)
    const limits = { ms: Math.min(tool.timeoutMs ?? EXAMPLE_MS, MAX_MS), heapMb: HEAP_MB }
    const run: NodeToolFunction = (ctx, args) =>
      runSandboxed({
        file,
        callable: tool.callable ?? tool.name,
        args,
        ctx,
        reads: [...reads, file],
        scratch: grants.scratch,
        outside: join(grants.root, '.site-skills-outside'),
        limits,
        signal: (ctx as { signal?: AbortSignal } | undefined)?.signal,
      })
    return run
  }
}

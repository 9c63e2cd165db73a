import { completed, messageOf, SiteToolError, siteToolError } from './errors'
import type { NodeToolFunction } from './skill-data'

export interface NodeCall {
  siteId: string
  tool: string
  fn: NodeToolFunction
  ctx: unknown
  args: Record<string, unknown>
  timeoutMs?: number
  file?: string
}

/** How calls without a timer fail once the event loop runs dry: then nothing is left that could settle them. */
const idle = new Set<() => void>()
let watching = false

function onIdle(fail: () => void): () => void {
  const p = globalThis.process
  if (!watching && typeof p?.on === 'function') {
    watching = true
    p.on('beforeExit', () => {
      for (const f of idle) f()
    })
  }
  idle.add(fail)
  return () => idle.delete(fail)
}

/**
 * Races a call against its limit: a timer, which keeps the process alive while the call is pending;
 * without one, the moment nothing is left to run that could settle it.
 */
function withLimit<T>(work: Promise<T>, ms: number | undefined, fail: (late: boolean) => Error): Promise<T> {
  let stop = () => {}
  const limit = new Promise<never>((_, reject) => {
    if (!ms) stop = onIdle(() => reject(fail(false)))
    else {
      const timer = setTimeout(() => reject(fail(true)), ms)
      stop = () => clearTimeout(timer)
    }
  })
  return Promise.race([work, limit]).finally(() => stop())
}

/**
 * Calls a Node tool as `fn(ctx, args)` (`args` the registry's copy); failures become SiteToolErrors naming
 * the site and tool. A tool that overruns `timeoutMs` is a `timeout`, even a synchronous one that
 * finished late; one whose promise can never settle (the process has nothing left to run) is `never-settled`.
 */
export async function callNodeTool(call: NodeCall): Promise<unknown> {
  const { siteId, tool, file, timeoutMs } = call
  const at = { siteId, tool, file }
  const { args } = call
  const late = () => siteToolError('timeout', { after: timeoutMs ?? 0 }, at)
  const fail = (timed: boolean) => (timed ? late() : siteToolError('never-settled', {}, at))
  const started = Date.now()
  try {
    const result = await withLimit((async () => call.fn(call.ctx, args))(), timeoutMs, fail)
    if (timeoutMs && Date.now() - started > timeoutMs) throw late()
    return result
  } catch (error) {
    if (error instanceof SiteToolError && error.siteId === siteId) throw error
    // A SiteToolError of a call the tool made itself: its message, as the catalog words it.
    throw siteToolError('tool-threw', { message: messageOf(await completed(error)) }, { ...at, cause: error })
  }
}

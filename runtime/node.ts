import { copyArgs } from './args'
import { messageOf, SiteToolError, siteToolError } from './errors'
import type { NodeToolFunction } from './types'

export interface NodeCall {
  siteId: string
  tool: string
  fn: NodeToolFunction
  ctx: unknown
  args: Record<string, unknown>
  timeoutMs?: number
  file?: string
}

/** Races a promise against a timer; the timer never keeps the process alive. */
function withTimeout<T>(work: Promise<T>, ms: number | undefined, onTimeout: () => Error): Promise<T> {
  if (!ms) return work
  let timer: ReturnType<typeof setTimeout> | undefined
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms)
    ;(timer as { unref?: () => void }).unref?.()
  })
  return Promise.race([work, limit]).finally(() => clearTimeout(timer))
}

/**
 * Calls a Node tool as `fn(ctx, args)` with a copy of `args`; failures become SiteToolErrors naming
 * the site and tool. A tool that overruns `timeoutMs` is a `timeout`, even a synchronous one that
 * finished late.
 */
export async function callNodeTool(call: NodeCall): Promise<unknown> {
  const { siteId, tool, file, timeoutMs } = call
  const at = { siteId, tool, file }
  const args = copyArgs(call.args, at)
  const late = () => siteToolError('timeout', { after: timeoutMs ?? 0 }, at)
  const started = Date.now()
  try {
    const result = await withTimeout((async () => call.fn(call.ctx, args))(), timeoutMs, late)
    if (timeoutMs && Date.now() - started > timeoutMs) throw late()
    return result
  } catch (error) {
    if (error instanceof SiteToolError && error.siteId === siteId) throw error
    throw siteToolError('tool-threw', { message: messageOf(error) }, { ...at, cause: error })
  }
}

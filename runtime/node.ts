import { SiteToolError } from './errors'
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

/** Calls a Node tool as `fn(ctx, args)`; failures become SiteToolErrors naming the site and tool. */
export async function callNodeTool(call: NodeCall): Promise<unknown> {
  const { siteId, tool, file } = call
  const work = (async () => call.fn(call.ctx, call.args))()
  try {
    return await withTimeout(work, call.timeoutMs, () => new SiteToolError('timeout', `timed out after ${call.timeoutMs} ms`, { siteId, tool, file }))
  } catch (error) {
    if (error instanceof SiteToolError && error.siteId === siteId) throw error
    throw new SiteToolError('tool-threw', (error as Error)?.message ?? String(error), { siteId, tool, file, cause: error })
  }
}

/**
 * What a WebMCP call of a registered tool returns (webmcp-page.ts): the text a model reads of a
 * `runBrowserTool` result over `site-skills mcp` (SPEC 12). Compact text; over the tool's
 * `resultBudget`, a page of it with `pageInfo` and a `cursor` the tool takes as an argument (its
 * inputSchema has it, as toolDefinitions gives it). The page is cut here, in the page, from the
 * whole result: a call with a cursor runs the tool again and cuts the same place (pages.ts), and a
 * cursor of one host is good for the other, since both digest the same site, tool and arguments.
 * Bundled into the page code: pure, and nothing of the compiler.
 */
import { CURSOR_ARG } from './definitions'
import { compactText } from './compact'
import { siteToolError } from './errors'
import { pageResult } from './pages'
import { resultJson } from './result-json'

/** The call a result belongs to. */
interface ResultCall {
  siteId: string
  tool: string
  file: string
  /** The tool's `resultBudget` (else the default). */
  budget?: number
  /** Whether its results are paged: not when the tool declares a `cursor` of its own. */
  paged: boolean
}

/** A call's own arguments and the cursor it was given (kept in the arguments of a tool that declares its own). */
export function cursorOf(
  call: ResultCall,
  args: Record<string, unknown>,
): { own: Record<string, unknown>; cursor?: string } {
  if (!call.paged || !Object.hasOwn(args, CURSOR_ARG)) return { own: args }
  const { [CURSOR_ARG]: cursor, ...own } = args
  if (cursor === undefined) return { own }
  if (typeof cursor !== 'string')
    throw siteToolError('invalid-cursor', { reason: 'malformed' }, { siteId: call.siteId, tool: call.tool })
  return { own, cursor }
}

/** The result as compact text: the whole of it within the budget, else the page the cursor asks for. */
export function resultText(call: ResultCall, own: Record<string, unknown>, cursor: string | undefined, value: unknown) {
  const from = { siteId: call.siteId, tool: call.tool, file: call.file }
  if (!call.paged) {
    resultJson(value, from)
    return compactText(value)
  }
  const page = pageResult(value, { ...from, args: own, cursor, budget: call.budget })
  return compactText(page.value)
}

import { SiteToolError, type SiteToolErrorCode } from './errors'
import { LINE0_SHIFT } from './page-code'
import { originalPosition, type OriginalPosition, type SourceMapLike } from './sourcemap'

/** Who a call is for, as error messages and fields name it. */
export interface CallInfo {
  siteId: string
  tool: string
  /** The tool's file relative to its root. */
  file?: string
  map?: SourceMapLike
  /** The sourceURL the tool runs under. */
  url: string
}

/** `Runtime.ExceptionDetails`, the fields used here. */
export interface ExceptionDetails {
  text: string
  lineNumber: number
  columnNumber: number
  scriptId?: string
  exception?: { type: string; value?: unknown; description?: string }
}

/** Failures of a CDP command, by message (CRI, Puppeteer and Playwright word them alike). */
const FAILURES: [RegExp, SiteToolErrorCode, string][] = [
  [/Cannot find context|Could not find object|context was destroyed|navigated or closed|Render process gone/i, 'context-lost', 'the page navigated or closed while the tool ran'],
  [/WebSocket|not open|closed|detached|disconnect|ECONNRE|socket hang up/i, 'disconnected', 'the connection to the browser was lost'],
  [/Execution was terminated/, 'timeout', 'the tool was terminated'],
  [/reference chain|returned by value/i, 'invalid-result', 'the tool returned a value that cannot be sent back (cyclic or not JSON-like)'],
]

/** Errors that mean the cached handle of the page's global object is gone and nothing ran. */
export const STALE_HANDLE_RE = /Cannot find context with specified id|Could not find object with given id/

/** Maps a failed CDP command to a typed error (a SiteToolError passes through). */
export function cdpFailure(error: unknown, call: CallInfo): SiteToolError {
  if (error instanceof SiteToolError) return error
  const text = error instanceof Error ? error.message : String(error)
  const [, code, message] = FAILURES.find(([re]) => re.test(text)) ?? [, 'cdp-error' as const, 'the DevTools command failed']
  return new SiteToolError(code, `${message}: ${text}`, { siteId: call.siteId, tool: call.tool, cause: error })
}

const FRAME_RE = /^\s+at (?:.*\()?(.+?):(\d+):(\d+)\)?$/gm

/** 0-based positions in the sent function of the stack frames that belong to the tool. */
function toolFrames(details: ExceptionDetails, url: string): [number, number][] {
  const frames: [number, number][] = []
  for (const m of (details.exception?.description ?? '').matchAll(FRAME_RE)) {
    if (m[1] === url) frames.push([Number(m[2]) - 1, Number(m[3]) - 1])
  }
  if (frames.length === 0 && details.scriptId) frames.push([details.lineNumber, details.columnNumber])
  return frames
}

/** The tool's own position of the innermost frame, preferring the skill's files over packages. */
function locate(details: ExceptionDetails, call: CallInfo): OriginalPosition | undefined {
  const map = call.map
  if (!map) return undefined
  const found = toolFrames(details, call.url).flatMap(([line, column]) => {
    const at = originalPosition(map, line, line === 0 ? column - LINE0_SHIFT : column)
    return at ? [at] : []
  })
  return found.find((p) => !p.source.includes('node_modules/')) ?? found[0]
}

/** The thrown value as a message: an Error's description without its stack, else the value. */
function thrownMessage(details: ExceptionDetails): string {
  const exception = details.exception
  if (!exception) return details.text
  if (exception.type === 'string') return String(exception.value)
  const text = exception.description ?? String(exception.value)
  const stack = text.search(/\n\s+at /)
  return stack < 0 ? text : text.slice(0, stack)
}

/** A `tool-threw` error with the message and, through the source map, the tool's own file and line. */
export function toolThrew(details: ExceptionDetails, call: CallInfo): SiteToolError {
  const at = locate(details, call)
  const where = at ? { file: at.source, line: at.line, column: at.column } : { file: call.file }
  return new SiteToolError('tool-threw', `threw ${thrownMessage(details)}`, { siteId: call.siteId, tool: call.tool, cause: details, ...where })
}

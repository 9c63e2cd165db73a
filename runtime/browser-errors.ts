/**
 * How a failed call becomes a SiteToolError. Loaded on the first failure (browser.ts imports it
 * then): a call that succeeds never needs it, nor the source-map decoder it uses.
 */
import { SiteToolError, siteToolError } from './errors'
import { LINE0_SHIFT } from './page-code'
import { cycleAt } from './text'
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
  /** Columns before the tool's source on line 0 of its script: LINE0_SHIFT unless said. */
  shift?: number
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
const FAILURES: [RegExp, 'context-lost' | 'disconnected' | 'timeout' | 'invalid-result'][] = [
  [/find context|find object|context was destroyed|navigated or closed|process gone/i, 'context-lost'],
  [/WebSocket|closed|detached|disconnect|ECONN|hang up/i, 'disconnected'],
  [/Execution was terminated/, 'timeout'],
  [/reference chain|returned by value/i, 'invalid-result'],
]

/** Maps a failed CDP command to a typed error (a SiteToolError passes through). */
export function cdpFailure(error: unknown, call: CallInfo): SiteToolError {
  if (error instanceof SiteToolError) return error
  const text = error instanceof Error ? error.message : String(error)
  const code = FAILURES.find(([re]) => re.test(text))?.[1] ?? 'cdp-error'
  return siteToolError(code, { cdp: text }, { ...call, cause: error })
}

/** A result the page found to refer back to an object that contains it (see RESULT_CHECK), at `path`. */
export function cyclicResult(path: string, call: CallInfo): SiteToolError {
  return siteToolError('invalid-result', { json: cycleAt(path) }, call)
}

const FRAME_RE = /^\s+at (?:.*\()?(.+?):(\d+):(\d+)\)?$/gm

/**
 * The tool's own position of the innermost frame in the sent function (stack frames under its
 * sourceURL, else the throw position), preferring the skill's files over packages.
 */
function locate(details: ExceptionDetails, call: CallInfo): OriginalPosition | undefined {
  const map = call.map
  if (!map) return undefined
  const frames = [...(details.exception?.description ?? '').matchAll(FRAME_RE)]
    .filter((m) => m[1] === call.url)
    .map((m): [number, number] => [Number(m[2]) - 1, Number(m[3]) - 1])
  if (frames.length === 0 && details.scriptId) frames.push([details.lineNumber, details.columnNumber])
  const found = frames
    .map(([line, column]) => originalPosition(map, line, line ? column : column - (call.shift ?? LINE0_SHIFT)))
    .filter((p) => p !== undefined)
  return found.find((p) => !p.source.includes('node_modules/')) ?? found[0]
}

/** A `tool-threw` error: the thrown value (an Error without its stack) and the tool's own position. */
export function toolThrew(details: ExceptionDetails, call: CallInfo): SiteToolError {
  const e = details.exception
  const text = e ? (e.type === 'string' ? String(e.value) : (e.description ?? String(e.value))) : details.text
  const at = locate(details, call)
  const where = at ? { file: at.source, line: at.line, column: at.column } : { file: call.file }
  const thrown = text.split(/\n\s+at /)[0] ?? ''
  return siteToolError('tool-threw', { thrown }, { ...call, cause: details, ...where })
}

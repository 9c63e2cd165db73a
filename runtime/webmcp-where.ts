/**
 * Where in its own file a registered tool threw (webmcp-page.ts), as `runBrowserTool` says it: the
 * innermost stack frame inside the tool's source in the script (frames name WEBMCP_SCRIPT_URL, and
 * the tool's source starts at its `line`; what comes before, the page code, is above it, and a tool
 * reaches no other tool's source), mapped through the tool's source map, preferring the skill's
 * files over packages. Bundled into the page code: pure, bounded by the stack it reads.
 */
import { type OriginalPosition, originalPosition } from './sourcemap'

/** The sourceURL of the script that registers the tools (webmcp-script.ts ends it with this). */
export const WEBMCP_SCRIPT_URL = 'site-skills-webmcp.js'

/** The tool as the script holds it: where its source starts, and its map. */
interface PlacedTool {
  line: number
  map?: { sources: string[]; mappings: string }
}

/** The most characters of a stack read, of a frame's line, and frames looked at: a deep recursion's stack is long. */
const STACK_MAX = 16_384
const LINE_MAX = 1_024
const FRAMES_MAX = 64

/** The stack of what was thrown, when it is an Error's (a string, else undefined). */
function stackOf(error: unknown): string | undefined {
  try {
    const stack = (error as { stack?: unknown } | null)?.stack
    return typeof stack === 'string' ? stack.slice(0, STACK_MAX) : undefined
  } catch {
    return undefined
  }
}

/**
 * A V8 frame line, `at name (url:line:column)` or `at url:line:column`: its url and 1-based line
 * and column. Read with indexOf, not a pattern: a thrown message may hold lines the page wrote.
 */
function frameOf(text: string): [string, number, number] | undefined {
  const frame = text.trim()
  if (frame.length > LINE_MAX || !frame.startsWith('at ')) return undefined
  const open = frame.lastIndexOf('(')
  const place = frame.endsWith(')') && open >= 0 ? frame.slice(open + 1, -1) : frame.slice(3)
  const columnAt = place.lastIndexOf(':')
  const lineAt = place.lastIndexOf(':', columnAt - 1)
  if (lineAt < 0) return undefined
  const [line, column] = [Number(place.slice(lineAt + 1, columnAt)), Number(place.slice(columnAt + 1))]
  if (!(Number.isInteger(line) && line > 0 && Number.isInteger(column) && column > 0)) return undefined
  return [place.slice(0, lineAt), line, column]
}

/** The tool's own file, line and column of a throw, when its stack and map tell; else nothing. */
export function throwSite(error: unknown, tool: PlacedTool): Partial<{ file: string; line: number; column: number }> {
  const map = tool.map
  const stack = map && stackOf(error)
  if (!stack) return {}
  const found: OriginalPosition[] = []
  let frames = 0
  // The message's lines come first (a message may hold lines that look like frames: they map nowhere).
  for (const text of stack.split('\n')) {
    const frame = frameOf(text)
    if (frame && ++frames > FRAMES_MAX) break
    const line = frame ? frame[1] - 1 - tool.line : -1
    if (frame?.[0] !== WEBMCP_SCRIPT_URL || line < 0) continue
    const at = originalPosition(map, line, frame[2] - 1)
    if (at) found.push(at)
  }
  const at = found.find((p) => !p.source.includes('node_modules/')) ?? found[0]
  return at ? { file: at.source, line: at.line, column: at.column } : {}
}

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

/** The most characters of a stack read, and frames looked at: a deep recursion's stack is long. */
const STACK_MAX = 16_384
const FRAMES_MAX = 64
const FRAME_RE = /^\s+at (?:.*\()?(.+?):(\d+):(\d+)\)?$/gm

/** The stack of what was thrown, when it is an Error's (a string, else undefined). */
function stackOf(error: unknown): string | undefined {
  try {
    const stack = (error as { stack?: unknown } | null)?.stack
    return typeof stack === 'string' ? stack.slice(0, STACK_MAX) : undefined
  } catch {
    return undefined
  }
}

/** The tool's own file, line and column of a throw, when its stack and map tell; else nothing. */
export function throwSite(error: unknown, tool: PlacedTool): Partial<{ file: string; line: number; column: number }> {
  const map = tool.map
  const stack = map && stackOf(error)
  if (!stack) return {}
  const found: OriginalPosition[] = []
  let frames = 0
  for (const m of stack.matchAll(FRAME_RE)) {
    if (++frames > FRAMES_MAX) break
    const line = Number(m[2]) - 1 - tool.line
    if (m[1] !== WEBMCP_SCRIPT_URL || line < 0) continue
    const at = originalPosition(map, line, Number(m[3]) - 1)
    if (at) found.push(at)
  }
  const at = found.find((p) => !p.source.includes('node_modules/')) ?? found[0]
  return at ? { file: at.source, line: at.line, column: at.column } : {}
}

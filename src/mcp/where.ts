import { pathToFileURL } from 'node:url'

/** 1-based position in a file. */
export interface Location {
  line: number
  column: number
}

/**
 * Where a Node tool threw: the first frame of the error's stack inside the tool's own file
 * (imported as `file://...?v=...`). Undefined when the stack does not show that file (a `.ts`
 * tool runs from its compiled copy).
 */
export function nodeThrowLocation(error: unknown, absPath: string): Location | undefined {
  const stack = (error as { stack?: unknown } | undefined)?.stack
  if (typeof stack !== 'string') return undefined
  const href = pathToFileURL(absPath).href
  for (const frame of stack.split('\n')) {
    const at = frame.indexOf(href)
    if (at < 0) continue
    const match = /^(?:\?[^:\s)]*)?:(\d+):(\d+)/.exec(frame.slice(at + href.length))
    if (match) return { line: Number(match[1]), column: Number(match[2]) }
  }
  return undefined
}

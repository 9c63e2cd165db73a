import { BASE64 } from '../../runtime/internal'

/**
 * Source map `mappings` written a segment at a time (read with the runtime's `forEachSegment`): a
 * batch of tools has many thousands of segments (see expressions.ts).
 */

function vlq(value: number): string {
  let rest = value < 0 ? -value * 2 + 1 : value * 2
  let text = ''
  do {
    const digit = rest % 32
    rest = Math.floor(rest / 32)
    text += BASE64[rest > 0 ? digit + 32 : digit]
  } while (rest > 0)
  return text
}

/** Builds `mappings` from segments given in order of generated line and column (one source). */
export interface MappingsWriter {
  add: (line: number, column: number, sourceLine?: number, sourceColumn?: number) => void
  toString: () => string
}

export function createMappingsWriter(): MappingsWriter {
  // Pieces joined once at the end: a string grown by `+=` stays a tree of thousands of small
  // strings until something flattens it (about 100 MiB at 10,000 skills).
  const pieces: string[] = []
  let line = 0
  let column = 0
  let lineStarted = false
  let lastSourceLine = 0
  let lastSourceColumn = 0
  return {
    add(toLine, toColumn, sourceLine, sourceColumn) {
      if (toLine > line) {
        pieces.push(';'.repeat(toLine - line))
        line = toLine
        column = 0
        lineStarted = false
      }
      if (lineStarted) pieces.push(',')
      lineStarted = true
      pieces.push(vlq(toColumn - column))
      column = toColumn
      if (sourceLine === undefined || sourceColumn === undefined) return
      pieces.push('A', vlq(sourceLine - lastSourceLine), vlq(sourceColumn - lastSourceColumn))
      lastSourceLine = sourceLine
      lastSourceColumn = sourceColumn
    },
    toString: () => pieces.join(''),
  }
}

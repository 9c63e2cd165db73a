import { BASE64 } from '../../runtime/internal'

/**
 * Source map `mappings`, read and written a segment at a time without building objects: a batch of
 * tools has hundreds of thousands of segments (see expressions.ts).
 */

/** Base64 digit values by character code (-1: not a digit). */
const DIGITS = new Int8Array(128).fill(-1)
for (let i = 0; i < BASE64.length; i++) DIGITS[BASE64.charCodeAt(i)] = i

const SEMICOLON = 59
const COMMA = 44

/**
 * Calls `visit` for every segment of `mappings` in order, with absolute positions (0-based);
 * `source` is -1 for a segment that maps to nothing. Names are skipped.
 */
export function forEachSegment(
  mappings: string,
  visit: (line: number, column: number, source: number, sourceLine: number, sourceColumn: number) => void,
): void {
  const fields = [0, 0, 0, 0, 0]
  let count = 0
  let line = 0
  let column = 0
  let source = 0
  let sourceLine = 0
  let sourceColumn = 0
  let value = 0
  let shift = 1
  for (let i = 0; i <= mappings.length; i++) {
    const code = i < mappings.length ? mappings.charCodeAt(i) : SEMICOLON
    if (code === COMMA || code === SEMICOLON) {
      if (count > 0) {
        column += fields[0]!
        if (count < 4) visit(line, column, -1, 0, 0)
        else {
          source += fields[1]!
          sourceLine += fields[2]!
          sourceColumn += fields[3]!
          visit(line, column, source, sourceLine, sourceColumn)
        }
        count = 0
      }
      if (code === SEMICOLON) {
        line++
        column = 0
      }
      continue
    }
    const digit = code < 128 ? DIGITS[code]! : -1
    if (digit < 0) throw new Error(`site-skills: not a source map digit: ${JSON.stringify(mappings[i])}`)
    value += (digit & 31) * shift
    if (digit & 32) shift *= 32
    else {
      if (count < 5) fields[count] = value % 2 ? -(value - 1) / 2 : value / 2
      count++
      value = 0
      shift = 1
    }
  }
}

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

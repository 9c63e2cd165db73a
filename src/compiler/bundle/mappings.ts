import { BASE64 } from '../../../runtime/internal'

/**
 * Source map `mappings` written a segment at a time (read with the runtime's `forEachSegment`): a
 * batch of tools has many thousands of segments (see expressions.ts).
 */

const BASE64_CODES = Uint8Array.from(BASE64, (c) => c.charCodeAt(0))
const SEMICOLON = 59
const COMMA = 44
const A = 65

/**
 * Builds `mappings` from segments given in order of generated line and column (one source), then
 * `take()` returns them and starts over. The characters go into one growing byte buffer, made into
 * a string once: no string per segment (hundreds of thousands in a cold build), and one writer
 * serves every tool of a batch in turn.
 */
export interface MappingsWriter {
  add: (line: number, column: number, sourceLine?: number, sourceColumn?: number) => void
  take: () => string
}

export function createMappingsWriter(): MappingsWriter {
  let bytes = new Uint8Array(1024)
  let length = 0
  let line = 0
  let column = 0
  let lineStarted = false
  let lastSourceLine = 0
  let lastSourceColumn = 0
  /** Room for `count` more bytes. */
  const reserve = (count: number) => {
    if (length + count <= bytes.length) return
    const grown = new Uint8Array(Math.max(bytes.length * 2, length + count))
    grown.set(bytes.subarray(0, length))
    bytes = grown
  }
  const vlq = (value: number) => {
    // Five bits a digit: any safe integer fits in 11.
    reserve(11)
    let rest = value < 0 ? -value * 2 + 1 : value * 2
    do {
      const digit = rest % 32
      rest = Math.floor(rest / 32)
      bytes[length++] = BASE64_CODES[rest > 0 ? digit + 32 : digit]!
    } while (rest > 0)
  }
  const push = (byte: number) => {
    reserve(1)
    bytes[length++] = byte
  }
  return {
    add(toLine, toColumn, sourceLine, sourceColumn) {
      if (toLine > line) {
        reserve(toLine - line)
        for (; line < toLine; line++) bytes[length++] = SEMICOLON
        column = 0
        lineStarted = false
      }
      if (lineStarted) push(COMMA)
      lineStarted = true
      vlq(toColumn - column)
      column = toColumn
      if (sourceLine === undefined || sourceColumn === undefined) return
      push(A)
      vlq(sourceLine - lastSourceLine)
      vlq(sourceColumn - lastSourceColumn)
      lastSourceLine = sourceLine
      lastSourceColumn = sourceColumn
    },
    take() {
      const text = Buffer.from(bytes.buffer, 0, length).toString('latin1')
      length = 0
      line = 0
      column = 0
      lineStarted = false
      lastSourceLine = 0
      lastSourceColumn = 0
      return text
    },
  }
}

import { BASE64 } from '../../runtime/internal'

/** One segment of a source map, with absolute positions (0-based); no source when it maps to nothing. */
export interface Segment {
  line: number
  column: number
  source?: number
  sourceLine?: number
  sourceColumn?: number
}

/** Base64 digit values by character code (-1: not a digit). */
const DIGITS = new Int8Array(128).fill(-1)
for (let i = 0; i < BASE64.length; i++) DIGITS[BASE64.charCodeAt(i)] = i

const SEMICOLON = 59
const COMMA = 44

/**
 * Every segment of `mappings`, in order, with the deltas summed (names are dropped). One pass over
 * the characters: a batch of tools has thousands of segments.
 */
export function decodeMappings(mappings: string): Segment[] {
  const out: Segment[] = []
  const fields: number[] = []
  let line = 0
  let column = 0
  let source = 0
  let sourceLine = 0
  let sourceColumn = 0
  let value = 0
  let shift = 0
  const flush = () => {
    if (fields.length === 0) return
    column += fields[0]!
    if (fields.length < 4) out.push({ line, column })
    else {
      source += fields[1]!
      sourceLine += fields[2]!
      sourceColumn += fields[3]!
      out.push({ line, column, source, sourceLine, sourceColumn })
    }
    fields.length = 0
  }
  for (let i = 0; i < mappings.length; i++) {
    const code = mappings.charCodeAt(i)
    if (code === COMMA || code === SEMICOLON) {
      flush()
      if (code === SEMICOLON) {
        line++
        column = 0
      }
      continue
    }
    const digit = code < 128 ? DIGITS[code]! : -1
    if (digit < 0) throw new Error(`site-skills: not a source map digit: ${JSON.stringify(mappings[i])}`)
    value += (digit & 31) * 2 ** shift
    if (digit & 32) shift += 5
    else {
      fields.push(value % 2 ? -(value - 1) / 2 : value / 2)
      value = shift = 0
    }
  }
  flush()
  return out
}

function vlq(value: number): string {
  let rest = value < 0 ? (-value << 1) | 1 : value << 1
  let text = ''
  do {
    const digit = rest & 31
    rest >>>= 5
    text += BASE64[rest > 0 ? digit | 32 : digit]
  } while (rest > 0)
  return text
}

/** The `mappings` text of segments sorted by generated line and column. */
export function encodeMappings(segments: readonly Segment[]): string {
  const lines: string[][] = []
  const state = [0, 0, 0]
  let line = -1
  let column = 0
  for (const s of segments) {
    while (line < s.line) {
      lines.push([])
      line++
      column = 0
    }
    let text = vlq(s.column - column)
    column = s.column
    if (s.source !== undefined) {
      const fields = [s.source, s.sourceLine!, s.sourceColumn!]
      for (let i = 0; i < 3; i++) {
        text += vlq(fields[i]! - state[i]!)
        state[i] = fields[i]!
      }
    }
    lines[line]!.push(text)
  }
  return lines.map((l) => l.join(',')).join(';')
}

import { BASE64, decodeSegment } from '../../runtime/internal'

/** One segment of a source map, with absolute positions (0-based); no source when it maps to nothing. */
export interface Segment {
  line: number
  column: number
  source?: number
  sourceLine?: number
  sourceColumn?: number
}

/** Every segment of `mappings`, in order, with the deltas summed (names are dropped). */
export function decodeMappings(mappings: string): Segment[] {
  const out: Segment[] = []
  const state = [0, 0, 0]
  mappings.split(';').forEach((text, line) => {
    let column = 0
    for (const segment of text.split(',')) {
      if (!segment) continue
      const fields = decodeSegment(segment)
      column += fields[0]!
      if (fields.length < 4) {
        out.push({ line, column })
        continue
      }
      for (let i = 0; i < 3; i++) state[i]! += fields[i + 1]!
      out.push({ line, column, source: state[0]!, sourceLine: state[1]!, sourceColumn: state[2]! })
    }
  })
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

/** A position in an original file: `source` as listed in the map, `line` and `column` 1-based. */
export interface OriginalPosition {
  source: string
  line: number
  column: number
}

/** The two fields of a version-3 source map that positions need. */
export interface SourceMapLike {
  sources: string[]
  mappings: string
}

export const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Base64 digit values by character code (-1: not a digit). */
const DIGITS = new Int8Array(128).fill(-1)
for (let i = 0; i < BASE64.length; i++) DIGITS[BASE64.charCodeAt(i)] = i

/**
 * Calls `visit` for each segment of `mappings` in order, with absolute 0-based positions; `source`
 * is -1 for a segment that maps to nothing. Names are skipped. Stops when `visit` returns a truthy value.
 * One pass over the characters, no objects per segment: a batch of tools has many thousands.
 */
export function forEachSegment(
  mappings: string,
  visit: (line: number, column: number, source: number, sourceLine: number, sourceColumn: number) => unknown,
): void {
  const fields = [0, 0, 0, 0]
  let count = 0
  let line = 0
  let column = 0
  // Source index, original line and column are deltas across the whole map, not per line.
  let source = 0
  let sourceLine = 0
  let sourceColumn = 0
  let value = 0
  let shift = 1
  for (let i = 0; i <= mappings.length; i++) {
    const code = i < mappings.length ? mappings.charCodeAt(i) : 59
    if (code === 44 || code === 59) {
      if (count > 0) {
        column += fields[0]!
        let stop: unknown
        if (count < 4) stop = visit(line, column, -1, 0, 0)
        else {
          source += fields[1]!
          sourceLine += fields[2]!
          sourceColumn += fields[3]!
          stop = visit(line, column, source, sourceLine, sourceColumn)
        }
        if (stop) return
        count = 0
      }
      if (code === 59) {
        line++
        column = 0
      }
      continue
    }
    const digit = code < 128 ? DIGITS[code]! : -1
    // Not a Base64 digit: the map is broken from here on; what came before still holds.
    if (digit < 0) return
    value += (digit & 31) * shift
    if (digit & 32) shift *= 32
    else {
      if (count < 4) fields[count] = value % 2 ? -(value - 1) / 2 : value / 2
      count++
      value = 0
      shift = 1
    }
  }
}

/**
 * Where a 0-based generated `line`/`column` comes from: the last segment of that line that starts
 * at or before `column`. Undefined when there is none, or it maps to no source.
 */
export function originalPosition(map: SourceMapLike, line: number, column: number): OriginalPosition | undefined {
  let found: [number, number, number] | undefined
  forEachSegment(map.mappings, (at, from, source, sourceLine, sourceColumn) => {
    if (at > line || (at === line && from > column)) return true
    // A one-field segment starts a range that maps to nothing.
    if (at === line) found = source < 0 ? undefined : [source, sourceLine, sourceColumn]
  })
  const source = found && map.sources[found[0]]
  return found && source !== undefined ? { source, line: found[1] + 1, column: found[2] + 1 } : undefined
}

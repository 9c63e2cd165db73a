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

/** Decodes one Base64 VLQ segment into its signed fields. */
function decodeSegment(segment: string): number[] {
  const fields: number[] = []
  let value = 0
  let shift = 0
  for (const char of segment) {
    const digit = BASE64.indexOf(char)
    value += (digit & 31) * 2 ** shift
    if (digit & 32) {
      shift += 5
    } else {
      fields.push(value % 2 ? -(value - 1) / 2 : value / 2)
      value = shift = 0
    }
  }
  return fields
}

/**
 * Where a 0-based generated `line`/`column` comes from: the last segment of that line that starts
 * at or before `column`. Undefined when there is none, or it maps to no source.
 */
export function originalPosition(map: SourceMapLike, line: number, column: number): OriginalPosition | undefined {
  const lines = map.mappings.split(';')
  // Source index, original line and column are deltas across the whole map, not per line.
  const state = [0, 0, 0]
  let found: number[] | undefined
  for (let index = 0; index <= line && index < lines.length; index++) {
    let generated = 0
    for (const segment of lines[index]!.split(',')) {
      if (!segment) continue
      const fields = decodeSegment(segment)
      generated += fields[0]!
      for (let i = 0; i < 3 && fields.length >= 4; i++) state[i]! += fields[i + 1]!
      // A one-field segment starts a range that maps to nothing.
      if (index === line && generated <= column) found = fields.length >= 4 ? state.slice() : undefined
    }
  }
  const source = found && map.sources[found[0]!]
  return found && source !== undefined ? { source, line: found[1]! + 1, column: found[2]! + 1 } : undefined
}

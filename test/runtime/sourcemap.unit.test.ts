import { describe, expect, it } from 'vitest'
import { originalPosition } from '../../runtime/sourcemap'

describe('originalPosition', () => {
  // Line 0: "AAAA" col 0 -> a.js 1:1, "IAAI" col 4 -> a.js 1:5 (column +4).
  // Line 1: "ACCC" col 0 -> b.js 2:6 (source +1, line +1, column +1), "QAAQ" col 8 -> b.js 2:14,
  // "E" col 10 -> nothing. Line 2: empty. Line 3: "ADAA" col 0 -> a.js 2:14 (source -1).
  const map = { sources: ['a.js', 'b.js'], mappings: 'AAAA,IAAI;ACCC,QAAQ,E;;ADAA' }

  it('finds the last segment at or before the column, carrying deltas across lines', () => {
    expect(originalPosition(map, 0, 0)).toEqual({ source: 'a.js', line: 1, column: 1 })
    expect(originalPosition(map, 0, 3)).toEqual({ source: 'a.js', line: 1, column: 1 })
    expect(originalPosition(map, 0, 4)).toEqual({ source: 'a.js', line: 1, column: 5 })
    expect(originalPosition(map, 1, 0)).toEqual({ source: 'b.js', line: 2, column: 6 })
    expect(originalPosition(map, 1, 9)).toEqual({ source: 'b.js', line: 2, column: 14 })
    expect(originalPosition(map, 3, 5)).toEqual({ source: 'a.js', line: 2, column: 14 })
  })

  it('returns undefined for unmapped lines and positions', () => {
    expect(originalPosition(map, 1, 10)).toBeUndefined()
    expect(originalPosition(map, 2, 0)).toBeUndefined()
    expect(originalPosition(map, 9, 0)).toBeUndefined()
    expect(originalPosition({ sources: [], mappings: '' }, 0, 0)).toBeUndefined()
  })

  it('decodes multi-digit and negative values', () => {
    // "gBAAgB": generated +16, original column +16; "2BAA3B": +27 generated, original column -27.
    const wide = { sources: ['w.js'], mappings: 'gBAAgB,2BAA3B' }
    expect(originalPosition(wide, 0, 16)).toEqual({ source: 'w.js', line: 1, column: 17 })
    expect(originalPosition(wide, 0, 43)).toEqual({ source: 'w.js', line: 1, column: 17 - 27 })
  })
})

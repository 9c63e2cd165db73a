import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import { countInPieces } from '../../src/tokens/chunks'

const plain = { disallowedSpecial: new Set<string>() }
const exact = (text: string) => countTokens(text, plain)

/** A deterministic mix of what notes and tool definitions hold: words, numbers, code, markdown, CJK, emoji. */
function mixedText(seed: number, length: number): string {
  const parts = [
    'The',
    ' quick',
    ' brown',
    ' fox',
    "'s",
    ' jumps',
    '  ',
    '   ',
    '\n',
    '\n\n',
    '\r\n',
    ' \n',
    '\t',
    '.',
    ',',
    ';',
    '!\n',
    '/',
    '//',
    'https://shop.example.com/a/b',
    ' 12345',
    '3.14',
    '`code()`',
    '{"a":1}',
    ' [x]',
    '# Title',
    '漢字',
    '仮名',
    ' é',
    'e\u0301',
    '👩‍👩‍👧',
    'ÄÖÜ',
    'CamelCase',
    'snake_case',
    "don't",
    " I'll",
    '—',
    ' ',
    '\u00a0',
  ]
  let state = seed
  let text = ''
  while (text.length < length) {
    state = (state * 1103515245 + 12345) >>> 0
    text += parts[state % parts.length]
  }
  return text
}

describe('counting in pieces', () => {
  it('gives the exact count of ordinary text however small the pieces (cut only where the pre-tokenizer cuts)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const text = mixedText(seed, 3000)
      expect(countInPieces(text, exact, { piece: 8, runBytes: 1 << 30 }), `seed ${seed}`).toBe(exact(text))
    }
  })

  it('cuts one long run at a bounded length, within 1% of the exact count', () => {
    const runs = {
      word: 'a'.repeat(6000),
      tenLetters: 'abcdefghij'.repeat(600),
      cjk: '漢字仮名交じり文'.repeat(750),
      accents: 'e\u0301'.repeat(3000),
      zwj: '👩‍👩‍👧‍👦'.repeat(500),
    }
    for (const [name, text] of Object.entries(runs)) {
      const pieces: string[] = []
      const counted = countInPieces(text, (piece) => {
        pieces.push(piece)
        return exact(piece)
      })
      expect(Math.max(...pieces.map((p) => Buffer.byteLength(p))), name).toBeLessThanOrEqual(1024 + 4)
      expect(Math.abs(counted - exact(text)) / exact(text), name).toBeLessThan(0.01)
      // No surrogate pair is split.
      expect(pieces.join(''), name).toBe(text)
      expect(
        pieces.some((p) => /^[\udc00-\udfff]|[\ud800-\udbff]$/.test(p)),
        name,
      ).toBe(false)
    }
  })

  it('counts an empty text as 0 without asking the tokenizer', () => {
    expect(countInPieces('', () => 99)).toBe(0)
  })
})

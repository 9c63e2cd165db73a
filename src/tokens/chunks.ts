/**
 * Counting in pieces, so that the work stays linear in the text. The tokenizer's byte-pair merging
 * costs the square of a pre-token's length (one long word, CJK without punctuation, combining
 * accents or ZWJ emoji took minutes: bench/RESULTS.md, "Figures behind code comments"), and what
 * it is given is a note, a tool description or a page's text: others write it.
 *
 * The text is cut where o200k_base's pre-tokenizer cuts anyway, so the sum of the pieces' counts is
 * the count of the whole: before a space that follows a non-space character (no pre-token ends in a
 * space nor starts inside one that follows a non-space), and after a line feed that a letter or a
 * digit follows. A run with no such place is cut every RUN_BYTES bytes of UTF-8; a cut there may
 * change a few tokens (measured in bench/RESULTS.md, "Figures behind code comments").
 */

/** Cut at the next safe place once a piece is this long (characters). */
const PIECE = 2048
/** The longest run without a safe place counted in one piece (UTF-8 bytes). */
const RUN_BYTES = 1024

const SPACE = 0x20
const LINE_FEED = 0x0a
const isSpace = (c: number) => c === SPACE || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x3000
const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff
const isWordStart = (c: number) => (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a)

/** The UTF-8 bytes of one UTF-16 code unit (a surrogate half: 2, so that a pair makes 4). */
const utf8Bytes = (c: number) => (c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3)

/** Whether the pre-tokenizer cuts `text` before index `i` whatever follows (see above). */
function isSafeCut(text: string, i: number): boolean {
  const c = text.charCodeAt(i)
  const before = text.charCodeAt(i - 1)
  return (c === SPACE && !isSpace(before)) || (before === LINE_FEED && isWordStart(c))
}

/** Options of `countInPieces`, for tests that force many cuts. */
export interface PieceSizes {
  piece?: number
  runBytes?: number
}

/** The tokens of `text` as the sum of `count` over its pieces (see the module's note). */
export function countInPieces(text: string, count: (piece: string) => number, sizes: PieceSizes = {}): number {
  const piece = sizes.piece ?? PIECE
  const runBytes = sizes.runBytes ?? RUN_BYTES
  let total = 0
  let start = 0
  let run = text ? utf8Bytes(text.charCodeAt(0)) : 0
  for (let i = 1; i < text.length; i++) {
    if (isSafeCut(text, i)) {
      run = 0
      if (i - start >= piece) {
        total += count(text.slice(start, i))
        start = i
      }
      continue
    }
    run += utf8Bytes(text.charCodeAt(i))
    if (run >= runBytes && !isHighSurrogate(text.charCodeAt(i))) {
      total += count(text.slice(start, i + 1))
      start = i + 1
      run = 0
    }
  }
  return start < text.length ? total + count(text.slice(start)) : total
}

/** Small text helpers of the Agent Skills export: one-line text, shell and Markdown quoting. */

/** Whitespace runs (newlines included) as one space, trimmed. */
export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim()

/** Code points, as the Agent Skills limits count characters. */
export const lengthOf = (text: string): number => [...text].length

/** At most `max` code points, cut at a word boundary where one is near, with an ellipsis. */
export function clip(text: string, max: number): string {
  const chars = [...text]
  if (chars.length <= max) return text
  const head = chars.slice(0, max - 1).join('')
  const space = head.lastIndexOf(' ')
  return `${(space > max / 2 ? head.slice(0, space) : head).replace(/[\s,;:.]+$/, '')}…`
}

/** A sentence's end: ".", "!" or "?" before a space or the end, not that of "e.g.", "i.e.", "etc.", "vs.", "cf.". */
const SENTENCE_END_RE = /(?<!\b(?:e\.g|i\.e|etc|vs|cf))[.!?](?=\s|$)/i

/** The first sentence of a description, clipped to `max` code points. */
export function firstSentence(text: string, max: number): string {
  const line = oneLine(text)
  const end = line.search(SENTENCE_END_RE)
  return clip(end === -1 ? line : line.slice(0, end), max)
}

/** A word for POSIX sh: single-quoted unless it is plainly safe. */
export function shQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

/** A Markdown code span holding `text` (fenced with more backticks than it holds in a row). */
export function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  return longest ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`
}

/** A relative path as a Markdown link target: each segment percent-encoded. */
export const linkTarget = (path: string): string => path.split('/').map(encodeURIComponent).join('/')

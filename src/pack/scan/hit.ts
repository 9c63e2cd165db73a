/**
 * What the secret scan's own readers find (`src/pack/scan/`), and the judgements they share: is a
 * value a placeholder, does it look like a secret. Every reader does work linear in its input: no
 * regular expression here has an unbounded quantifier that can restart inside the run it scans.
 */

/** One secret found at `offset` (UTF-16 index in the scanned text); `rule` names its kind. */
export interface Hit {
  offset: number
  rule: string
  message: string
}

/** A value shown in a message: its first 4 characters, the rest as stars (at most 12). */
export function mask(value: string): string {
  return `${value.slice(0, 4)}${'*'.repeat(Math.min(12, Math.max(4, value.length - 4)))}`
}

/**
 * Values that are placeholders, not secrets: `***`, `<password>`, `${PASSWORD}`, `{{token}}`,
 * `process.env.X`, `your-password`, `changeme`, ...
 */
const PLACEHOLDER_RE =
  /^(?:[*x•.?_-]{1,64}|<[^>]{0,64}>|\{\{[^}]{0,64}\}\}|\$\{[^}]{0,64}\}|\$[A-Z_][A-Z0-9_]{0,63}|%[A-Z_]{1,64}%|(?:process\.env|import\.meta\.env|os\.environ)[.[][\w'"\]]{1,64}|(?:your|my|example|sample|dummy|fake|test|placeholder|redacted|changeme|hidden|secret|password|xxx)[\w-]{0,32}|none|null|nil|undefined|true|false|string|text|current-password|new-password|on|off)$/i

export const isPlaceholder = (value: string): boolean => PLACEHOLDER_RE.test(value.trim())

/** Shannon entropy of a string, in bits per character. */
function entropy(value: string): number {
  const counts = new Map<string, number>()
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1)
  let bits = 0
  for (const n of counts.values()) bits -= (n / value.length) * Math.log2(n / value.length)
  return bits
}

/** Kinds of characters a value mixes: lower case, upper case, digits, others. */
function classes(value: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9\s]/].filter((re) => re.test(value)).length
}

/** A generated secret: 16 characters or more, no spaces, several kinds of characters, high entropy. */
export function looksRandom(value: string): boolean {
  return value.length >= 16 && value.length <= 4096 && !/\s/.test(value) && classes(value) >= 2 && entropy(value) >= 3.3
}

/**
 * A chosen password: 6 characters or more and not a plain word: a digit or a symbol, a capital
 * after the first letter, or 12 characters and more (`Required` is a word, `hunter2` is not).
 */
export function looksLikePassword(value: string): boolean {
  if (value.length < 6 || value.length > 512 || isPlaceholder(value)) return false
  return /[^A-Za-z]/.test(value) || /.[A-Z]/.test(value) || value.length >= 12
}

/*
 * How values are written into generated code (modules, the d.ts, the type-check harness): the one
 * place that decides it, so that no manifest text can end a string, a line or a comment early.
 */

/**
 * Line and paragraph separators: legal inside a string literal since ES2019, but line breaks to older parsers and to
 * TypeScript's line map.
 */
const LINE_SEPARATORS_RE = /[\u2028\u2029]/g

const escapeSeparator = (c: string) => (c === '\u2028' ? '\\u2028' : '\\u2029')

/**
 * A JSON value as JavaScript (and TypeScript) source: `JSON.stringify`, with U+2028 and U+2029
 * escaped too, so the literal stays on one line for every parser and line counter. Lone
 * surrogates come out escaped (`\udXXX`), as `JSON.stringify` writes them.
 */
export function jsValue(value: unknown): string {
  const json = JSON.stringify(value)
  return LINE_SEPARATORS_RE.test(json) ? json.replace(LINE_SEPARATORS_RE, escapeSeparator) : json
}

/**
 * An object literal's key for any string. `"__proto__": value` is the one key that sets the
 * object's prototype instead of a property: it alone is written computed (`["__proto__"]`).
 */
export function jsKey(key: string): string {
  return key === '__proto__' ? `[${jsValue(key)}]` : jsValue(key)
}

const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** The text with each lone surrogate (no UTF-8 form; URI encoding throws on it) as U+FFFD. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE_RE, '\uFFFD')
}

/** Small text helpers the runtime's core and its error catalog share. */

/** The prefix of everything the package logs. */
export const LOG_PREFIX = '[site-skills]'

/** The most characters of a value (a target, a URL, a list of ids) that a message shows. */
const SHOWN_MAX = 200

/** `text` cut to SHOWN_MAX characters, saying how long it was: a message never carries a whole value. */
export function clip(text: string, max = SHOWN_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`
}

/** `typeof`, with `null` and `array` told apart. */
export const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)

/** A JSON object: an object that is neither null nor an array (the one such check of src/ and runtime/). */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Where a result refers back to an object that contains it, in the words of `invalid-result`. */
export const cycleAt = (path: string) => `${path} refers back to an object that contains it (a cycle)`

/** A list of known ids as messages show it. */
const listed = (known: readonly string[]) => `(known: ${clip(known.join(', ')) || 'none'})`

/** A value as JSON text (clipped), or its string form when JSON has none. */
export const q = (value: unknown) => clip(JSON.stringify(value) ?? String(value))

/**
 * The messages of the codes a synchronous getter throws (`sites.typo`): part of the first load,
 * so that they are whole without waiting for the catalog.
 */
export function notFoundMessage(
  code: 'skill-not-found' | 'tool-not-found',
  d: { known?: readonly string[] } | { name: string },
): string {
  if ('name' in d) return `no site tool is named ${q(d.name)}`
  const known = d.known ? ` ${listed(d.known)}` : ''
  return code === 'skill-not-found' ? `no such site skill${known}` : `no such tool${known}`
}

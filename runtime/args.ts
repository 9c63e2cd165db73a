import { isSiteToolError, messageOf, SiteToolError, type SiteToolErrorInit } from './errors'

/** Arguments nested deeper than this are refused (Chrome drops CDP messages nested a few hundred levels). */
const MAX_ARGS_DEPTH = 64
/** Arguments larger than this, counted about as their JSON text, are refused. */
const MAX_ARGS_SIZE = 16 * 2 ** 20

/** `typeof`, with `null` and `array` told apart. */
export const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)

const refuse = (why: string, at: SiteToolErrorInit) => new SiteToolError('invalid-args', `args ${why}`, at)

/** About the JSON length of a value; throws past MAX_ARGS_DEPTH, so it never recurses deeper. */
function sizeOf(v: unknown, at: SiteToolErrorInit, depth: number): number {
  if (typeof v === 'string') return v.length + 2
  if (!v || typeof v !== 'object') return 8
  if (depth > MAX_ARGS_DEPTH) throw refuse(`are nested deeper than ${MAX_ARGS_DEPTH} levels`, at)
  let n = 2
  for (const k in v) n += k.length + 4 + sizeOf((v as Record<string, unknown>)[k], at, depth + 1)
  return n
}

/**
 * A copy of a call's arguments that the caller's own object cannot change later: an object, at
 * most MAX_ARGS_DEPTH levels deep and MAX_ARGS_SIZE large, of values `structuredClone` copies.
 * Anything else (arrays, numbers, throwing getters, proxies, functions) is `invalid-args`.
 */
export function copyArgs(args: unknown, at: SiteToolErrorInit): Record<string, unknown> {
  try {
    const type = typeOf(args)
    if (type !== 'object') throw refuse(`must be an object (got ${type})`, at)
    const check = <T>(value: T): T => {
      if (sizeOf(value, at, 0) > MAX_ARGS_SIZE) throw refuse(`are larger than ${MAX_ARGS_SIZE / 2 ** 20} MiB`, at)
      return value
    }
    // The copy is measured again: a getter may answer differently the second time.
    return check(structuredClone(check(args))) as Record<string, unknown>
  } catch (error) {
    throw isSiteToolError(error, 'invalid-args') ? error : refuse(`cannot be copied: ${messageOf(error)}`, at)
  }
}

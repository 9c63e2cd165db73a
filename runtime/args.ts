import { isSiteToolError, messageOf, type SiteToolErrorInit, siteToolError } from './errors'
import { typeOf } from './text'

/** Arguments nested deeper than this are refused (Chrome drops CDP messages nested a few hundred levels). */
const MAX_ARGS_DEPTH = 64
/** Arguments larger than this, counted about as their JSON text, are refused. */
const MAX_ARGS_SIZE = 16 * 2 ** 20

/** About the JSON length of a value; throws past MAX_ARGS_DEPTH, so it never recurses deeper. */
function sizeOf(v: unknown, at: SiteToolErrorInit, depth: number): number {
  if (typeof v === 'string') return v.length + 2
  if (!v || typeof v !== 'object') return 8
  if (depth > MAX_ARGS_DEPTH) throw siteToolError('invalid-args', { reason: 'depth', max: MAX_ARGS_DEPTH }, at)
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
    if (type !== 'object') throw siteToolError('invalid-args', { reason: 'type', type }, at)
    const check = <T>(value: T): T => {
      if (sizeOf(value, at, 0) > MAX_ARGS_SIZE)
        throw siteToolError('invalid-args', { reason: 'size', mib: MAX_ARGS_SIZE / 2 ** 20 }, at)
      return value
    }
    // The copy is measured again: a getter may answer differently the second time.
    return check(structuredClone(check(args))) as Record<string, unknown>
  } catch (error) {
    if (isSiteToolError(error, 'invalid-args')) throw error
    throw siteToolError('invalid-args', { reason: 'copy', error: messageOf(error) }, at)
  }
}

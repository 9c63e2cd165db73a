import { typeOf } from '../../runtime/internal'

const show = (value: unknown) => (value === undefined ? 'undefined' : JSON.stringify(value)?.slice(0, 80))
const isRecord = (value: unknown): value is Record<string, unknown> => typeOf(value) === 'object'

/**
 * Where `actual` fails to contain `expected`, or undefined. Objects match by key (extra keys are
 * fine), arrays by position (the actual array may be longer), other values by equality, NaN
 * matching NaN. The message names the path (`result.products[0].id`).
 */
export function findMismatch(actual: unknown, expected: unknown, path = 'result'): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path} should be an array (got ${typeOf(actual)})`
    if (actual.length < expected.length)
      return `${path} should have at least ${expected.length} items (got ${actual.length})`
    for (let i = 0; i < expected.length; i++) {
      const found = findMismatch(actual[i], expected[i], `${path}[${i}]`)
      if (found) return found
    }
    return undefined
  }
  if (isRecord(expected)) {
    if (!isRecord(actual)) return `${path} should be an object (got ${typeOf(actual)})`
    for (const [key, value] of Object.entries(expected)) {
      if (!Object.hasOwn(actual, key)) return `${path}.${key} is missing (expected ${show(value)})`
      const found = findMismatch(actual[key], value, `${path}.${key}`)
      if (found) return found
    }
    return undefined
  }
  return Object.is(actual, expected) || actual === expected
    ? undefined
    : `${path} should be ${show(expected)} (got ${show(actual)})`
}

/** Whether a value carries nothing: absent, null, an empty string, array or object. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true
  if (Array.isArray(value)) return value.length === 0
  return isRecord(value) && Object.keys(value).length === 0
}

/**
 * Fields that hold something on the fixture but nothing live (the usual sign of a selector that
 * no longer matches): paths, at most `limit`. Arrays are compared by their first item.
 */
export function findDrift(fixture: unknown, live: unknown, path = 'result', limit = 5): string[] {
  if (isEmpty(fixture)) return []
  if (isEmpty(live)) return [path]
  const out: string[] = []
  if (Array.isArray(fixture) && Array.isArray(live)) out.push(...findDrift(fixture[0], live[0], `${path}[0]`, limit))
  else if (isRecord(fixture) && isRecord(live)) {
    for (const [key, value] of Object.entries(fixture)) {
      if (out.length >= limit) break
      out.push(...findDrift(value, live[key], `${path}.${key}`, limit - out.length))
    }
  }
  return out.slice(0, limit)
}

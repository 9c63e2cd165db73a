import type { ValueSchema } from '../../runtime/index'
import { typeOf, isRecord } from '../../runtime/internal'

const show = (value: unknown) => (value === undefined ? 'undefined' : JSON.stringify(value)?.slice(0, 80))

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
 * Whether `key` of an object described by `schema` may be left out: a declared property that is
 * not required, or a key of a map (`additionalProperties` as a schema). A tool that writes such a
 * key only sometimes (`...(reason ? { error: reason } : {})`) leaves it out on purpose.
 */
function mayBeOmitted(schema: ValueSchema | undefined, key: string): boolean {
  const declared = declaredProperty(schema, key)
  if (declared) return !declared.required
  return typeof schema?.additionalProperties === 'object'
}

const declaredProperty = (schema: ValueSchema | undefined, key: string) =>
  schema?.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined

/** The schema of `key`'s value: its declared property, else the map's value schema. */
function propertySchema(schema: ValueSchema | undefined, key: string): ValueSchema | undefined {
  const extra = schema?.additionalProperties
  return declaredProperty(schema, key) ?? (typeof extra === 'object' ? extra : undefined)
}

/**
 * Fields that hold something on the fixture but nothing live (the usual sign of a selector that
 * no longer matches): paths, at most `limit`. Arrays are compared by their first item. A key left
 * out live is not drift when `returns` (`schema`) says it may be (see `mayBeOmitted`: an `error`
 * the fixture's result had and the live one has not is the page working); a key kept but empty
 * (null, "", [], {}) is.
 */
export function findDrift(fixture: unknown, live: unknown, schema?: ValueSchema, path = 'result', limit = 5): string[] {
  if (isEmpty(fixture)) return []
  if (isEmpty(live)) return [path]
  const out: string[] = []
  if (Array.isArray(fixture) && Array.isArray(live))
    out.push(...findDrift(fixture[0], live[0], schema?.items, `${path}[0]`, limit))
  else if (isRecord(fixture) && isRecord(live)) {
    for (const [key, value] of Object.entries(fixture)) {
      if (out.length >= limit) break
      if (!Object.hasOwn(live, key) && mayBeOmitted(schema, key)) continue
      out.push(...findDrift(value, live[key], propertySchema(schema, key), `${path}.${key}`, limit - out.length))
    }
  }
  return out.slice(0, limit)
}

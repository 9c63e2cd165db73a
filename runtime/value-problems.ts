import type { ValueSchema, ValueType } from './skill-data'
import { isRecord } from './text'

/** `[path, expected, actual]`, or `[name, 'absent']` for an undeclared argument (see ArgsValidator). */
type Problem = [path: string, expected: string, actual?: unknown]

const EXPECTED: Record<ValueType, [test: (v: unknown) => boolean, phrase: string]> = {
  string: [(v) => typeof v === 'string', 'a string'],
  number: [(v) => typeof v === 'number' && Number.isFinite(v), 'a number'],
  integer: [(v) => Number.isInteger(v), 'an integer'],
  boolean: [(v) => typeof v === 'boolean', 'a boolean'],
  array: [Array.isArray, 'an array'],
  object: [isRecord, 'an object'],
}

const NAME_RE = /^[A-Za-z_$][\w$]*$/

/** The display path of member `k` below `path`: `.name`, or `["odd key"]`. */
const keyPath = (path: string, k: string) => path + (NAME_RE.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`)

/** Checks one value; null passes only when the schema is `nullable` (`nullDone`: the caller has dealt with null). */
function findValueProblem(schema: ValueSchema, v: unknown, path: string, nullDone = false): Problem | undefined {
  if (schema.nullable && !nullDone && v === null) return undefined
  const [test, phrase] = EXPECTED[schema.type]
  if (!test(v)) return [path, schema.nullable ? `${phrase} or null` : phrase, v]
  if (schema.enum && !schema.enum.includes(v as never))
    return [path, `one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`, v]
  if (schema.type === 'array' && schema.items) {
    const list = v as unknown[]
    for (let i = 0; i < list.length; i++) {
      const problem = findValueProblem(schema.items, list[i], `${path}[${i}]`)
      if (problem) return problem
    }
  }
  if (schema.type === 'object') return findObjectProblem(schema, v as Record<string, unknown>, path)
  return undefined
}

/** Declared properties, then the other keys: refused (`additionalProperties: false`) or checked as map values. */
function findObjectProblem(schema: ValueSchema, v: Record<string, unknown>, path: string): Problem | undefined {
  const fields = schema.properties ?? {}
  const problem = findFieldsProblem(fields, v, path)
  const extra = schema.additionalProperties
  if (problem || extra === undefined || extra === true) return problem
  for (const k in v) {
    if (!Object.hasOwn(v, k) || Object.hasOwn(fields, k)) continue
    if (extra === false) return [keyPath(path, k), 'absent', v[k]]
    const m = v[k]
    const found = m === undefined ? undefined : findValueProblem(extra, m, keyPath(path, k))
    if (found) return found
  }
  return undefined
}

/**
 * The declared fields of object `v`. A field without `required: true` may be absent, undefined or
 * null (no value); with it, it must be present and not null, unless it is also `nullable` (then null
 * is a value, but absent is still missing). `path` '' is the top level of the args.
 */
function findFieldsProblem(fields: Record<string, ValueSchema>, v: Record<string, unknown>, path: string) {
  for (const name of Object.keys(fields)) {
    const schema = fields[name]!
    const sub = path === '' ? name : `${path}.${name}`
    const f = Object.hasOwn(v, name) ? v[name] : undefined
    let problem: Problem | undefined
    if (f === undefined || f === null) {
      if (schema.required && (!schema.nullable || f === undefined)) problem = [sub, 'present', f]
    } else problem = findValueProblem(schema, f, sub, true)
    if (problem) return problem
  }
  return undefined
}

/**
 * Checks a tool's args against its declared `args` (see ArgsValidator): required arguments, types,
 * nullable, enum values, array items, object properties and maps; undeclared top-level arguments
 * are refused.
 */
export function argsProblem(args: Record<string, ValueSchema>, value: Record<string, unknown>): Problem | undefined {
  const problem = findFieldsProblem(args, value, '')
  if (problem) return problem
  for (const k in value) if (Object.hasOwn(value, k) && !Object.hasOwn(args, k)) return [k, 'absent']
  return undefined
}

/**
 * Checks a result against a tool's `returns` (see ReturnsValidator), with paths such as
 * `result.products[0].price`. The result must be a value unless `returns.required` is false, and
 * not null unless `returns.nullable`; below it, fields follow the same rules as arguments.
 */
export function resultProblem(returns: ValueSchema, value: unknown): Problem | undefined {
  if (value === undefined || value === null) {
    if (returns.required === false || (returns.nullable && value === null)) return undefined
    return ['result', 'present', value]
  }
  return findValueProblem(returns, value, 'result', true)
}

/** Whether `returns` can be checked: the no-build API tolerates a tool whose `returns` is invalid. */
export const isValueSchema = (returns: ValueSchema | undefined): returns is ValueSchema =>
  !!returns && typeof returns === 'object' && typeof returns.type === 'string'

import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import manifestSchema from '../../../manifest.schema.json' with { type: 'json' }
import type { DiagnosticCode } from '../diagnostics/catalog'
import type { JsonPath } from '../parse'

export { manifestSchema }

/** A structural problem: code, message in the original's wording, and the JSON path it is about. */
export interface SchemaFinding {
  code: DiagnosticCode
  message: string
  /** Where to point: the member's key (or the item, for arrays). */
  path: JsonPath
}

export const TOOL_KINDS = ['nodeTools', 'browserTools'] as const
export type ToolMapKey = (typeof TOOL_KINDS)[number]

let compiled: ValidateFunction | undefined

function getValidator(): ValidateFunction {
  compiled ??= new Ajv({ allErrors: true, strict: false }).compile(manifestSchema)
  return compiled
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return []
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
}

function valueAt(data: unknown, path: JsonPath): unknown {
  let value = data
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined
    value = (value as Record<string, unknown>)[key as string]
  }
  return value
}

/** Message for a problem inside a value schema, `rest` being the path below the schema. */
function valueMessage(
  prefix: string,
  role: 'arg' | 'return',
  rest: readonly string[],
  error: ErrorObject,
  data: unknown,
  at: JsonPath,
): string {
  const [head, name, ...tail] = rest
  if (head === undefined) return `${prefix}: schema must be an object`
  if (head === 'type') return `${prefix}: invalid ${role} type ${JSON.stringify(valueAt(data, at)) ?? 'undefined'}`
  if (head === 'required') return `${prefix}: required must be a boolean`
  if (head === 'description') return `${prefix}: description must be a non-empty string`
  if (head === 'enum') return `${prefix}: enum must be a non-empty list of strings, numbers, booleans or null`
  if (head === 'items') return valueMessage(`${prefix}.items`, role, rest.slice(1), error, data, at)
  if (head === 'properties') {
    if (name === undefined) {
      return error.keyword === 'propertyNames'
        ? `${prefix}: properties contains invalid property name ${JSON.stringify(error.params.propertyName)}`
        : `${prefix}: properties must be an object keyed by property name`
    }
    return valueMessage(`${prefix}.properties.${name}`, role, tail, error, data, at)
  }
  return `${prefix}: invalid ${head}`
}

const HINTS = 'readOnlyHint, destructiveHint, idempotentHint, openWorldHint'

/** What is wrong with a tool's `annotations` (`key` is the member below it, if any). */
function annotationsMessage(key: string | undefined, error: ErrorObject): string {
  if (error.keyword === 'additionalProperties')
    return `annotations has unknown key ${JSON.stringify(error.params.additionalProperty)} (known: title, ${HINTS})`
  if (key === 'title') return 'annotations.title must be a non-empty string'
  if (key !== undefined) return `annotations.${key} must be a boolean`
  return `annotations must be an object of title and ${HINTS}`
}

function toolFinding(
  kind: string,
  segments: string[],
  error: ErrorObject,
  data: unknown,
  at: JsonPath,
): Omit<SchemaFinding, 'path'> {
  const [name, field, argName, ...rest] = segments
  const prefix = `${kind}.${name}`
  switch (field) {
    case undefined:
      return { code: 'tool-schema', message: `${prefix}: schema must be an object` }
    case 'description':
      return { code: 'tool-description', message: `${prefix}: description must be a non-empty string` }
    case 'path':
      return { code: 'tool-path', message: `${prefix}: path must be a non-empty string` }
    case 'callable':
      return { code: 'tool-callable', message: `${prefix}: callable must be a non-empty string` }
    case 'timeoutMs':
      return { code: 'tool-schema', message: `${prefix}: timeoutMs must be an integer from 1 to 3600000` }
    case 'annotations':
      return { code: 'tool-schema', message: `${prefix}: ${annotationsMessage(argName, error)}` }
    case 'args':
      if (argName === undefined) {
        return error.keyword === 'propertyNames'
          ? {
              code: 'args-invalid',
              message: `${prefix}: args contains invalid argument name ${JSON.stringify(error.params.propertyName)}`,
            }
          : { code: 'args-invalid', message: `${prefix}: args must be an object` }
      }
      return { code: 'arg-schema', message: valueMessage(`${prefix}.args.${argName}`, 'arg', rest, error, data, at) }
    case 'returns':
      if (argName === undefined) return { code: 'returns-invalid', message: `${prefix}: returns must be an object` }
      return {
        code: 'returns-invalid',
        message: valueMessage(`${prefix}.returns`, 'return', [argName, ...rest], error, data, at),
      }
    default:
      return { code: 'tool-schema', message: `${prefix}: invalid ${field}` }
  }
}

function classify(segments: string[], error: ErrorObject, data: unknown, at: JsonPath): Omit<SchemaFinding, 'path'> {
  const [head, ...rest] = segments
  switch (head) {
    case undefined:
      return { code: 'manifest-not-object', message: 'manifest.json must contain a JSON object' }
    case 'id':
      return { code: 'id-mismatch', message: 'manifest id must match directory name' }
    case 'name':
      return { code: 'name-invalid', message: 'name must be a non-empty string' }
    case 'domains':
      return error.keyword === 'minItems' || (rest.length === 0 && error.keyword === 'required')
        ? { code: 'domains-empty', message: 'domains must not be empty' }
        : { code: 'domains-invalid', message: 'domains must be a list of non-empty strings' }
    case 'notes':
      return { code: 'note-path', message: 'notes must be a list of non-empty strings' }
    case 'nodeTools':
    case 'browserTools':
      if (rest.length === 0) {
        return error.keyword === 'propertyNames'
          ? {
              code: 'tool-name',
              message: `${head} contains invalid tool name ${JSON.stringify(error.params.propertyName)}`,
            }
          : { code: 'tool-map-invalid', message: `${head} must be an object keyed by tool name` }
      }
      return toolFinding(head, rest, error, data, at)
    default:
      return { code: 'manifest-not-object', message: `invalid ${head}` }
  }
}

/**
 * Checks a manifest against manifest.schema.json and turns every ajv error into a finding with
 * a stable code and the original validator's wording. One finding per code and place.
 */
export function checkManifestSchema(data: unknown): SchemaFinding[] {
  const validate = getValidator()
  if (validate(data)) return []
  const findings = new Map<string, SchemaFinding>()
  for (const error of validate.errors ?? []) {
    if ((error as { propertyName?: string }).propertyName !== undefined) continue
    if (error.keyword === 'allOf' || error.keyword === 'not' || error.keyword === 'anyOf') continue
    const base = parsePointer(error.instancePath)
    const missing = error.keyword === 'required' ? String(error.params.missingProperty) : undefined
    const invalidName = error.keyword === 'propertyNames' ? String(error.params.propertyName) : undefined
    const segments = missing !== undefined ? [...base, missing] : base
    // Point at the offending key; a missing member is reported at its parent's key.
    const path = invalidName !== undefined ? [...base, invalidName] : base
    const finding = { ...classify(segments, error, data, segments), path }
    const key = `${finding.code}\0${finding.message}\0${path.join('\0')}`
    if (!findings.has(key)) findings.set(key, finding)
  }
  const all = [...findings.values()]
  // As in the original, a tool with an invalid name is not checked any further.
  const badNames = new Set(all.filter((f) => f.code === 'tool-name').map((f) => f.path.join('\0')))
  return all.filter((f) => f.code === 'tool-name' || !badNames.has(f.path.slice(0, 2).join('\0')))
}

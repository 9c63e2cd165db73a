import manifestSchema from '../../../manifest.schema.json' with { type: 'json' }
import { type Finding, describeFinding } from '../diagnostics/catalog'
import type { ValueProblem } from '../diagnostics/messages'
import type { ExampleInvalidData } from '../diagnostics/example-messages'
import type { JsonPath } from '../parse'
import { validate as generatedValidator } from './manifest-validator.generated'
import { misplacedValueKeys } from './value-keys'

export { manifestSchema }

/** A structural problem: its finding (in the original's wording) and the JSON path it is about. */
export type SchemaFinding = Finding & {
  /** Where to point: the member's key (or the item, for arrays). */
  path: JsonPath
}

export const TOOL_KINDS = ['nodeTools', 'browserTools'] as const
export type ToolMapKey = (typeof TOOL_KINDS)[number]

/** One error of the generated validator: the fields of ajv's `ErrorObject` read here (ajv is not loaded). */
interface SchemaError {
  keyword: string
  instancePath: string
  params: Record<string, string | undefined>
  propertyName?: string
}

/** ajv's check of manifest.schema.json, compiled ahead of time (scripts/manifest-validator.ts). */
const validateSchema = generatedValidator as ((data: unknown) => boolean) & { errors?: SchemaError[] | null }

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

/** A problem inside a value schema, `rest` being the path below the schema at `at`. */
function valueFinding(
  at: string,
  role: 'arg' | 'return',
  rest: readonly string[],
  error: SchemaError,
  given: () => unknown,
): { at: string; problem: ValueProblem } {
  const [head, name, ...tail] = rest
  const found = (problem: ValueProblem) => ({ at, problem })
  switch (head) {
    case undefined:
      return found({ field: 'schema' })
    case 'type':
      return found({ field: 'type', role, given: given() })
    case 'required':
    case 'description':
    case 'enum':
    case 'nullable':
      return found({ field: head })
    case 'items':
      return valueFinding(`${at}.items`, role, rest.slice(1), error, given)
    case 'additionalProperties':
      if (name === undefined) return found({ field: head })
      return valueFinding(`${at}.additionalProperties`, role, rest.slice(1), error, given)
    case 'properties':
      if (name !== undefined) return valueFinding(`${at}.properties.${name}`, role, tail, error, given)
      return found(
        error.keyword === 'propertyNames'
          ? { field: 'property-name', name: error.params.propertyName }
          : { field: 'properties' },
      )
    default:
      return found({ field: 'other', name: head })
  }
}

/** What is wrong in a tool's `examples` list; `rest` is the path below it. */
function exampleFinding(list: string, rest: (string | undefined)[], error: SchemaError): ExampleInvalidData {
  const [index, key] = rest
  if (index === undefined) return { example: list, problem: 'not-list' }
  const example = `${list}[${index}]`
  if (error.keyword === 'additionalProperties')
    return { example, problem: 'unknown-key', key: String(error.params.additionalProperty) }
  if (key === undefined) return { example, problem: 'not-object' }
  if (error.keyword === 'required') return { example, problem: 'args-required' }
  return { example, problem: 'field', field: key }
}

const HINTS = 'readOnlyHint, destructiveHint, idempotentHint, openWorldHint'

/** What is wrong with a tool's `annotations` (`key` is the member below it, if any). */
function annotationsMessage(key: string | undefined, error: SchemaError): string {
  if (error.keyword === 'additionalProperties')
    return `annotations has unknown key ${JSON.stringify(error.params.additionalProperty)} (known: title, ${HINTS})`
  if (key === 'title') return 'annotations.title must be a non-empty string'
  if (key !== undefined) return `annotations.${key} must be a boolean`
  return `annotations must be an object of title and ${HINTS}`
}

function toolFinding(kind: string, segments: string[], error: SchemaError, given: () => unknown): Finding {
  const [name, field, argName, ...rest] = segments
  const tool = `${kind}.${name}`
  switch (field) {
    case undefined:
    case 'timeoutMs':
      return { code: 'tool-schema', data: { tool, field } }
    case 'description':
      return { code: 'tool-description', data: { tool } }
    case 'path':
      return { code: 'tool-path', data: { tool, problem: 'empty' } }
    case 'callable':
      return { code: 'tool-callable', data: { tool } }
    case 'examples':
      return { code: 'example-invalid', data: exampleFinding(`${tool}.examples`, [argName, ...rest], error) }
    case 'annotations':
      return { code: 'tool-schema', data: { tool, field, detail: annotationsMessage(argName, error) } }
    case 'tokenBudget':
      return { code: 'token-budget-invalid', data: { at: `${tool}.tokenBudget` } }
    case 'resultBudget':
      return { code: 'result-budget-invalid', data: { at: `${tool}.resultBudget` } }
    case 'urls':
      return { code: 'url-pattern', data: { at: `${tool}.urls`, problem: 'shape' } }
    case 'webmcp':
      return { code: 'tool-schema', data: { tool, field, detail: 'webmcp must be "prefer" (or left out)' } }
    case 'args':
      if (argName !== undefined)
        return { code: 'arg-schema', data: valueFinding(`${tool}.args.${argName}`, 'arg', rest, error, given) }
      return {
        code: 'args-invalid',
        data: error.keyword === 'propertyNames' ? { tool, argName: error.params.propertyName } : { tool },
      }
    case 'returns':
      if (argName === undefined) return { code: 'returns-invalid', data: { tool } }
      return {
        code: 'returns-invalid',
        data: valueFinding(`${tool}.returns`, 'return', [argName, ...rest], error, given),
      }
    default:
      return { code: 'tool-schema', data: { tool, field } }
  }
}

function classify(segments: string[], error: SchemaError, given: () => unknown): Finding {
  const [head, ...rest] = segments
  switch (head) {
    case undefined:
      return { code: 'manifest-not-object', data: {} }
    case 'id':
      return { code: 'id-mismatch', data: {} }
    case 'name':
      return { code: 'name-invalid', data: {} }
    case 'domains':
      return error.keyword === 'minItems' || (rest.length === 0 && error.keyword === 'required')
        ? { code: 'domains-empty', data: {} }
        : { code: 'domains-invalid', data: {} }
    case 'notes':
      return { code: 'note-path', data: {} }
    case 'tokenBudget':
      return { code: 'token-budget-invalid', data: { at: 'manifest' } }
    case 'resultBudget':
      return { code: 'result-budget-invalid', data: { at: 'manifest' } }
    case 'urls':
      return { code: 'url-pattern', data: { at: 'urls', problem: 'shape' } }
    case 'nodeTools':
    case 'browserTools':
      if (rest.length === 0) {
        return error.keyword === 'propertyNames'
          ? { code: 'tool-name', data: { problem: 'pattern', map: head, name: String(error.params.propertyName) } }
          : { code: 'tool-map-invalid', data: { map: head } }
      }
      return toolFinding(head, rest, error, given)
    default:
      return { code: 'manifest-not-object', data: { member: head } }
  }
}

/**
 * Checks a manifest against manifest.schema.json and turns every ajv error into a finding with
 * a stable code and the original validator's wording. One finding per code and place.
 */
export function checkManifestSchema(data: unknown): SchemaFinding[] {
  const misplaced = misplacedValueKeys(data)
  if (validateSchema(data)) return misplaced
  const findings = new Map<string, SchemaFinding>()
  for (const error of validateSchema.errors ?? []) {
    if (error.propertyName !== undefined) continue
    if (['allOf', 'not', 'anyOf', 'if'].includes(error.keyword)) continue
    const base = parsePointer(error.instancePath)
    const missing = error.keyword === 'required' ? String(error.params.missingProperty) : undefined
    const invalidName =
      error.keyword === 'propertyNames'
        ? String(error.params.propertyName)
        : error.keyword === 'additionalProperties'
          ? String(error.params.additionalProperty)
          : undefined
    const segments = missing !== undefined ? [...base, missing] : base
    // Point at the offending key; a missing member is reported at its parent's key.
    const path = invalidName !== undefined ? [...base, invalidName] : base
    const found = classify(segments, error, () => valueAt(data, segments))
    // A budget (or a urls list's shape) is one value: its problems are reported once, at its key.
    const budgetKey = path.indexOf(found.code === 'url-pattern' ? 'urls' : 'tokenBudget')
    const whole = found.code === 'token-budget-invalid' || found.code === 'url-pattern'
    const finding = { ...found, path: whole ? path.slice(0, budgetKey + 1) : path }
    const key = `${finding.code}\0${describeFinding(finding).message}\0${finding.path.join('\0')}`
    if (!findings.has(key)) findings.set(key, finding)
  }
  const all = [...findings.values(), ...misplaced]
  // As in the original, a tool with an invalid name is not checked any further.
  const badNames = new Set(all.filter((f) => f.code === 'tool-name').map((f) => f.path.join('\0')))
  return all.filter((f) => f.code === 'tool-name' || !badNames.has(f.path.slice(0, 2).join('\0')))
}

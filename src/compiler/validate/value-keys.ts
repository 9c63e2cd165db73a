import type { Finding } from '../diagnostics/catalog'
import type { JsonPath } from '../parse'

type SchemaFinding = Finding & { path: JsonPath }

const VALUE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object'])
/** Keys that mean something only on an object schema. */
const OBJECT_ONLY = ['additionalProperties'] as const

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/** Object-only keys on a schema of another (valid) type, in this schema and the ones below it. */
function walk(schema: unknown, path: JsonPath, at: string, role: 'arg' | 'return', out: SchemaFinding[]): void {
  if (!isRecord(schema)) return
  const type = schema.type
  for (const key of OBJECT_ONLY) {
    if (!Object.hasOwn(schema, key) || type === 'object' || typeof type !== 'string' || !VALUE_TYPES.has(type)) continue
    const data = { at, problem: { field: 'object-only', key, type } } as const
    out.push({
      ...(role === 'arg' ? { code: 'arg-schema', data } : { code: 'returns-invalid', data }),
      path: [...path, key],
    })
  }
  if (Object.hasOwn(schema, 'items')) walk(schema.items, [...path, 'items'], `${at}.items`, role, out)
  if (isRecord(schema.properties) && Object.hasOwn(schema, 'properties'))
    for (const [name, inner] of Object.entries(schema.properties))
      walk(inner, [...path, 'properties', name], `${at}.properties.${name}`, role, out)
  if (Object.hasOwn(schema, 'additionalProperties'))
    walk(schema.additionalProperties, [...path, 'additionalProperties'], `${at}.additionalProperties`, role, out)
}

/**
 * Keys in a tool's value schemas that the schema's type cannot use (`additionalProperties` on a
 * string): JSON Schema would ignore them silently, so they are reported where they stand.
 */
export function misplacedValueKeys(manifest: unknown): SchemaFinding[] {
  const out: SchemaFinding[] = []
  if (!isRecord(manifest)) return out
  for (const kind of ['nodeTools', 'browserTools'] as const) {
    const tools = manifest[kind]
    if (!isRecord(tools) || !Object.hasOwn(manifest, kind)) continue
    for (const [name, tool] of Object.entries(tools)) {
      if (!isRecord(tool)) continue
      const base = [kind, name]
      if (isRecord(tool.args))
        for (const [arg, schema] of Object.entries(tool.args))
          walk(schema, [...base, 'args', arg], `${kind}.${name}.args.${arg}`, 'arg', out)
      walk(tool.returns, [...base, 'returns'], `${kind}.${name}.returns`, 'return', out)
    }
  }
  return out
}

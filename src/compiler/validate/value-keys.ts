import type { Finding } from '../diagnostics/catalog'
import type { JsonPath } from '../parse'
import { isRecord } from '../../../runtime/internal'

type SchemaFinding = Finding & { path: JsonPath }

const VALUE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object'])
/** The key that means something only on an object schema. */
const OBJECT_ONLY = 'additionalProperties'

/**
 * Object-only keys on a schema of another (valid) type, in this schema and the ones below it.
 * `path` is a stack (pushed and popped on the way down): a finding copies it, and its `at` is the
 * path written with dots.
 */
function walk(schema: unknown, path: (string | number)[], role: 'arg' | 'return', out: SchemaFinding[]): void {
  if (!isRecord(schema)) return
  const type = schema.type
  if (Object.hasOwn(schema, OBJECT_ONLY) && type !== 'object' && typeof type === 'string' && VALUE_TYPES.has(type)) {
    const data = { at: path.join('.'), problem: { field: 'object-only', key: OBJECT_ONLY, type } } as const
    out.push({
      ...(role === 'arg' ? { code: 'arg-schema', data } : { code: 'returns-invalid', data }),
      path: [...path, OBJECT_ONLY],
    })
  }
  if (Object.hasOwn(schema, 'items')) {
    path.push('items')
    walk(schema.items, path, role, out)
    path.pop()
  }
  const properties = schema.properties
  if (isRecord(properties) && Object.hasOwn(schema, 'properties')) {
    for (const name in properties) {
      if (!Object.hasOwn(properties, name)) continue
      path.push('properties', name)
      walk(properties[name], path, role, out)
      path.length -= 2
    }
  }
  if (Object.hasOwn(schema, OBJECT_ONLY)) {
    path.push(OBJECT_ONLY)
    walk(schema[OBJECT_ONLY], path, role, out)
    path.pop()
  }
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
      if (isRecord(tool.args))
        for (const [arg, schema] of Object.entries(tool.args)) walk(schema, [kind, name, 'args', arg], 'arg', out)
      walk(tool.returns, [kind, name, 'returns'], 'return', out)
    }
  }
  return out
}

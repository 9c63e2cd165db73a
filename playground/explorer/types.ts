import type { ValueSchema } from 'unplugin-site-skills/runtime'

/** A value schema written as a TypeScript type, as the generated d.ts declares it. */
export function typeText(schema: ValueSchema | undefined): string {
  if (!schema) return 'unknown'
  if (schema.enum) return schema.enum.map((e) => JSON.stringify(e)).join(' | ')
  if (schema.type === 'integer') return 'number'
  if (schema.type === 'array') return schema.items ? `${wrap(typeText(schema.items))}[]` : 'unknown[]'
  if (schema.type === 'object') return schema.properties ? fieldsText(schema.properties) : 'Record<string, unknown>'
  return schema.type
}

/** `{ a: string; b?: number }` for argument maps and object properties. */
export function fieldsText(fields: Record<string, ValueSchema>): string {
  const entries = Object.entries(fields).map(([name, s]) => `${name}${s.required ? '' : '?'}: ${typeText(s)}`)
  return entries.length ? `{ ${entries.join('; ')} }` : '{}'
}

function wrap(type: string): string {
  return /[ |]/.test(type) && !type.startsWith('{') ? `(${type})` : type
}

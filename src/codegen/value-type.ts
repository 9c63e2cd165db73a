import type { ValueSchema } from '../../runtime/index'

/*
 * How a value schema is written as a TypeScript type: the one printer, for the generated d.ts and
 * the skills explorer. Pure and without Node imports, so the explorer's page can load it too.
 */

const q = (value: unknown) => JSON.stringify(value)
const IDENTIFIER_RE = /^[A-Za-z_$][\w$]*$/

/** A description as one line of a JSDoc comment. */
export const docLine = (text: string) =>
  text
    .replace(/\*\//g, '*\\/')
    .replace(/\s*\n\s*/g, ' ')
    .trim()

function doc(text: string | undefined, indent: string): string {
  if (!text) return ''
  return `${indent}/** ${docLine(text)} */\n`
}

/**
 * The TypeScript type of a value schema. Given the indentation of the line it starts on, an object
 * type has one member a line, each after its description as JSDoc (the d.ts); without it, the type
 * is one line, keys quoted only where they must be (`{ id: string; n?: number }`).
 */
export function printValueType(schema: ValueSchema, indent?: string): string {
  if (schema.enum) return schema.enum.map((e) => q(e)).join(' | ')
  switch (schema.type) {
    case 'string':
      return 'string'
    case 'number':
    case 'integer':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'array':
      return schema.items ? `Array<${printValueType(schema.items, indent)}>` : 'unknown[]'
    case 'object':
      return schema.properties ? printFields(schema.properties, indent) : 'Record<string, unknown>'
  }
}

/** The object type of named fields (a tool's args, an object's properties), laid out as in printValueType. */
export function printFields(fields: Record<string, ValueSchema>, indent?: string): string {
  const entries = Object.entries(fields)
  if (!entries.length) return 'Record<string, never>'
  if (indent === undefined) {
    const members = entries.map(([name, s]) => `${IDENTIFIER_RE.test(name) ? name : q(name)}${member(s)}`)
    return `{ ${members.join('; ')} }`
  }
  const inner = `${indent}  `
  const members = entries.map(([name, s]) => `${doc(s.description, inner)}${inner}${q(name)}${member(s, inner)}`)
  return `{\n${members.join('\n')}\n${indent}}`
}

function member(schema: ValueSchema, indent?: string): string {
  return `${schema.required ? '' : '?'}: ${printValueType(schema, indent)}`
}

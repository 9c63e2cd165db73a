import type { ValueSchema } from '../../runtime/index'
import { jsValue } from './literal'

/*
 * How a value schema is written as a TypeScript type: the one printer, for the generated d.ts and
 * the skills explorer. Pure and without Node imports, so the explorer's page can load it too.
 */

const q = jsValue
const IDENTIFIER_RE = /^[A-Za-z_$][\w$]*$/

/** What could end a JSDoc comment or its line: `*` then `/`, and every line terminator. */
const DOC_BREAK_RE = /\*\/|[\n\r\u2028\u2029]/

/** A description as one line of a JSDoc comment (most are one already: no replacement runs for them). */
export const docLine = (text: string) =>
  !DOC_BREAK_RE.test(text)
    ? text.trim()
    : text
        .replace(/\*\//g, '*\\/')
        .replace(/\s*[\n\r\u2028\u2029]\s*/g, ' ')
        .trim()

function doc(text: string | undefined, indent: string): string {
  if (!text) return ''
  return `${indent}/** ${docLine(text)} */\n`
}

/**
 * The TypeScript type of a value schema (`| null` when it is nullable). Given the indentation of the
 * line it starts on, an object type has one member a line, each after its description as JSDoc (the
 * d.ts); without it, the type is one line, keys quoted only where they must be (`{ id: string; n?: number }`).
 */
export function printValueType(schema: ValueSchema, indent?: string): string {
  const type = baseType(schema, indent)
  return schema.nullable && !schema.enum?.includes(null) ? `${type} | null` : type
}

function baseType(schema: ValueSchema, indent: string | undefined): string {
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
      return printObject(schema, indent)
  }
}

/** The type of a tool's result: a `returns` that is not `required` may also be null or undefined. */
export function printReturnsType(returns: ValueSchema, indent?: string): string {
  return `${printValueType(returns, indent)}${returns.required === false ? ' | null | undefined' : ''}`
}

/** The object type of named fields (a tool's args), laid out as in printValueType. */
export function printFields(fields: Record<string, ValueSchema>, indent?: string): string {
  return printObject({ type: 'object', properties: fields }, indent)
}

/**
 * An object schema: its properties (`?:` without `required`), and the other keys as an index
 * signature (`additionalProperties` as a schema: a map). The signature's type also admits the
 * declared properties' types (and undefined for optional ones), as TypeScript requires.
 */
function printObject(schema: ValueSchema, indent: string | undefined): string {
  const extra = schema.additionalProperties
  const rest = extra === undefined || extra === false ? undefined : extra === true ? 'unknown' : printValueType(extra)
  const fields = Object.entries(schema.properties ?? {})
  if (!schema.properties) return `Record<string, ${rest ?? (extra === false ? 'never' : 'unknown')}>`
  if (!fields.length) return `Record<string, ${rest ?? 'never'}>`
  const signature: string[] = []
  if (rest) {
    const types = new Set([rest, ...fields.map(([, p]) => printValueType(p))])
    if (fields.some(([, p]) => !p.required)) types.add('undefined')
    signature.push(`[key: string]: ${types.has('unknown') ? 'unknown' : [...types].join(' | ')}`)
  }
  if (indent === undefined) {
    const members = fields.map(([name, s]) => `${IDENTIFIER_RE.test(name) ? name : q(name)}${member(s)}`)
    return `{ ${[...members, ...signature].join('; ')} }`
  }
  const inner = `${indent}  `
  const members = fields.map(([name, s]) => `${doc(s.description, inner)}${inner}${q(name)}${member(s, inner)}`)
  return `{\n${[...members, ...signature.map((m) => inner + m)].join('\n')}\n${indent}}`
}

function member(schema: ValueSchema, indent?: string): string {
  return `${schema.required ? '' : '?'}: ${printValueType(schema, indent)}`
}

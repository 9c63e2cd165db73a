import type { JsonSchemaType, Tool } from '@modelcontextprotocol/server'
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv'
import { SiteToolError } from '../../runtime/index'

type Schema = Record<string, unknown>
export type ArgsCheck = (args: Record<string, unknown>) => void

/**
 * A check of an own tool's arguments against its input schema (SDK's Ajv): each property in the
 * schema's order, a missing `required` one or a value its schema refuses being `invalid-args`,
 * worded `argument "url" must be a string`. `stricter` adds keywords to a property's schema for the
 * check only: the listed schema stays as short as every prompt carries it. Arguments the schema
 * does not name are let through, as they always were.
 */
export function argsCheck(
  schema: Tool['inputSchema'],
  stricter: Readonly<Record<string, Schema>> | undefined,
  validator: AjvJsonSchemaValidator,
): ArgsCheck {
  const required = new Set(schema.required ?? [])
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([name, property]) => {
    const checked = { ...property, ...stricter?.[name] } as JsonSchemaType
    return { name, type: String(property.type), valid: validator.getValidator(checked) }
  })
  return (args) => {
    for (const { name, type, valid } of properties) {
      const value = args[name]
      if (value === undefined ? required.has(name) : !valid(value).valid) {
        const article = /^[aeiou]/.test(type) ? 'an' : 'a'
        throw new SiteToolError('invalid-args', `argument "${name}" must be ${article} ${type}`)
      }
    }
  }
}

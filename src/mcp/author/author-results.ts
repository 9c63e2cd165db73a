import type { CallToolResult } from '@modelcontextprotocol/server'
import type { Diagnostic } from '../../compiler/diagnostics/catalog'

/** The key under `_meta` of an error result, as the site tools' errors carry it. */
const ERROR_META = 'site-skills/error'

/** Why an authoring call did nothing before it checked anything: `code: message`, the code under `_meta`. */
export class Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

export function refusalResult(refusal: Refusal): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `${refusal.code}: ${refusal.message}` }],
    _meta: { [ERROR_META]: { code: refusal.code } },
  }
}

/** A result as JSON text and structuredContent; `isError` when the change was not made. */
export function jsonResult(value: Record<string, unknown>, isError = false): CallToolResult {
  return {
    ...(isError ? { isError: true } : {}),
    content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
    structuredContent: value,
  }
}

/** A finding as the authoring tools return it: `at` is file:line:col below the writable root. */
export function shownDiagnostic(d: Diagnostic) {
  const { code, severity, file, line, column, message, hint } = d
  return { at: `${file}:${line}:${column}`, code, severity, message, ...(hint ? { hint } : {}) }
}

export function textArg(args: Record<string, unknown> | undefined, name: string): string {
  const value = args?.[name]
  if (typeof value !== 'string' || value === '')
    throw new Refusal('invalid-args', `argument "${name}" must be a non-empty string`)
  return value
}

export function optionalText(args: Record<string, unknown> | undefined, name: string): string | undefined {
  return args?.[name] === undefined ? undefined : textArg(args, name)
}

export const objectArg = (args: Record<string, unknown> | undefined, name: string) => {
  const value = args?.[name]
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Refusal('invalid-args', `argument "${name}" must be an object`)
  return value as Record<string, unknown>
}

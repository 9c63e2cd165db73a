import type { CallToolResult, JsonSchemaType, JsonSchemaValidator } from '@modelcontextprotocol/server'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv'
import { isSiteToolError, SiteToolError } from '../../runtime/index'
import { compactText, isWholeObject, messageOf, resultJson } from '../../runtime/internal'
import type { SiteTool } from '../listing/site-tool'
import { nodeThrowLocation } from './where'

/** The key under `_meta` of an error result: `{ code, siteId?, tool?, file?, line?, column? }`. */
const ERROR_META = 'site-skills/error'

/**
 * Checks results against the output schemas of one catalog, each schema compiled once. Made with its
 * catalog and dropped with it: its Ajv (the SDK's validator, the one its Client checks
 * structuredContent with) keeps every schema it compiled, so one shared by every catalog grew with
 * every `returns` ever served (with --allow-write, one per write).
 */
export interface ResultChecker {
  check: (schema: object, value: unknown) => { valid: boolean; errorMessage?: string }
  /** Schemas compiled so far (at most one per tool of the catalog). */
  readonly size: number
}

export function createResultChecker(): ResultChecker {
  let validator: AjvJsonSchemaValidator | undefined
  const checkers = new Map<string, JsonSchemaValidator<unknown>>()
  return {
    check(schema, value) {
      const key = JSON.stringify(schema)
      let check = checkers.get(key)
      if (!check) {
        validator ??= new AjvJsonSchemaValidator()
        check = validator.getValidator(schema as JsonSchemaType)
        checkers.set(key, check)
      }
      return check(value)
    },
    get size() {
      return checkers.size
    },
  }
}

/** A result as a call returns it: the value (a page when `paged`; see runtime/pages.ts). */
export interface CallValue {
  value: unknown
  paged: boolean
}

/**
 * A tool's result as compact text (SPEC 12) and as `structuredContent` checked against its
 * outputSchema: the result itself when it is an object that is always there, else `{ result }`; a
 * page is an object already (`pageInfo` and the result's members, or `result`). A value JSON cannot
 * hold is an `invalid-result` error. `checker` is the catalog's (see ResultChecker).
 */
export function toolResult(tool: SiteTool, { value, paged }: CallValue, checker: ResultChecker): CallToolResult {
  let text: string
  try {
    resultJson(value, { ...tool.ref, file: tool.meta.file })
    text = compactText(value)
  } catch (error) {
    return errorResult(error)
  }
  const whole = paged || isWholeObject(tool.meta.returns)
  const structured = whole ? value : { result: value ?? null }
  const checked = checker.check(tool.def.outputSchema ?? {}, structured)
  if (!checked.valid) {
    const error = new SiteToolError(
      'invalid-result',
      `the result does not match the manifest's returns: ${checked.errorMessage}`,
      { siteId: tool.ref.siteId, tool: tool.ref.tool, file: tool.meta.file },
    )
    return errorResult(error)
  }
  return { content: [{ type: 'text', text }], structuredContent: structured as Record<string, unknown> }
}

/** A failure as an MCP tool error: `isError`, the code and the tool's file:line in the text and `_meta`. */
export function errorResult(error: unknown, absPath?: string): CallToolResult {
  if (!isSiteToolError(error)) {
    const text = `internal-error: ${messageOf(error)}`
    return { isError: true, content: [{ type: 'text', text }], _meta: { [ERROR_META]: { code: 'internal-error' } } }
  }
  const { code, siteId, tool, file } = error
  let { line, column } = error
  let message = error.message
  if (file && line === undefined && absPath) {
    const at = nodeThrowLocation(error.cause, absPath)
    if (at) {
      ;({ line, column } = at)
      message = message.replace(`(${file})`, `(${file}:${line}:${column})`)
    }
  }
  const detail = Object.fromEntries(
    Object.entries({ code, siteId, tool, file, line, column }).filter(([, v]) => v !== undefined),
  )
  return { isError: true, content: [{ type: 'text', text: `${code}: ${message}` }], _meta: { [ERROR_META]: detail } }
}
export type { SiteTool } from '../listing/site-tool'

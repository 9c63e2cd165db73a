import type { CallToolResult, JsonSchemaType, JsonSchemaValidator } from '@modelcontextprotocol/server'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv'
import { isSiteToolError, SiteToolError } from '../../runtime/index'
import { messageOf, resultJson } from '../../runtime/internal'
import type { SiteTool } from './listing'
import { nodeThrowLocation } from './where'

/** The key under `_meta` of an error result: `{ code, siteId?, tool?, file?, line?, column? }`. */
const ERROR_META = 'site-skills/error'

// The SDK's own validator: the one its Client checks structuredContent with.
const validator = new AjvJsonSchemaValidator()
const checkers = new Map<string, JsonSchemaValidator<unknown>>()

function checkerFor(schema: object): JsonSchemaValidator<unknown> {
  const key = JSON.stringify(schema)
  let check = checkers.get(key)
  if (!check) {
    check = validator.getValidator(schema as JsonSchemaType)
    checkers.set(key, check)
  }
  return check
}

/**
 * A tool's return value as `structuredContent` (non-objects under `result`), checked against its
 * outputSchema; a value JSON cannot hold is an `invalid-result` error.
 */
export function toolResult(tool: SiteTool, value: unknown): CallToolResult {
  let text: string
  try {
    text = resultJson(value, { ...tool.ref, file: tool.meta.file }, 2)
  } catch (error) {
    return errorResult(error)
  }
  const structured = tool.meta.returns.type === 'object' ? value : { result: value ?? null }
  const checked = checkerFor(tool.def.outputSchema ?? {})(structured)
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
export type { SiteTool } from './listing'

import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import type { JsonSchemaType, JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import { assignToolNames, isSiteToolError, SiteToolError, type ToolRef } from '../../runtime/index'
import type { SkillMeta, ToolMeta } from '../../runtime/index'
import { messageOf } from '../../runtime/internal'
import type { LiveState } from './skills'
import { resultJson } from '../cli/result-json'
import { nodeThrowLocation } from './where'

/** The key under `_meta` of an error result: `{ code, siteId?, tool?, file?, line?, column? }`. */
const ERROR_META = 'site-skills/error'

/** A site tool as the server lists it, with what it needs to run it. */
export interface SiteTool {
  def: Tool
  ref: ToolRef
  meta: ToolMeta
}

type Schema = Record<string, unknown>

function nullable(schema: Schema): Schema {
  const type = schema.type
  const out: Schema = { ...schema, type: Array.isArray(type) ? type : [type, 'null'] }
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null]
  return out
}

/**
 * A tool's output schema as the server publishes it: the manifest's `returns`, with objects open
 * (a manifest names the fields it knows, not all) and fields that are not `required` allowed to
 * be null (the manifest format has no null type).
 */
function lenientOutput(schema: Schema): Schema {
  const out: Schema = { ...schema }
  if (out.items) out.items = lenientOutput(out.items as Schema)
  if (out.properties) {
    const required = new Set((out.required as string[] | undefined) ?? [])
    const entries = Object.entries(out.properties as Record<string, Schema>).map(([name, field]) => {
      const inner = lenientOutput(field)
      return [name, required.has(name) ? inner : nullable(inner)]
    })
    out.properties = Object.fromEntries(entries)
  }
  delete out.additionalProperties
  return out
}

/** The manifest's title, else `Site name: tool` (a site name often has parentheses of its own). */
function titleOf(skill: SkillMeta, tool: string, meta: ToolMeta): string {
  return meta.annotations?.title ?? `${skill.name}: ${tool}`
}

/** The tools of the skills that match `url` (none without a URL), as MCP lists them. */
export function siteTools(state: LiveState, url: string | undefined): SiteTool[] {
  if (!url) return []
  const defs = state.api.toolDefinitions(url)
  const skills = new Map(state.api.skills.map((s) => [s.id, s]))
  return defs.mcp.map((def) => {
    const ref = defs.names[def.name]!
    const skill = skills.get(ref.siteId)!
    const meta = skill.tools[ref.tool]!
    const { title: _, ...hints } = meta.annotations ?? {}
    const tool: Tool = {
      ...def,
      inputSchema: def.inputSchema as Tool['inputSchema'],
      outputSchema: lenientOutput(def.outputSchema) as Tool['outputSchema'],
      title: titleOf(skill, ref.tool, meta),
      annotations: { title: titleOf(skill, ref.tool, meta), ...hints },
    }
    return { def: tool, ref, meta }
  })
}

/** Every tool name of every skill loaded (matching or not), to tell "not here" from "no such tool". */
export function allToolNames(state: LiveState): Map<string, ToolRef> {
  const refs = state.api.skills.flatMap((s) => Object.keys(s.tools).map((tool) => ({ siteId: s.id, tool })))
  const names = assignToolNames(refs)
  return new Map(refs.map((r) => [names.get(`${r.siteId}\0${r.tool}`)!, r]))
}

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

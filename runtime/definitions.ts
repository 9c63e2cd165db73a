import type { ToolMeta, ValueSchema } from './types'

/** Which site tool a model-facing tool name stands for. */
export interface ToolRef {
  siteId: string
  tool: string
}

type JsonSchema = Record<string, unknown>

/** MCP `tools/list` entry. Non-object results are described as `{ result: ... }`. */
export interface McpToolDefinition {
  name: string
  description: string
  inputSchema: JsonSchema
  outputSchema: JsonSchema
}

/** Anthropic Messages API tool. */
export interface AnthropicToolDefinition {
  name: string
  description: string
  input_schema: JsonSchema
}

/** OpenAI function tool (Chat Completions shape); `strict` when the schema allows it. */
export interface OpenAIToolDefinition {
  type: 'function'
  function: { name: string; description: string; parameters: JsonSchema; strict: boolean }
}

export interface ToolDefinitions {
  mcp: McpToolDefinition[]
  anthropic: AnthropicToolDefinition[]
  openai: OpenAIToolDefinition[]
  /** Model-facing name -> site tool. */
  names: Record<string, ToolRef>
}

/**
 * Model-facing names for every tool, in order: `<siteId>__<tool>` reduced to what every provider
 * accepts (`^[a-zA-Z0-9_-]{1,64}$`) and made unique. Keyed by `siteId + "\0" + tool`.
 */
export function assignToolNames(tools: readonly ToolRef[]): Map<string, string> {
  const names = new Map<string, string>()
  const used = new Set<string>()
  for (const { siteId, tool } of tools) {
    const base = `${siteId}__${tool}`.replace(/[^\w-]/g, '_').slice(0, 60)
    let name = base
    for (let n = 2; used.has(name); n++) name = `${base}_${n}`
    used.add(name)
    names.set(`${siteId}\0${tool}`, name)
  }
  return names
}

/** Strict mode needs every object's properties and every array's items declared, and no maps. */
function isStrictable(schema: ValueSchema): boolean {
  if (schema.type === 'array') return !!schema.items && isStrictable(schema.items)
  if (schema.type === 'object')
    return !!schema.properties && !schema.additionalProperties && Object.values(schema.properties).every(isStrictable)
  return true
}

function toJsonSchema(schema: ValueSchema, strict: boolean, nullable = false): JsonSchema {
  const orNull = nullable || !!schema.nullable
  const out: JsonSchema = { type: orNull ? [schema.type, 'null'] : schema.type }
  if (schema.description) out.description = schema.description
  if (schema.enum) out.enum = orNull && !schema.enum.includes(null) ? [...schema.enum, null] : schema.enum
  if (schema.type === 'array' && schema.items) out.items = toJsonSchema(schema.items, strict)
  if (schema.type === 'object' && schema.properties)
    Object.assign(out, objectSchema(schema.properties, strict, schema.additionalProperties), { type: out.type })
  else if (schema.type === 'object' && schema.additionalProperties !== undefined)
    out.additionalProperties = extraSchema(schema.additionalProperties, strict)
  return out
}

const extraSchema = (extra: boolean | ValueSchema, strict: boolean) =>
  typeof extra === 'boolean' ? extra : toJsonSchema(extra, strict)

function objectSchema(fields: Record<string, ValueSchema>, strict: boolean, extra?: boolean | ValueSchema): JsonSchema {
  const properties: Record<string, JsonSchema> = Object.fromEntries(
    Object.entries(fields).map(([name, field]) => [name, toJsonSchema(field, strict, strict && !field.required)]),
  )
  const required = Object.keys(fields).filter((name) => strict || fields[name]!.required)
  const additionalProperties = extra === undefined ? false : extraSchema(extra, strict)
  return { type: 'object', properties, required, additionalProperties }
}

/**
 * Whether a tool's result is its own structured content: an object that is always there. Any other
 * result (a list, a string, a result that may be null, a tool without `returns`) is `{ result }`.
 */
export const isWholeObject = (returns: ValueSchema | undefined): boolean =>
  returns?.type === 'object' && returns.required !== false

/**
 * What `structuredContent` holds: the result itself (an object that is always there) or `{ result }`.
 * A paged tool's object lists no required member: a page after the first holds only `pageInfo` and
 * the paged list (runtime/pages.ts).
 */
function outputSchema(returns: ValueSchema | undefined, paged: boolean): JsonSchema {
  if (!returns?.type) return { type: 'object', properties: { result: {} }, required: ['result'] }
  const schema = toJsonSchema(returns, false, returns.required === false)
  if (!isWholeObject(returns)) return { type: 'object', properties: { result: schema }, required: ['result'] }
  if (paged) delete schema.required
  return schema
}

/**
 * The argument every tool whose results the runtime pages takes (SPEC 12), unless its own `args`
 * have one of that name (then its results are not paged; validate warns `cursor-arg`).
 */
export const CURSOR_ARG = 'cursor'
export const CURSOR_SCHEMA: ValueSchema = { type: 'string', description: 'pageInfo.cursor of the last page.' }

/** Whether the runtime pages a tool's results: not when the tool's own `args` have a `cursor` (validate warns). */
export const pagesResults = (m: Pick<ToolMeta, 'args'>): boolean => !Object.hasOwn(m.args, CURSOR_ARG)

/** A tool's arguments as models see them: its own, and `cursor` when its results are paged. */
const modelArgs = (meta: ToolMeta) => (pagesResults(meta) ? { ...meta.args, [CURSOR_ARG]: CURSOR_SCHEMA } : meta.args)

/** Model-facing definitions of the given tools in the MCP, Anthropic and OpenAI shapes. */
export function createToolDefinitions(tools: readonly (ToolRef & { name: string; meta: ToolMeta })[]): ToolDefinitions {
  const defs: ToolDefinitions = { mcp: [], anthropic: [], openai: [], names: {} }
  const names: [string, ToolRef][] = []
  for (const { siteId, tool, name, meta } of tools) {
    const description = meta.description
    const args = modelArgs(meta)
    const input = objectSchema(args, false)
    const strict = Object.values(args).every(isStrictable)
    names.push([name, { siteId, tool }])
    defs.mcp.push({
      name,
      description,
      inputSchema: input,
      outputSchema: outputSchema(meta.returns, pagesResults(meta)),
    })
    defs.anthropic.push({ name, description, input_schema: input })
    defs.openai.push({
      type: 'function',
      function: { name, description, parameters: strict ? objectSchema(args, true) : input, strict },
    })
  }
  defs.names = Object.fromEntries(names)
  return defs
}

import type { Icon, Tool } from '@modelcontextprotocol/server'
import type { SkillMeta, ToolMeta } from '../../runtime/index'
import { type ToolRef, assignToolNames, createToolDefinitions } from '../../runtime/internal'

/**
 * How `site-skills mcp` lists a site tool: the runtime's MCP definition with a title, the
 * manifest's annotations, an output schema as lenient as the check of the result, the optional
 * `tab` argument and the skill's icons. Pure (types only from the SDK): `context --tokens` and
 * `tokenBudget` count the same definitions without loading the SDK.
 */

/** The argument of every page tool that picks the tab (a handle from `site_skills_tabs`). */
export const TAB_ARG = 'tab'

/** A site tool as the server lists it, with what it needs to run it. */
export interface SiteTool {
  def: Tool
  ref: ToolRef
  meta: ToolMeta
}

type Schema = Record<string, unknown>

const TAB_PROPERTY = {
  type: 'string',
  description: 'The tab to run in: an id from site_skills_tabs. Default: your active tab.',
}

function nullable(schema: Schema): Schema {
  const type = schema.type
  const out: Schema = { ...schema, type: Array.isArray(type) ? type : [type, 'null'] }
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null]
  return out
}

/**
 * A tool's output schema as the server publishes it: the manifest's `returns`, with objects open
 * (a manifest names the fields it knows, not all; a page adds `pageInfo`), fields that are not
 * `required` allowed to be null (the manifest format has no null type), and no descriptions: the
 * schema travels in every `tools/list`, and the tool's description says what it returns.
 */
function lenientOutput(schema: Schema): Schema {
  const { description: _, ...out } = schema
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

/** Whether the server adds its `tab` argument: not to a tool that declares an argument of that name. */
export function takesTab(meta: ToolMeta): boolean {
  return !Object.hasOwn(meta.args, TAB_ARG)
}

function withTab(input: Schema, meta: ToolMeta): Schema {
  if (!takesTab(meta)) return input
  return { ...input, properties: { ...(input.properties as Schema), [TAB_ARG]: TAB_PROPERTY } }
}

/**
 * An object schema with `type`, `properties` and `required` first: the order in which MCP clients
 * (the SDK's schema) hold a tool's schemas, so that the text counted is the text they keep.
 */
function clientOrder(schema: Schema): Schema {
  const { type, properties, required, ...rest } = schema
  return {
    type,
    ...(properties === undefined ? {} : { properties }),
    ...(required === undefined ? {} : { required }),
    ...rest,
  }
}

/** One site tool as listed. */
export function listedTool(skill: SkillMeta, tool: string, name: string, icons?: readonly Icon[]): SiteTool {
  const meta = skill.tools[tool]!
  const ref = { siteId: skill.id, tool }
  const def = createToolDefinitions([{ ...ref, name, meta }]).mcp[0]!
  // The manifest's title, else `Site name: tool` (a site name often has parentheses of its own).
  const title = meta.annotations?.title ?? `${skill.name}: ${tool}`
  const { title: _, ...hints } = meta.annotations ?? {}
  const listed: Tool = {
    name,
    title,
    ...(icons?.length ? { icons: [...icons] } : {}),
    description: def.description,
    inputSchema: clientOrder(withTab(def.inputSchema, meta)) as Tool['inputSchema'],
    outputSchema: clientOrder(lenientOutput(def.outputSchema)) as Tool['outputSchema'],
    annotations: { title, ...hints },
  }
  return { def: listed, ref, meta }
}

/**
 * Every tool of `skills`, skill by skill in the given order, each skill's tools in manifest order
 * (Node tools, then browser tools), named as `toolDefinitions` names them.
 */
export function listedTools(
  skills: readonly SkillMeta[],
  iconsOf: (siteId: string) => readonly Icon[] | undefined = () => undefined,
): SiteTool[] {
  const refs = skills.flatMap((s) => Object.keys(s.tools).map((tool) => ({ siteId: s.id, tool })))
  const names = assignToolNames(refs)
  return skills.flatMap((skill) =>
    Object.keys(skill.tools).map((tool) =>
      listedTool(skill, tool, names.get(`${skill.id}\0${tool}`)!, iconsOf(skill.id)),
    ),
  )
}

/** The text a model is sent for a tool: its listed definition as JSON, without the icons (a client's UI shows them). */
export function modelText(def: Tool): string {
  const { icons: _, _meta: __, ...shown } = def
  return JSON.stringify(shown)
}

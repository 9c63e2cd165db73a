import type { Icon, Tool } from '@modelcontextprotocol/server'
import type { SkillMeta, ToolMeta } from '../../runtime/index'
import { type ToolRef, assignToolNames, createToolDefinitions, isWholeObject } from '../../runtime/internal'

/**
 * How `site-skills mcp` lists a site tool: the runtime's MCP definition with the manifest's title
 * and annotations, an output schema as lenient as the check of the result, the optional `tab`
 * argument and the skill's icons. Pure (types only from the SDK): `context --tokens` and
 * `tokenBudget` count the same definitions without loading the SDK. Every listed tool is in every
 * prompt, so nothing in it is said twice: the title once, no title made up from the name, the `tab`
 * and `cursor` arguments' descriptions short and the same on every tool.
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

/** The `tab` argument of every tool that runs in a tab, the own tools' too. */
export const TAB_PROPERTY = { type: 'string', description: 'A site_skills_tabs id; default: your active tab.' }

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
function lenientOutput(schema: Schema, required = new Set((schema.required as string[] | undefined) ?? [])): Schema {
  const { description: _, ...out } = schema
  if (out.items) out.items = lenientOutput(out.items as Schema)
  if (out.properties) {
    const entries = Object.entries(out.properties as Record<string, Schema>).map(([name, field]) => {
      const inner = lenientOutput(field)
      return [name, required.has(name) ? inner : nullable(inner)]
    })
    out.properties = Object.fromEntries(entries)
  }
  delete out.additionalProperties
  return out
}

/**
 * The members of a result that are never null: those the output schema requires, or, for a paged
 * tool's object (whose schema requires none: a later page has only `pageInfo` and the list), those
 * the manifest's `returns` says are required.
 */
function requiredMembers(meta: ToolMeta, output: Schema): Set<string> {
  const members = Object.entries((isWholeObject(meta.returns) && meta.returns?.properties) || {})
  const fromReturns = members.filter(([, field]) => field.required).map(([name]) => name)
  return new Set([...((output.required as string[] | undefined) ?? []), ...fromReturns])
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
 * (the SDK's schema) hold a tool's schemas, so that the text counted is the text they keep. An empty
 * `required` says nothing and is left out.
 */
function clientOrder(schema: Schema): Schema {
  const { type, properties, required, ...rest } = schema
  return {
    type,
    ...(properties === undefined ? {} : { properties }),
    ...(required === undefined || (Array.isArray(required) && required.length === 0) ? {} : { required }),
    ...rest,
  }
}

/** One site tool as listed. */
export function listedTool(skill: SkillMeta, tool: string, name: string, icons?: readonly Icon[]): SiteTool {
  const meta = skill.tools[tool]!
  const ref = { siteId: skill.id, tool }
  const def = createToolDefinitions([{ ...ref, name, meta }]).mcp[0]!
  // The manifest's title, as the tool's `title` only (`annotations.title` is its place before MCP 2025-06-18);
  // without one, a client shows the name, which already says the site and the tool.
  const { title, ...hints } = meta.annotations ?? {}
  const listed: Tool = {
    name,
    ...(title === undefined ? {} : { title }),
    ...(icons?.length ? { icons: [...icons] } : {}),
    description: def.description,
    inputSchema: clientOrder(withTab(def.inputSchema, meta)) as Tool['inputSchema'],
    outputSchema: clientOrder(
      lenientOutput(def.outputSchema, requiredMembers(meta, def.outputSchema)),
    ) as Tool['outputSchema'],
    ...(Object.keys(hints).length ? { annotations: hints } : {}),
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

/**
 * The script that registers skills' browser tools as WebMCP tools in a page: the bundled page code
 * (webmcp-page.generated.ts), DOMAIN_GUARD, the tools' descriptions as JSON and their compiled
 * functions. Pure: the same skills, sources and options give the same text (the extension export
 * writes it as is; exposeWebMcpTools adds it to a target's new documents).
 */
import type { ValidateReturns } from './results'
import { assignToolNames, createToolDefinitions, pagesResults } from './definitions'
import { DOMAIN_GUARD } from './page-code'
import type { BrowserToolCode, SkillMeta, ToolMeta, ValueSchema } from './skill-data'
import { WEBMCP_PAGE } from './webmcp-page.generated'
import { WEBMCP_SCRIPT_URL } from './webmcp-where'

/** The default limit of a browser tool's call (as runBrowserTool's). */
const DEFAULT_TIMEOUT_MS = 30_000

/** A skill to register: its metadata and its browser tools' compiled code (a source map when known), by tool name. */
/** One tool as the page registers it (see webMcpScript, which makes it; webmcp-page.ts runs it). */
export interface PageTool {
  /** Its WebMCP name: the model-facing name `toolDefinitions` gives it. */
  name: string
  siteId: string
  tool: string
  title: string
  description: string
  inputSchema: Record<string, unknown>
  annotations: { readOnlyHint: boolean; untrustedContentHint: boolean }
  args: Record<string, ValueSchema>
  returns: ValueSchema
  /** The skill's and the tool's `urls`, each list present only when declared. */
  urls: string[][]
  timeoutMs: number
  file: string
  /** The tool's `resultBudget`, when it or its skill sets one. */
  budget?: number
  /** Whether its results are paged (a `cursor` argument): not when it declares a `cursor` of its own. */
  paged: boolean
  /** The 0-based line of the script its source starts at (see webmcp-script.ts). */
  line: number
  /** The source map of its compiled source, when known: a throw's frame becomes the tool's file and line. */
  map?: { sources: string[]; mappings: string }
}

export interface PageSkill {
  domains: string[]
  tools: PageTool[]
}

export interface PageConfig {
  skills: PageSkill[]
  validateReturns: ValidateReturns
  /** The Node binding of this world (exposeWebMcpTools), else ''. */
  binding: string
  /** The global name of the function that unregisters everything (exposeWebMcpTools), else ''. */
  handle: string
}

export interface WebMcpSkill {
  skill: SkillMeta
  sources: ReadonlyMap<string, BrowserToolCode>
}

/** One registered tool: its WebMCP name and the site tool it runs. */
export interface WebMcpToolRef {
  name: string
  siteId: string
  tool: string
}

export interface WebMcpScriptOptions {
  validateReturns?: ValidateReturns
  /** The Node binding of the world (see webmcp-page.ts), when a Node process listens. */
  binding?: string
  /** The global name of the page's unregister function, when Node may close the registration. */
  handle?: string
}

/**
 * WebMCP names: the names `toolDefinitions` gives, assigned over every tool of `all` in order (so a
 * tool has one name wherever a model sees it), by `siteId + "\0" + tool`.
 */
export function webMcpNames(all: readonly SkillMeta[]): Map<string, string> {
  return assignToolNames(all.flatMap((s) => Object.keys(s.tools).map((tool) => ({ siteId: s.id, tool }))))
}

/**
 * The hints a page tool is registered with: read-only unless the manifest says it is not (or that
 * it may destroy data), and untrusted content always (what it returns is read from the page).
 */
function pageAnnotations(meta: ToolMeta): PageTool['annotations'] {
  const hints = meta.annotations ?? {}
  return { readOnlyHint: hints.readOnlyHint ?? hints.destructiveHint !== true, untrustedContentHint: true }
}

function pageTool(skill: SkillMeta, tool: string, name: string, code: BrowserToolCode): PageTool {
  const meta = skill.tools[tool]!
  const [definition] = createToolDefinitions([{ siteId: skill.id, tool, name, meta }]).mcp
  return {
    name,
    siteId: skill.id,
    tool,
    title: meta.annotations?.title ?? `${skill.name}: ${tool}`,
    description: meta.description,
    inputSchema: definition!.inputSchema,
    annotations: pageAnnotations(meta),
    args: meta.args,
    returns: meta.returns,
    urls: [skill.urls, meta.urls].filter((list): list is string[] => list !== undefined),
    timeoutMs: meta.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    file: meta.file,
    ...(meta.resultBudget !== undefined && { budget: meta.resultBudget }),
    paged: pagesResults(meta),
    line: 0,
    ...(code.map && { map: { sources: code.map.sources, mappings: code.map.mappings } }),
  }
}

/** The browser tools of the skills that have sources, as the page registers them, and their functions' sources. */
function pageSkills(skills: readonly WebMcpSkill[], names: ReadonlyMap<string, string>) {
  const sources: string[] = []
  const refs: WebMcpToolRef[] = []
  const config: PageSkill[] = []
  for (const { skill, sources: codes } of skills) {
    const tools: PageTool[] = []
    for (const [tool, meta] of Object.entries(skill.tools)) {
      const code = codes.get(tool)
      if (meta.kind !== 'browser' || code === undefined) continue
      const name = names.get(`${skill.id}\0${tool}`)!
      tools.push(pageTool(skill, tool, name, code))
      refs.push({ name, siteId: skill.id, tool })
      sources.push(code.source)
    }
    if (tools.length) config.push({ domains: skill.domains, tools })
  }
  return { config, sources, refs }
}

const lines = (text: string) => text.split('\n').length - 1

/**
 * The script and the tools it registers. Each tool's source is its own parenthesized expression on
 * lines of its own (a trailing line comment cannot reach the next one); the config says the line
 * each source starts at (0-based, in the script: the config itself is one line of JSON), and the
 * script ends with its sourceURL, WEBMCP_SCRIPT_URL.
 */
export function webMcpScript(
  skills: readonly WebMcpSkill[],
  names: ReadonlyMap<string, string>,
  options: WebMcpScriptOptions = {},
): { script: string; tools: WebMcpToolRef[] } {
  const { config, sources, refs } = pageSkills(skills, names)
  const page: PageConfig = {
    skills: config,
    validateReturns: options.validateReturns ?? 'warn',
    binding: options.binding ?? '',
    handle: options.handle ?? '',
  }
  const head = `${WEBMCP_PAGE}.register(${DOMAIN_GUARD},`
  let line = lines(head) + 1
  const tools = config.flatMap((s) => s.tools)
  sources.forEach((source, i) => {
    // `(` on a line of its own, the source, then `)` and `,` on the next.
    tools[i]!.line = line + 1
    line += lines(source) + 3
  })
  const fns = sources.map((source) => `(\n${source}\n)`).join(',\n')
  const script = `${head}${JSON.stringify(page)},[\n${fns}\n]);\n//# sourceURL=${WEBMCP_SCRIPT_URL}\n`
  return { script, tools: refs }
}

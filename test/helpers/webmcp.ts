import type { Protocol } from 'devtools-protocol'
import { type CdpClient, command } from '../../runtime/cdp'
import { createDomainTableData } from '../../runtime/match'
import { createSiteSkills, type SiteSkills, type SiteSkillsOptions, type SkillLoaders } from '../../runtime/registry'
import type { SkillMeta, ToolAnnotations, ValueSchema } from '../../runtime/skill-data'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import { compileTools } from './browser'

/** The flag that gives Chromium 150 `document.modelContext` on https and localhost pages. */
const WEBMCP_FLAG = '--enable-features=WebMCP'

export const launchWithWebMcp = (args: string[] = []): Promise<LaunchedBrowser> =>
  launchBrowser({ args: [WEBMCP_FLAG, ...args] })

/** A browser tool of a test skill: its source (a bare function expression) and manifest keys. */
interface TestTool {
  source: string
  args?: Record<string, ValueSchema>
  returns?: ValueSchema
  timeoutMs?: number
  urls?: string[]
  annotations?: ToolAnnotations
  resultBudget?: number
}

export interface TestSkill {
  id: string
  domains: string[]
  urls?: string[]
  tools: Record<string, TestTool>
}

const ANY: ValueSchema = { type: 'object', description: 'What the tool read.' }

/** A registry of the skills, their browser tools compiled by the real bundler. */
export async function testRegistry(skills: readonly TestSkill[], options?: SiteSkillsOptions): Promise<SiteSkills> {
  const metas: SkillMeta[] = []
  const chunks: SkillLoaders = {}
  for (const skill of skills) {
    const files = Object.fromEntries(
      Object.entries(skill.tools).map(([name, t]) => [`browser-tools/${name}.js`, t.source]),
    )
    const specs = Object.fromEntries(
      Object.keys(skill.tools).map((name) => [name, { file: `browser-tools/${name}.js` }]),
    )
    const compiled = await compileTools(skill.id, files, specs)
    const tools = Object.fromEntries(
      Object.entries(skill.tools).map(([name, t]) => [
        name,
        {
          kind: 'browser' as const,
          description: `The ${name} tool of ${skill.id}.`,
          args: t.args ?? {},
          returns: t.returns ?? ANY,
          file: compiled[name]!.file,
          ...(t.timeoutMs && { timeoutMs: t.timeoutMs }),
          ...(t.urls && { urls: t.urls }),
          ...(t.annotations && { annotations: t.annotations }),
          ...(t.resultBudget && { resultBudget: t.resultBudget }),
        },
      ]),
    )
    metas.push({
      id: skill.id,
      name: skill.id.toUpperCase(),
      domains: skill.domains,
      notes: [],
      tools,
      ...(skill.urls && { urls: skill.urls }),
    })
    const browserTools = Object.fromEntries(Object.entries(compiled).map(([name, c]) => [name, c.code]))
    chunks[skill.id] = async () => ({ notes: [], nodeTools: {}, browserTools })
  }
  return createSiteSkills({ skills: metas, table: createDomainTableData(metas.map((m) => m.domains)) }, chunks, options)
}

type Tool = Protocol.WebMCP.Tool
type Responded = Protocol.WebMCP.ToolRespondedEvent

/** What a WebMCP host sees of a tab's top frame over CDP: its tools as announced, and calls. */
export interface PageTools {
  /** The names of the tools the top frame holds now, sorted. */
  names(): string[]
  tool(name: string): Tool | undefined
  /** Calls a tool with `WebMCP.invokeTool` and resolves with its `toolResponded` event. */
  invoke(name: string, input: Record<string, unknown>): Promise<Responded>
  stop(): void
}

/**
 * Enables the WebMCP domain on a tab and follows its top frame's tools. Chromium 150 sends no
 * `toolsRemoved` when a document goes: a navigation of the top frame forgets its tools.
 */
export async function watchPageTools(client: CdpClient): Promise<PageTools> {
  const { frameTree } = await command(client, 'Page.getFrameTree')
  const frameId = frameTree.frame.id
  const tools = new Map<string, Tool>()
  const responded = new Map<string, Responded>()
  const waiting = new Map<string, (event: Responded) => void>()
  const onAdded = ({ tools: added }: Protocol.WebMCP.ToolsAddedEvent) => {
    for (const t of added) if (t.frameId === frameId) tools.set(t.name, t)
  }
  const onRemoved = ({ tools: removed }: Protocol.WebMCP.ToolsRemovedEvent) => {
    for (const t of removed) if (t.frameId === frameId) tools.delete(t.name)
  }
  const onNavigated = ({ frame }: Protocol.Page.FrameNavigatedEvent) => frame.id === frameId && tools.clear()
  const onResponded = (event: Responded) => {
    const resolve = waiting.get(event.invocationId)
    if (resolve) resolve(event)
    else responded.set(event.invocationId, event)
  }
  const listeners: [string, (p: never) => unknown][] = [
    ['WebMCP.toolsAdded', onAdded],
    ['WebMCP.toolsRemoved', onRemoved],
    ['Page.frameNavigated', onNavigated],
    ['WebMCP.toolResponded', onResponded],
  ]
  for (const [event, listener] of listeners) client.on(event, listener as (p: unknown) => void)
  await command(client, 'Page.enable')
  await command(client, 'WebMCP.enable')
  return {
    names: () => [...tools.keys()].sort(),
    tool: (name) => tools.get(name),
    async invoke(toolName, input) {
      const { invocationId } = await command(client, 'WebMCP.invokeTool', { frameId, toolName, input })
      const early = responded.get(invocationId)
      if (early) return early
      return new Promise((resolve) => waiting.set(invocationId, resolve))
    },
    stop() {
      for (const [event, listener] of listeners) client.off(event, listener as (p: unknown) => void)
    },
  }
}

/** The text of an error result our page code returned (`{ isError, content }`), or undefined for a result. */
export function errorTextOf(event: Responded): string | undefined {
  const output = event.output as { isError?: boolean; content?: { text: string }[] } | undefined
  return output?.isError ? output.content?.[0]?.text : undefined
}

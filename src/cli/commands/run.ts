import {
  type BrowserTarget,
  type ToolMeta,
  isSiteToolError,
  isWsUrl,
  parseHostPort,
  targetProblem,
} from '../../../runtime/index'
import { type SkillsOptions, listSiteSkills, runBrowserSiteTool, runNodeSiteTool } from '../../nobuild/api'
import { type CliIO, type ParsedArgs, UsageError, compatOf, writeLine } from '../args'
import { resultJson } from '../result-json'
import { existingRoots } from '../session'

const RUN_USAGE = 'site-skills run SITE TOOL --args JSON [--cdp ws://...|HOST:PORT] [--target ID|URL-substring]'

function parseToolArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`--args is not valid JSON: ${(error as Error).message}`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new UsageError('--args must be a JSON object, e.g. --args \'{"query":"x"}\'')
  return value as Record<string, unknown>
}

/** `--cdp ws://...` or `--cdp HOST:PORT` (with `--target ID|URL-substring`). */
function targetOf(args: ParsedArgs): BrowserTarget | undefined {
  if (!args.cdp) {
    if (args.target) throw new UsageError('--target needs --cdp HOST:PORT')
    return undefined
  }
  if (isWsUrl(args.cdp)) {
    if (args.target) throw new UsageError('--target applies to --cdp HOST:PORT, not to a ws:// URL')
    return args.cdp
  }
  const address = parseHostPort(args.cdp)
  if (!address) throw new UsageError(`--cdp must be ws://... or HOST:PORT, not ${JSON.stringify(args.cdp)}`)
  return { ...address, target: args.target }
}

/** `site-skills run SITE TOOL --args JSON [--cdp ...] [--target ...]`: runs a Node or browser tool. */
export async function runCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const [siteId, tool, ...rest] = args.positionals
  if (!siteId || !tool || rest.length) throw new UsageError(`run takes a skill id and a tool name: ${RUN_USAGE}`)
  const toolArgs = parseToolArgs(args.args)
  const target = targetOf(args)
  if (target && targetProblem(target)) throw new UsageError(`--cdp: ${targetProblem(target)}`)
  // One compile, no watching: the command ends when the tool returns.
  const options = { roots: await existingRoots(args, io), compat: compatOf(args), watch: false }
  try {
    const meta = await metaOf(siteId, tool, options)
    const kind = meta?.kind
    if (kind === 'browser' && !target)
      throw new UsageError(`${siteId} -> ${tool} is a browser tool: pass --cdp ws://... or --cdp HOST:PORT`)
    // A Node tool gets the page too, when one is given, so it can drive the browser.
    const result =
      kind === 'browser'
        ? await runBrowserSiteTool(siteId, tool, toolArgs, target!, options)
        : await runNodeSiteTool(siteId, tool, toolArgs, { cdp: target, fetch: globalThis.fetch }, options)
    writeLine(io.stdout, resultJson(result, { siteId, tool, file: meta?.file }, args.json ? undefined : 2))
    return 0
  } catch (error) {
    if (!isSiteToolError(error)) throw error
    writeLine(io.stderr, `site-skills: ${error.code}: ${error.message}`)
    return 1
  }
}

async function metaOf(siteId: string, tool: string, options: SkillsOptions): Promise<ToolMeta | undefined> {
  const skill = (await listSiteSkills(options)).find((s) => s.id === siteId)
  return skill && Object.hasOwn(skill.tools, tool) ? skill.tools[tool] : undefined
}

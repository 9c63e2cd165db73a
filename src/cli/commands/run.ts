import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { displayPath } from '../../compiler/diagnostics/report'
import { type BrowserTarget, type CdpSendable, type ToolMeta, isSiteToolError } from '../../../runtime/index'
import {
  type CallRef,
  command,
  compactText,
  openTarget,
  pageResult,
  pagesResults,
  resultJson,
  siteToolError,
  splitCursor,
  targetProblem,
} from '../../../runtime/internal'
import { type SkillsOptions, current, runBrowserSiteTool, runNodeSiteTool, oneShot } from '../../nobuild/api'
import type { Root } from '../../compiler/discover/roots'
import { type CliIO, UsageError, writeLine } from '../io'
import { cdpChoice, runtimeTarget } from '../cdp-choice'
import { shellWord } from '../call-example'
import { compatOf } from '../roots'
import { checkSkillIds, existingRoots } from '../compile-roots'
import type { Args } from '../command-table'

const RUN_USAGE =
  'site-skills run SITE TOOL --args JSON [--cdp ws(s)://...|HOST:PORT [--cdp-header NAME:VALUE]...] [--target ' +
  'ID|URL-substring] [--url URL] [--format compact|json]'

/** What a Node tool gets as `ctx` under `site-skills run` (docs/skills.md's table of hosts). */
interface RunContext {
  host: 'site-skills run'
  /** `--url`, else the URL of the `--cdp`/`--target` page. */
  url?: string
  /** The origin of `url`. */
  baseUrl?: string
  /** A CDP session to the `--cdp`/`--target` page (`send`, `on`, `off`). */
  cdp?: CdpSendable
  fetch: typeof fetch
}

function parsedUrl(text: string): URL | undefined {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

/** `--url`: an http(s) URL, else a usage error. */
function urlOf(args: Args<'run'>): URL | undefined {
  if (args.url === undefined) return undefined
  const url = parsedUrl(args.url)
  if (!url || !/^https?:$/.test(url.protocol))
    throw new UsageError(`--url must be an http(s) URL, not ${JSON.stringify(args.url)}`)
  return url
}

/** The page's own URL, read over its session. */
async function pageUrl(session: CdpSendable): Promise<string | undefined> {
  const { result } = await command(session, 'Runtime.evaluate', { expression: 'location.href', returnByValue: true })
  return typeof result.value === 'string' ? result.value : undefined
}

/** Runs a Node tool with the ctx of this command: the page's session and URL (or `--url`), and `fetch`. */
async function runNode(
  siteId: string,
  tool: string,
  toolArgs: Record<string, unknown>,
  args: Args<'run'>,
  options: SkillsOptions,
) {
  const given = urlOf(args)
  const target = targetOf(args)
  const opened = target ? await openTarget(target) : undefined
  try {
    const url = given?.href ?? (opened ? await pageUrl(opened.session) : undefined)
    const origin = url ? parsedUrl(url)?.origin : undefined
    const ctx: RunContext = { host: 'site-skills run', fetch: globalThis.fetch }
    if (url) Object.assign(ctx, { url, ...(origin && origin !== 'null' ? { baseUrl: origin } : {}) })
    if (opened) ctx.cdp = opened.session
    return await runNodeSiteTool(siteId, tool, toolArgs, ctx, options)
  } finally {
    await opened?.close?.()
  }
}

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

/** `--cdp` (a page's or a browser's URL, or HOST:PORT), its headers, and `--target ID|URL-substring`. */
function targetOf(args: Args<'run'>): BrowserTarget | undefined {
  const choice = cdpChoice(args)
  if (!choice) {
    if (args.target) throw new UsageError('--target needs --cdp (the browser whose tab it names)')
    return undefined
  }
  return runtimeTarget(choice, args.target)
}

/** `site-skills run SITE TOOL --args JSON [--cdp ...] [--target ...]`: runs a Node or browser tool. */
export async function runCommand(args: Args<'run'>, io: CliIO): Promise<number> {
  const [siteId, tool, ...rest] = args.positionals
  if (!siteId || !tool || rest.length) throw new UsageError(`run takes a skill id and a tool name: ${RUN_USAGE}`)
  const toolArgs = parseToolArgs(args.args)
  if (args.json && args.format === 'compact')
    throw new UsageError('--json prints JSON: give --json or --format compact, not both')
  urlOf(args)
  const target = targetOf(args)
  if (target && targetProblem(target)) throw new UsageError(`--cdp: ${targetProblem(target)}`)
  // One compile, no watching: the command ends when the tool returns.
  const roots = await existingRoots(args, io)
  const options = oneShot(roots, compatOf(args))
  try {
    const meta = await metaOf(siteId, tool, options)
    const kind = meta?.kind
    if (kind === 'browser' && !target)
      throw new UsageError(`${siteId} -> ${tool} is a browser tool: pass --cdp ws://... or --cdp HOST:PORT`)
    const { own, cursor } = meta ? splitCursor(meta, toolArgs) : { own: toolArgs, cursor: undefined }
    // A Node tool gets the page too, when one is given, so it can drive the browser.
    const result =
      kind === 'browser'
        ? await runBrowserSiteTool(siteId, tool, own, target!, options)
        : await runNode(siteId, tool, own ?? {}, args, options)
    const call = { siteId, tool, file: meta?.file, args: own ?? {} }
    writeLine(io.stdout, printed(budgeted(result, { ...call, cursor }, meta), call, args))
    return 0
  } catch (error) {
    if (!isSiteToolError(error)) throw error
    writeLine(io.stderr, `site-skills: ${error.code}: ${error.message}`)
    if (error.code === 'skill-invalid') writeLine(io.stderr, `site-skills: ${validateLine(siteId, roots, io)}`)
    return 1
  }
}

/** The result as agents get it (SPEC 12): a page when it is over the tool's budget or a cursor was given. */
function budgeted(value: unknown, call: CallRef & { cursor: unknown }, meta: ToolMeta | undefined): unknown {
  if (!meta || !pagesResults(meta)) return value
  if (call.cursor !== undefined && typeof call.cursor !== 'string')
    throw siteToolError('invalid-cursor', { reason: 'malformed' }, call)
  return pageResult(value, { ...call, cursor: call.cursor as string | undefined, budget: meta.resultBudget }).value
}

/** The result as `--format` (or `--json`) asks: compact text, JSON, or JSON indented for people. */
function printed(value: unknown, from: CallRef, args: Args<'run'>): string {
  const json = resultJson(value, from, args.json || args.format === 'json' ? undefined : 2)
  return args.format === 'compact' ? compactText(value) : json
}

/** Where to see every problem of an invalid skill: `site-skills validate` of its folder(s). */
function validateLine(siteId: string, roots: readonly Root[], io: CliIO): string {
  const dirs = roots.map((root) => join(root.path, siteId)).filter((dir) => existsSync(join(dir, 'manifest.json')))
  const shown = dirs.map((dir) => shellWord(displayPath(dir, io.cwd, roots))).join(' ')
  return `every problem of ${JSON.stringify(siteId)}: site-skills validate ${shown}`
}

/** The tool's metadata (undefined when the skill is invalid or lacks it); an id no root holds is bad usage. */
async function metaOf(siteId: string, tool: string, options: SkillsOptions): Promise<ToolMeta | undefined> {
  const { result, api } = await current(options)
  checkSkillIds(
    [siteId],
    result.records.map((r) => r.folder.id),
  )
  const skill = api.skills.find((s) => s.id === siteId)
  return skill && Object.hasOwn(skill.tools, tool) ? skill.tools[tool] : undefined
}

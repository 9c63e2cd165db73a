import { join, relative } from 'node:path'
import { SiteToolError } from '../../../runtime/index'
import { type TargetInfo, loadCri, urlMatchesDomains } from '../../../runtime/internal'
import { formatFixture } from '../../compiler/fixtures/header'
import { toPosix } from '../../compiler/fs/paths'
import { isWriteFailure, writeFileInside } from '../../compiler/fs/write-inside'
import { current } from '../../nobuild/api'
import { SNAPSHOT_CHANGES } from '../../examples/capture-page'
import { type CapturedPage, capturePage, fixtureNameFromUrl } from '../../examples/fixture'
import { type CliIO, UsageError, writeLine } from '../args'
import { compatOf } from '../roots'
import { CommandFailure, reportFailure } from '../failure'
import { checkSkillIds, existingRoots } from '../session'
import type { Args } from '../registry'

const USAGE = 'site-skills snapshot URL --site ID [--name NAME] --cdp HOST:PORT'
const HOST_PORT_RE = /^(\[[^\]]+\]|[^:/\s]+):(\d+)$/
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/

/**
 * The page tab on the skill's domains whose URL is `url`, else the first that starts with it, else
 * one that contains it (a tab on another site whose URL merely contains the text is never taken).
 */
async function findTab(host: string, port: number, url: string, domains: readonly string[]): Promise<TargetInfo> {
  const where = `${host}:${port}`
  const response = await fetch(`http://${where}/json/list`).catch((cause: unknown) => {
    throw new SiteToolError('disconnected', `cannot reach ${where}`, { cause })
  })
  const list = await response.json().catch(() => undefined)
  if (!Array.isArray(list))
    throw new SiteToolError('disconnected', `${where} is not a DevTools endpoint (no /json/list)`)
  const all = (list as TargetInfo[]).filter((t) => t?.type === 'page' && typeof t.url === 'string')
  const pages = all.filter((t) => urlMatchesDomains(t.url, domains))
  const found =
    pages.find((t) => t.url === url) ??
    pages.find((t) => t.url.startsWith(url)) ??
    pages.find((t) => t.url.includes(url))
  if (found?.webSocketDebuggerUrl) return found
  const open = all.map((t) => t.url).join(', ') || 'none'
  throw new SiteToolError('target-not-found', `no tab at ${url} in the browser at ${where} (open: ${open})`)
}

async function capture(tab: TargetInfo): Promise<CapturedPage> {
  const client = await (await loadCri())({ target: tab.webSocketDebuggerUrl!, local: true })
  try {
    return await capturePage(client)
  } finally {
    await client.close().catch(() => {})
  }
}

function parseOptions(args: Args<'snapshot'>): { url: string; siteId: string; host: string; port: number } {
  const [url, ...rest] = args.positionals
  if (!url || rest.length) throw new UsageError(`snapshot takes one URL: ${USAGE}`)
  if (!args.site) throw new UsageError(`snapshot needs --site ID: ${USAGE}`)
  if (args.name !== undefined && !NAME_RE.test(args.name))
    throw new UsageError(`--name must be letters, digits, ".", "_" or "-", not ${JSON.stringify(args.name)}`)
  const hostPort = HOST_PORT_RE.exec(args.cdp ?? '')
  if (!hostPort) throw new UsageError(`snapshot reads a tab of a running browser: pass --cdp HOST:PORT (${USAGE})`)
  if (!URL.canParse(url) || !/^https?:/.test(url)) throw new UsageError(`not an http(s) URL: ${JSON.stringify(url)}`)
  return { url, siteId: args.site, host: hostPort[1]!.replace(/^\[|\]$/g, ''), port: Number(hostPort[2]) }
}

/** Where the tab really was when read: on the skill's domains, or the capture is refused. */
function checkCaptured(page: { url: string }, siteId: string, patterns: readonly string[]): void {
  if (!urlMatchesDomains(page.url, patterns))
    throw new SiteToolError(
      'domain-mismatch',
      `the tab is at ${page.url}, which does not match ${siteId}'s domains (${patterns.join(', ')}): nothing was written`,
    )
}

/**
 * `site-skills snapshot URL --site ID [--name NAME] --cdp HOST:PORT`: saves the rendered DOM of the
 * tab at URL as `fixtures/NAME.html` of the skill and prints the example stanza to paste.
 */
export async function snapshotCommand(args: Args<'snapshot'>, io: CliIO): Promise<number> {
  const { url, siteId, host, port } = parseOptions(args)
  try {
    const { result } = await current({ roots: await existingRoots(args, io), compat: compatOf(args), watch: false })
    const ids = result.records.map((r) => r.folder.id)
    checkSkillIds([siteId], ids)
    const record = result.records[ids.indexOf(siteId)]!
    const patterns = record.domainSites.map((s) => s.pattern)
    if (!urlMatchesDomains(url, patterns))
      throw new SiteToolError('domain-mismatch', `${url} does not match ${siteId}'s domains (${patterns.join(', ')})`)
    const page = await capture(await findTab(host, port, url, patterns))
    checkCaptured(page, siteId, patterns)
    const name = args.name ?? fixtureNameFromUrl(page.url)
    const fixture = `fixtures/${name}.html`
    const file = join(record.folder.dir, fixture)
    const captured = new Date().toISOString()
    const text = formatFixture({ url: page.url, captured, changes: SNAPSHOT_CHANGES }, page.html)
    const written = writeFileInside(record.folder.realDir, fixture, text, toPosix(relative(io.cwd, record.folder.dir)))
    if (isWriteFailure(written)) throw new CommandFailure(written.code, written.message)
    const example = { name, args: {}, url: page.url, fixture }
    if (args.json)
      writeLine(io.stdout, JSON.stringify({ file: toPosix(file), url: page.url, captured, example }, null, 2))
    else {
      writeLine(io.stdout, `wrote ${toPosix(relative(io.cwd, file))} (${page.html.length} characters)`)
      writeLine(io.stdout, `add to a browser tool's "examples" in ${siteId}/manifest.json (fill in args and expect):`)
      writeLine(io.stdout, JSON.stringify(example, null, 2))
    }
    return 0
  } catch (error) {
    return reportFailure(io, error)
  }
}

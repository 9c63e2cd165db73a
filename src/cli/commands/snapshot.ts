import { join, relative } from 'node:path'
import { SiteToolError } from '../../../runtime/index'
import { type CdpSocket, openSocket, shownUrl, urlMatchesDomains } from '../../../runtime/internal'
import { type BrowserEndpoint, resolveBrowser } from '../../cdp/endpoint'
import { formatFixture } from '../../compiler/fixture-format/header'
import { toPosix } from '../../compiler/fs/paths'
import { isWriteFailure, writeFileInside } from '../../compiler/fs/write-inside'
import { current, oneShot } from '../../nobuild/api'
import { SNAPSHOT_CHANGES } from '../../examples/capture-page'
import { capturePage, fixtureNameFromUrl } from '../../examples/fixture'
import { type CliIO, UsageError, writeLine } from '../io'
import { browserChoice, cdpChoice } from '../cdp-choice'
import { compatOf } from '../roots'
import { CommandFailure, reportFailure } from '../failure'
import { checkSkillIds, existingRoots } from '../compile-roots'
import type { Args } from '../command-table'

const USAGE =
  'site-skills snapshot URL --site ID [--name NAME] --cdp HOST:PORT|ws(s)://... [--cdp-header NAME:VALUE]...'
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/

interface PageTarget {
  targetId: string
  type: string
  url: string
}

/**
 * The page tab on the skill's domains whose URL is `url`, else the first that starts with it, else
 * one that contains it (a tab on another site whose URL merely contains the text is never taken).
 */
async function findTab(browser: CdpSocket, where: string, url: string, domains: readonly string[]) {
  const { targetInfos } = (await browser.send('Target.getTargets')) as { targetInfos: PageTarget[] }
  const all = targetInfos.filter((t) => t.type === 'page' && typeof t.url === 'string')
  const pages = all.filter((t) => urlMatchesDomains(t.url, domains))
  const found =
    pages.find((t) => t.url === url) ??
    pages.find((t) => t.url.startsWith(url)) ??
    pages.find((t) => t.url.includes(url))
  if (found) return found.targetId
  const open = all.map((t) => t.url).join(', ') || 'none'
  throw new SiteToolError('target-not-found', `no tab at ${url} in the browser at ${where} (open: ${open})`)
}

/** Reads the tab at `url` over one connection to the browser, closed afterwards. */
async function capture(endpoint: BrowserEndpoint, where: string, url: string, domains: readonly string[]) {
  const browser = await openSocket(endpoint.url, endpoint.headers ? { headers: endpoint.headers } : {})
  try {
    return await capturePage(await browser.attach(await findTab(browser, where, url, domains)))
  } finally {
    await browser.close()
  }
}

function parseOptions(args: Args<'snapshot'>) {
  const [url, ...rest] = args.positionals
  if (!url || rest.length) throw new UsageError(`snapshot takes one URL: ${USAGE}`)
  if (!args.site) throw new UsageError(`snapshot needs --site ID: ${USAGE}`)
  if (args.name !== undefined && !NAME_RE.test(args.name))
    throw new UsageError(`--name must be letters, digits, ".", "_" or "-", not ${JSON.stringify(args.name)}`)
  const choice = cdpChoice(args)
  if (!choice) throw new UsageError(`snapshot reads a tab of a running browser: pass --cdp HOST:PORT (${USAGE})`)
  if (!URL.canParse(url) || !/^https?:/.test(url)) throw new UsageError(`not an http(s) URL: ${JSON.stringify(url)}`)
  const where = 'address' in choice ? `${choice.address.host}:${choice.address.port}` : shownUrl(choice.url)
  return { url, siteId: args.site, browser: browserChoice(choice, USAGE), where }
}

/** Where the tab really was when read: on the skill's domains, or the capture is refused. */
function checkCaptured(page: { url: string }, siteId: string, patterns: readonly string[]): void {
  if (!urlMatchesDomains(page.url, patterns))
    throw new SiteToolError(
      'domain-mismatch',
      `the tab is at ${page.url}, which does not match ${siteId}'s domains (${patterns.join(', ')}): nothing was ` +
        `written`,
    )
}

/**
 * `site-skills snapshot URL --site ID [--name NAME] --cdp HOST:PORT`: saves the rendered DOM of the
 * tab at URL as `fixtures/NAME.html` of the skill and prints the example stanza to paste.
 */
export async function snapshotCommand(args: Args<'snapshot'>, io: CliIO): Promise<number> {
  const { url, siteId, browser, where } = parseOptions(args)
  try {
    const { result } = await current(oneShot(await existingRoots(args, io), compatOf(args)))
    const ids = result.records.map((r) => r.folder.id)
    checkSkillIds([siteId], ids)
    const record = result.records[ids.indexOf(siteId)]!
    const patterns = record.domainSites.map((s) => s.pattern)
    if (!urlMatchesDomains(url, patterns))
      throw new SiteToolError('domain-mismatch', `${url} does not match ${siteId}'s domains (${patterns.join(', ')})`)
    const page = await capture(await resolveBrowser(browser), where, url, patterns)
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

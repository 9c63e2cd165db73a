import { type LaunchedBrowser, launchBrowser } from '../runtime/launch'
import { summarize } from './stats'
import type { Figure } from './table'
import { innerTextTokens, measurePage, type PageCost, pageListTokens } from './tokens-measure'
import { type BenchPage, savedPages } from './tokens-pages'
import { devtoolsServer, ourServer, type Peer, playwrightServer } from './tokens-peers'
import { type PageServer, servePages } from './tokens-serve'

const count = (label: string, value: number) => ({ label, unit: 'count' as const, value: summarize([value]) })
const group = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 })

/** The per-page row: our tokens against the page's innerText, Playwright's and the times in its notes. */
function pageFigure(c: PageCost): Figure {
  const time = c.oursMs.median / c.playwrightMs.median
  const notes = [
    `Playwright MCP browser_snapshot ${group(c.playwright)} tokens (${group(c.playwright / c.ours)}x ours; browser_navigate answered ${group(c.playwrightNavigate)} more); chrome-devtools-mcp take_snapshot ${group(c.devtools)} (${group(c.devtools / c.ours)}x ours, ${group(c.devtoolsMs.median)} ms)`,
    `read ${group(c.oursMs.median)} ms vs snapshot ${group(c.playwrightMs.median)} ms (${group(time)}x the time, n=${c.oursMs.runs}); largest call ${group(c.largestCall)} tokens; ${c.page.reads.map((r) => r.tool).join(' + ')}`,
    c.missing.length
      ? `${c.missing.length} of ${c.page.facts.length} facts missing: ${c.missing.slice(0, 5).join(' | ')}`
      : `all ${c.page.facts.length} facts of its examples stated`,
  ]
  if (c.paged) notes.push(`every page of it: ${group(c.paged.tokens)} tokens in ${c.paged.calls} calls`)
  return {
    bench: 'tokens',
    name: `tokens, ${c.page.siteId} ${c.page.fixture}: our reads vs the page's innerText`,
    subject: count('ours', c.ours),
    baseline: count('innerText', c.pageText),
    ratio: summarize([c.pageText / c.ours]),
    ratioText: 'fewer tokens',
    goal: { text: 'no more than its innerText', met: c.ours <= c.pageText },
    notes,
  }
}

/** The rows over all pages: medians, the largest call, every fact, the times. */
function summaryFigures(costs: PageCost[]): Figure[] {
  const median = (xs: number[]) => summarize(xs).median
  const ours = median(costs.map((c) => c.ours))
  const vsPlaywright = summarize(costs.map((c) => c.playwright / c.ours))
  const vsText = summarize(costs.map((c) => c.pageText / c.ours))
  const times = summarize(costs.map((c) => c.oursMs.median / c.playwrightMs.median))
  const largest = costs.reduce((a, b) => (b.largestCall > a.largestCall ? b : a))
  const missing = costs.reduce((n, c) => n + c.missing.length, 0)
  const over = costs.filter((c) => c.ours > c.pageText)
  const facts = costs.reduce((n, c) => n + c.page.facts.length, 0)
  const n = `${costs.length} saved real pages`
  return [
    {
      bench: 'tokens',
      name: `tokens over ${n}: our reads vs Playwright MCP's snapshot (median of the per-page ratios)`,
      subject: count('ours', ours),
      baseline: count('snapshot', median(costs.map((c) => c.playwright))),
      ratio: vsPlaywright,
      ratioText: 'fewer tokens',
      goal: { text: 'at least 20x fewer at the median', met: vsPlaywright.median >= 20 },
    },
    {
      bench: 'tokens',
      name: `tokens over ${n}: our reads vs chrome-devtools-mcp's take_snapshot (median of the per-page ratios)`,
      subject: count('ours', ours),
      baseline: count('snapshot', median(costs.map((c) => c.devtools))),
      ratio: summarize(costs.map((c) => c.devtools / c.ours)),
      ratioText: 'fewer tokens',
    },
    {
      bench: 'tokens',
      name: `tokens over ${n}: our reads vs the page's innerText (median of the per-page ratios)`,
      subject: count('ours', ours),
      baseline: count('innerText', median(costs.map((c) => c.pageText))),
      ratio: vsText,
      ratioText: 'fewer tokens',
      goal: { text: 'at least 3x fewer at the median', met: vsText.median >= 3 },
    },
    {
      bench: 'tokens',
      name: `pages whose reads cost more tokens than their innerText, of ${n}`,
      subject: count('over', over.length),
      baseline: count('pages', costs.length),
      ratio: summarize([over.length / costs.length]),
      ratioText: 'of the pages',
      goal: { text: 'none', met: over.length === 0 },
      notes: over.map((c) => `${c.page.siteId} ${c.page.fixture}: ${group(c.ours)} against ${group(c.pageText)}`),
    },
    {
      bench: 'tokens',
      name: `largest single call with default arguments, over ${n}`,
      subject: count('largest', largest.largestCall),
      baseline: count('limit', 10_000),
      ratio: summarize([largest.largestCall / 10_000]),
      ratioText: 'the limit',
      goal: { text: 'at most 10,000 tokens', met: largest.largestCall <= 10_000 },
      notes: [`${largest.page.siteId} ${largest.page.fixture}`],
    },
    {
      bench: 'tokens',
      name: `facts of the examples stated by our reads, over ${n}`,
      subject: count('stated', facts - missing),
      baseline: count('facts', facts),
      ratio: summarize([(facts - missing) / Math.max(1, facts)]),
      ratioText: 'of the facts',
      goal: { text: 'every fact present', met: missing === 0 },
      notes: costs.filter((c) => c.page.facts.length === 0).map((c) => `no facts declared: ${c.page.fixture}`),
    },
    {
      bench: 'tokens',
      name: `time of a read over ${n}: our calls vs Playwright MCP's snapshot (median of the per-page ratios)`,
      subject: { label: 'ours', unit: 'ms', value: summarize(costs.map((c) => c.oursMs.median)) },
      baseline: { label: 'snapshot', unit: 'ms', value: summarize(costs.map((c) => c.playwrightMs.median)) },
      ratio: times,
      ratioText: 'the time',
      goal: { text: 'within 0.3x of the snapshot', met: times.median <= 0.3 },
    },
  ]
}

/** Every paged read followed to its end against the page's innerText. */
function pagedFigures(costs: PageCost[]): Figure[] {
  return costs.flatMap((c) =>
    c.paged
      ? [
          {
            bench: 'tokens',
            name: `tokens, ${c.page.siteId} ${c.page.fixture}: every page of the read vs the page's innerText`,
            subject: count('all pages', c.paged.tokens),
            baseline: count('innerText', c.pageText),
            ratio: summarize([c.paged.tokens / c.pageText]),
            ratioText: 'the innerText',
            goal: { text: 'less than its innerText in all', met: c.paged.tokens < c.pageText },
            notes: [`${c.paged.calls} calls`],
          },
        ]
      : [],
  )
}

/** Per site, the largest tool list `--tools page` gives on its saved pages. */
async function listFigures(browser: LaunchedBrowser, server: PageServer, pages: BenchPage[]): Promise<Figure[]> {
  const listing = await ourServer(browser.port, 'page')
  try {
    const sites = new Map<string, { tokens: number; url: string }>()
    for (const page of pages) {
      server.show(page)
      const n = await pageListTokens(listing, page.url)
      if (n > (sites.get(page.siteId)?.tokens ?? -1)) sites.set(page.siteId, { tokens: n, url: page.url })
    }
    return [...sites].map(([siteId, { tokens, url }]) => ({
      bench: 'tokens',
      name: `tool list of ${siteId} in --tools page mode (the own tools and the site's; its largest page)`,
      subject: count('list', tokens),
      baseline: count('limit', 1500),
      ratio: summarize([tokens / 1500]),
      ratioText: 'the limit',
      goal: { text: 'within 1,500 tokens', met: tokens <= 1500 },
      notes: [url],
    }))
  } finally {
    await listing.close()
  }
}

/**
 * `--only tokens`: every saved real page of the shipped skills, served at its real URL on this
 * machine, read four ways in one Chromium: our tools through `site-skills mcp`, the page's
 * innerText, Playwright MCP's snapshot and chrome-devtools-mcp's. `pages` keeps the first N pages (the test row).
 */
export async function runTokensBench(config: { runs: number; pages?: number }): Promise<Figure[]> {
  const pages = (await savedPages()).slice(0, config.pages)
  const server = await servePages(pages)
  const browser = await launchBrowser({ args: server.browserArgs })
  try {
    // Before any server runs: a tab the servers open follows neither of them.
    const pageText = new Map<BenchPage, number>()
    for (const page of pages) {
      server.show(page)
      pageText.set(page, await innerTextTokens(browser, page.url))
    }
    const costs = await measureAll(browser, server, pages, pageText, config.runs)
    return [
      ...costs.map(pageFigure),
      ...pagedFigures(costs),
      ...summaryFigures(costs),
      ...(await listFigures(browser, server, pages)),
    ]
  } finally {
    await browser.close()
    await server.close()
  }
}

/**
 * Our server and the two peers each on a tab of their own: ours is the tab its first navigation
 * took (named in every call after), Playwright's one it opens with `browser_tabs`,
 * chrome-devtools-mcp's one it opens with `new_page`.
 */
async function measureAll(
  browser: LaunchedBrowser,
  server: PageServer,
  pages: BenchPage[],
  pageText: Map<BenchPage, number>,
  runs: number,
): Promise<PageCost[]> {
  const peers: Peer[] = []
  try {
    const ours = await ourServer(browser.port, 'all')
    peers.push(ours)
    const first = await ours.call('site_skills_navigate', { url: pages[0]!.url })
    const tab = (first.result.structuredContent as { tab: { id: string } }).tab.id
    const devtools = await devtoolsServer(browser.wsEndpoint)
    peers.push(devtools)
    // Its answer lists the pages as "N: title (url)", the one it opened "[selected]".
    const opened = await devtools.call('new_page', { url: 'about:blank' })
    const pageId = Number(/^(\d+): .*\[selected\]$/m.exec(opened.text)?.[1])
    if (!Number.isInteger(pageId)) throw new Error(`chrome-devtools-mcp named no page: ${opened.text.slice(0, 200)}`)
    const playwright = await playwrightServer(browser.wsEndpoint)
    peers.push(playwright)
    await playwright.call('browser_tabs', { action: 'new' })
    const readers = { ours, tab, playwright, devtools, pageId }
    const costs: PageCost[] = []
    for (const page of pages) {
      server.show(page)
      costs.push(await measurePage(page, readers, pageText.get(page)!, runs))
    }
    return costs
  } finally {
    await Promise.all(peers.map((p) => p.close().catch(() => undefined)))
  }
}

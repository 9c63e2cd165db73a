import { command } from '../runtime/cdp'
import type { LaunchedBrowser } from '../runtime/launch'
import { type Summary, summarize } from './stats'
import { type BenchPage, states } from './tokens-pages'
import { type Call, type Peer, tokens, toolText } from './tokens-peers'

/** What one page cost each way. */
export interface PageCost {
  page: BenchPage
  /** Tokens of our reads' results, in all. */
  ours: number
  /** The largest of our calls. */
  largestCall: number
  pageText: number
  /** Playwright MCP's `browser_snapshot`. */
  playwright: number
  /** Playwright MCP's `browser_navigate` answer (not part of the read). */
  playwrightNavigate: number
  /** chrome-devtools-mcp's `take_snapshot`, and its milliseconds per run. */
  devtools: number
  devtoolsMs: Summary
  /** Milliseconds of our reads (all of a page's calls) and of Playwright's snapshot, per run. */
  oursMs: Summary
  playwrightMs: Summary
  /** Facts of the page's examples that our results do not state. */
  missing: string[]
  /** Reading everything by following the pages of a paged read: tokens and calls. */
  paged?: { tokens: number; calls: number }
}

const MAX_PAGES = 100

/**
 * The arguments of the next page of a paged result, or none: the runtime's `pageInfo.cursor` (a
 * result over its budget), else the tool's own `next` offset (its pages of comments or text).
 */
function nextArgs(call: Call): Record<string, unknown> | undefined {
  const value = call.result.structuredContent as { pageInfo?: { cursor?: unknown }; next?: unknown } | undefined
  if (typeof value?.pageInfo?.cursor === 'string') return { cursor: value.pageInfo.cursor }
  if (typeof value?.next === 'number') return { offset: value.next }
  return undefined
}

/** Follows a paged read to its end: tokens and calls in all (the first call included). */
async function readAll(ours: Peer, name: string, args: Record<string, unknown>, first: Call) {
  const texts = [first.text]
  for (let next = nextArgs(first); next && texts.length < MAX_PAGES; ) {
    const call = await ours.call(name, { ...args, ...next })
    texts.push(call.text)
    next = nextArgs(call)
  }
  return { tokens: texts.reduce((n, t) => n + tokens(t), 0), calls: texts.length, text: texts.join('\n') }
}

/** Tokens of the page's `document.body.innerText`, in a tab of its own. */
export async function innerTextTokens(browser: LaunchedBrowser, url: string): Promise<number> {
  const page = await browser.newPage(url)
  try {
    const { result } = await command(page.client, 'Runtime.evaluate', {
      expression: 'document.body.innerText',
      returnByValue: true,
    })
    return tokens(String(result.value ?? ''))
  } finally {
    await page.close()
  }
}

/** Our reads of `page` (`runs` times, on the page loaded once): tokens of the first run, times of each. */
async function readOurs(ours: Peer, tab: string, page: BenchPage, runs: number) {
  await ours.call('site_skills_navigate', { url: page.url, tab })
  const times: number[] = []
  let first: Call[] = []
  for (let run = 0; run < runs; run++) {
    const calls: Call[] = []
    for (const read of page.reads) calls.push(await ours.call(`${page.siteId}__${read.tool}`, { ...read.args, tab }))
    times.push(calls.reduce((ms, c) => ms + c.ms, 0))
    if (run === 0) first = calls
  }
  let paged: Awaited<ReturnType<typeof readAll>> | undefined
  for (const [i, call] of first.entries()) {
    if (!nextArgs(call)) continue
    const read = page.reads[i]!
    paged = await readAll(ours, `${page.siteId}__${read.tool}`, { ...read.args, tab }, call)
  }
  return { calls: first, times, paged }
}

async function readPlaywright(playwright: Peer, page: BenchPage, runs: number) {
  const navigate = await playwright.call('browser_navigate', { url: page.url })
  const times: number[] = []
  let text = ''
  for (let run = 0; run < runs; run++) {
    const snapshot = await playwright.call('browser_snapshot', {})
    times.push(snapshot.ms)
    if (run === 0) text = snapshot.text
  }
  return { navigate: tokens(navigate.text), snapshot: tokens(text), times }
}

/** chrome-devtools-mcp on its own page (`pageId`, from its `new_page`): navigate, then snapshot `runs` times. */
async function readDevtools(devtools: Peer, pageId: number, page: BenchPage, runs: number) {
  await devtools.call('navigate_page', { pageId, type: 'url', url: page.url })
  const times: number[] = []
  let text = ''
  for (let run = 0; run < runs; run++) {
    const snapshot = await devtools.call('take_snapshot', { pageId })
    times.push(snapshot.ms)
    if (run === 0) text = snapshot.text
  }
  return { snapshot: tokens(text), times }
}

/** The peers a page is read by, each on a tab of its own. */
export interface Readers {
  ours: Peer
  /** Our server's tab handle. */
  tab: string
  playwright: Peer
  devtools: Peer
  /** chrome-devtools-mcp's page id. */
  pageId: number
}

/** The cost of reading `page` each way. */
export async function measurePage(
  page: BenchPage,
  readers: Readers,
  pageText: number,
  runs: number,
): Promise<PageCost> {
  const ours = await readOurs(readers.ours, readers.tab, page, runs)
  const playwright = await readPlaywright(readers.playwright, page, runs)
  const devtools = await readDevtools(readers.devtools, readers.pageId, page, runs)
  const texts = ours.calls.map((c) => c.text)
  // Facts may be on the later pages of a paged read.
  const all = [...texts, ours.paged?.text ?? ''].join('\n')
  return {
    page,
    ours: texts.reduce((n, t) => n + tokens(t), 0),
    largestCall: Math.max(...texts.map(tokens)),
    pageText,
    playwright: playwright.snapshot,
    playwrightNavigate: playwright.navigate,
    oursMs: summarize(ours.times),
    playwrightMs: summarize(playwright.times),
    devtools: devtools.snapshot,
    devtoolsMs: summarize(devtools.times),
    missing: page.facts.filter((fact) => !states(all, fact)),
    ...(ours.paged ? { paged: { tokens: ours.paged.tokens, calls: ours.paged.calls } } : {}),
  }
}

/** Tokens of the tool list `site-skills mcp --tools page` gives on `url` (the own tools and the site's). */
export async function pageListTokens(listing: Peer, url: string): Promise<number> {
  await listing.call('site_skills_navigate', { url })
  const tools = await listing.listTools()
  return tools.reduce((n, t) => n + tokens(toolText(t)), 0)
}

import { readdir, readFile } from 'node:fs/promises'
import { isDeepStrictEqual } from 'node:util'
import { join } from 'node:path'
import { isFixtureHeaderProblem, parseFixtureHeader } from '../src/compiler/fixture-format/header'

export const LEARNINGS = join(import.meta.dirname, '../learnings')

/** One tool call an agent makes to read a page. */
interface PageRead {
  tool: string
  args: Record<string, unknown>
}

/** A saved real page of a shipped skill, what an agent calls to read it, and what it must learn. */
export interface BenchPage {
  siteId: string
  /** The fixture, relative to the skill folder. */
  fixture: string
  /** The file on disk. */
  file: string
  /** The address it was saved from, where the bench serves it. */
  url: string
  reads: PageRead[]
  /**
   * Every string and number a user would ask for: the `expect` leaves of the examples of these reads
   * on this page (also those that read a part of it: offset, limit, maxChars), found in the whole read.
   */
  facts: string[]
}

/**
 * What a user reads on a page of each site, by its address: the stories or the thread on Hacker
 * News; the issue, or the repository and its README, on GitHub; the infobox and the lead on
 * Wikipedia; the article on MDN.
 */
const READS: Record<string, (url: URL) => PageRead[]> = {
  'hacker-news': (url) => [{ tool: url.pathname === '/item' ? 'read_comments' : 'read_stories', args: {} }],
  github: (url) =>
    /^\/[^/]+\/[^/]+\/(issues|pull)\/\d+/.test(url.pathname)
      ? [{ tool: 'read_issue', args: {} }]
      : [
          { tool: 'read_repo', args: {} },
          { tool: 'read_markdown', args: {} },
        ],
  wikipedia: () => [
    { tool: 'read_infobox', args: {} },
    { tool: 'read_section', args: {} },
  ],
  mdn: () => [{ tool: 'read_article', args: {} }],
}

interface Example {
  args?: Record<string, unknown>
  fixture?: string
  expect?: unknown
}

interface ManifestTools {
  browserTools?: Record<string, { examples?: Example[] }>
}

/** The strings (and numbers) of an expected value (keys aside), as facts a reader must find. */
function leaves(value: unknown, numbers: boolean): string[] {
  if (typeof value === 'string') return value ? [value] : []
  if (typeof value === 'number') return numbers ? [String(value)] : []
  if (Array.isArray(value)) return value.flatMap((item) => leaves(item, numbers))
  if (value && typeof value === 'object') return Object.values(value).flatMap((item) => leaves(item, numbers))
  return []
}

/** Arguments without those that only page or size a read: its facts are in the whole read. */
function sizeless(args: Record<string, unknown>): Record<string, unknown> {
  const { offset: _, limit: __, maxChars: ___, ...rest } = args
  return rest
}

/** Every saved real page (a fixture whose header names the repository it came from) of the shipped skills. */
export async function savedPages(): Promise<BenchPage[]> {
  const pages: BenchPage[] = []
  for (const siteId of Object.keys(READS)) {
    const manifest = JSON.parse(await readFile(join(LEARNINGS, siteId, 'manifest.json'), 'utf8')) as ManifestTools
    const names = (await readdir(join(LEARNINGS, siteId, 'fixtures'))).filter((n) => n.endsWith('.html')).sort()
    for (const name of names) {
      const file = join(LEARNINGS, siteId, 'fixtures', name)
      const header = parseFixtureHeader((await readFile(file, 'utf8')).slice(0, 16 * 1024))
      if (isFixtureHeaderProblem(header) || !header.header.source) continue
      const fixture = `fixtures/${name}`
      const reads = READS[siteId]!(new URL(header.header.url))
      const facts = reads.flatMap((read) =>
        (manifest.browserTools?.[read.tool]?.examples ?? [])
          .filter((e) => e.fixture === fixture && isDeepStrictEqual(sizeless(e.args ?? {}), read.args))
          // A part's numbers are about the part (its offset, next); its strings are in the whole read.
          .flatMap((e) => leaves(e.expect, isDeepStrictEqual(e.args ?? {}, read.args))),
      )
      pages.push({ siteId, fixture, file, url: header.header.url, reads, facts: [...new Set(facts)] })
    }
  }
  return pages
}

/**
 * Whether `text` states `fact`: as written, or as JSON or a CSV-like table would escape it
 * (quotes doubled or backslashed).
 */
export function states(text: string, fact: string): boolean {
  if (text.includes(fact)) return true
  const json = JSON.stringify(fact).slice(1, -1)
  return text.includes(json) || text.includes(fact.replaceAll('"', '""'))
}

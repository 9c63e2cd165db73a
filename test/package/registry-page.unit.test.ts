import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SITE_TOOL_ERRORS } from '../../runtime/error-catalog'
import { COMMANDS } from '../../src/cli/command-table'
import { DIAGNOSTIC_CATALOG } from '../../src/compiler/diagnostics/catalog'
import { COMMAND_PEERS, MissingPeerError } from '../../src/own/peers'
import { REPO_ROOT } from '../helpers/tmp'
import { DOC_FILES, DOCS } from './readme'

interface Manifest {
  repository?: { type?: string; url?: string }
  homepage?: string
  bugs?: { url?: string }
}
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest
const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')
const PAGES = DOC_FILES.filter((file) => file.startsWith('docs/'))

/** The repository's web address, from package.json's `repository.url` (`git+https://...git`). */
const repositoryPage = (): string => (pkg.repository?.url ?? '').replace(/^git\+/, '').replace(/\.git$/, '')

/** Markdown without its fenced code blocks. */
const withoutFences = (markdown: string): string => markdown.replace(/^```[\s\S]*?^```$/gm, '')

/** Markdown outside code: fenced blocks and inline code spans left out. */
const prose = (markdown: string): string => withoutFences(markdown).replace(/`[^`\n]*`/g, '')

/** Every Markdown link target of a page outside code: inline `[text](target)` and `[ref]: target`. */
function linksOf(markdown: string): string[] {
  const text = prose(markdown)
  const inline = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!)
  const references = [...text.matchAll(/^\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]!)
  return [...inline, ...references]
}

/** The anchors GitHub gives a page's headings: lowercased, punctuation dropped, spaces as `-`, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  const headings = withoutFences(markdown).matchAll(/^#{1,6} (.+)$/gm)
  for (const [, heading] of headings) {
    const text = heading!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '')
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

/** What is wrong with a link to `path` (a file of the repository) and its `#anchor`, or '' when it resolves. */
function problemOf(path: string, anchor: string | undefined, expectFolder: boolean | undefined): string {
  if (!existsSync(path)) return `${relative(REPO_ROOT, path)} does not exist`
  if (expectFolder !== undefined && statSync(path).isDirectory() !== expectFolder)
    return 'blob is a file, tree a folder'
  if (anchor === undefined || anchor === '') return ''
  if (!path.endsWith('.md')) return `#${anchor} on a file that has no headings`
  const anchors = anchorsOf(readFileSync(path, 'utf8'))
  return anchors.has(anchor) ? '' : `${relative(REPO_ROOT, path)} has no heading #${anchor} (it has ${[...anchors]})`
}

/** The problem of a link into the repository by its web address (`PAGE/blob/main/FILE#anchor`), or ''. */
function problemOfRepositoryLink(link: string): string {
  const page = repositoryPage()
  const match = /^\/(blob|tree)\/main\/([^#]+)(?:#(.*))?$/.exec(link.slice(page.length))
  if (match === null) return `expected ${page}/blob/main/FILE or /tree/main/FOLDER`
  return problemOf(join(REPO_ROOT, decodeURIComponent(match[2]!)), match[3], match[1] === 'tree')
}

/** Link labels used as `[text][label]` (or `[label][]`) with no `[label]: target` on the page. */
function undefinedReferences(markdown: string): string[] {
  const text = prose(markdown)
  const defined = new Set([...text.matchAll(/^\[([^\]]+)\]:\s*\S+/gm)].map((m) => m[1]!.toLowerCase()))
  const used = [...text.matchAll(/\[([^\]]+)\]\[([^\]]*)\]/g)].map((m) => (m[2] || m[1]!).toLowerCase())
  return used.filter((label) => !defined.has(label))
}

describe("the package's page on the npm registry (package.json and README.md as the tarball ships them)", () => {
  it('package.json names the repository, its home page and where to report bugs, on one GitHub repository', () => {
    expect(pkg.repository?.type).toBe('git')
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/)
    const page = repositoryPage()
    expect(pkg.homepage).toBe(`${page}#readme`)
    expect(pkg.bugs?.url).toBe(`${page}/issues`)
  })

  it('every README link works away from the repository: absolute, and a link into the repository names a file or folder that exists', () => {
    const links = linksOf(README)
    expect(links.length).toBeGreaterThanOrEqual(3)
    const relativeLinks = links.filter((link) => !/^(https?:|mailto:|#)/.test(link))
    expect(relativeLinks, 'relative links resolve to nothing on the registry page').toEqual([])
    const page = repositoryPage()
    const inside = links.filter((link) => link.startsWith(`${page}/`) && !link.startsWith(`${page}/issues`))
    expect(inside.length).toBeGreaterThanOrEqual(3)
    for (const link of inside) expect(problemOfRepositoryLink(link), link).toBe('')
  })

  it("every #anchor of the README names one of its headings, and every [text][label] has the label's target", () => {
    const anchors = anchorsOf(README)
    const own = linksOf(README).filter((link) => link.startsWith('#'))
    expect(own.length).toBeGreaterThanOrEqual(1)
    for (const link of own) expect(anchors.has(link.slice(1)), `${link} (the README has ${[...anchors]})`).toBe(true)
    expect(undefinedReferences(README)).toEqual([])
  })

  it('links every page under docs/, so the registry page reaches all the documentation', () => {
    expect(PAGES.length).toBeGreaterThanOrEqual(5)
    const linked = linksOf(README).map((link) => link.replace(/#.*$/, ''))
    const missing = PAGES.filter((file) => !linked.includes(`${repositoryPage()}/blob/main/${file}`))
    expect(missing, 'pages the README does not link').toEqual([])
  })
})

describe('the pages under docs/ (read on GitHub, where relative links work)', () => {
  it.each(PAGES)('%s: every relative link and #anchor names a file and heading that exist', (file) => {
    const markdown = DOCS.get(file)!
    const page = repositoryPage()
    const problems: string[] = []
    for (const link of linksOf(markdown)) {
      if (link.startsWith(`${page}/`) && !link.startsWith(`${page}/issues`)) {
        const problem = problemOfRepositoryLink(link)
        if (problem) problems.push(`${link}: ${problem}`)
        continue
      }
      if (/^[a-z][a-z+.-]*:/i.test(link)) continue // another site, or mailto:
      const [target, anchor] = link.split('#', 2) as [string, string | undefined]
      const path = target === '' ? join(REPO_ROOT, file) : join(REPO_ROOT, dirname(file), decodeURIComponent(target))
      const problem = problemOf(path, anchor, undefined)
      if (problem) problems.push(`${link}: ${problem}`)
    }
    expect(problems).toEqual([])
    expect(undefinedReferences(markdown)).toEqual([])
  })

  it('starts each page with one title', () => {
    for (const file of PAGES) {
      const markdown = DOCS.get(file)!
      expect(markdown.split('\n', 1)[0], file).toMatch(/^# \S/)
      expect(prose(markdown).match(/^# /gm), file).toHaveLength(1)
    }
  })
})

describe('hints that point at the documentation (what validate and a failed call print)', () => {
  const hints = [...Object.values(DIAGNOSTIC_CATALOG), ...Object.values(SITE_TOOL_ERRORS)].map((entry) => entry.hint)

  it('name a page by its web address, which resolves, never "the README section" that moved to docs/', () => {
    expect(hints.filter((hint) => /README/i.test(hint))).toEqual([])
    const page = repositoryPage()
    const links = hints.flatMap((hint) => hint.match(/https?:\/\/\S+/g) ?? [])
    expect(links.length).toBeGreaterThanOrEqual(2)
    for (const link of links) {
      expect(link.startsWith(`${page}/`), link).toBe(true)
      expect(problemOfRepositoryLink(link), link).toBe('')
    }
  })
})

describe("README's command table and Install section", () => {
  it('lists every command of the CLI in the table', () => {
    const rows = README.split('\n').filter((line) => line.startsWith('| `site-skills '))
    const listed = new Set(rows.map((row) => /^\| `site-skills ([a-z-]+)/.exec(row)?.[1]))
    expect(Object.keys(COMMANDS).filter((name) => !listed.has(name))).toEqual([])
  })

  it('gives the npm i -D line that each command on optional peers prints when one is missing', () => {
    const install = README.slice(README.indexOf('## Install'), README.indexOf('## Getting started'))
    for (const [command, peers] of Object.entries(COMMAND_PEERS)) {
      const line = /npm i -D .*$/.exec(new MissingPeerError(command, peers[0], false).message)?.[0]
      expect(line, command).toBeDefined()
      expect(install, command).toContain(line)
    }
  })
})

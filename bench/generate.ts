import { createHash } from 'node:crypto'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/** Everything the benchmarks write lives here (gitignored). */
export const TMP = join(import.meta.dirname, '.tmp')

/** Marks text that must never reach the main virtual module (notes and tool bodies). */
export const NOTE_MARKER = 'bench-note-body'
export const TOOL_MARKER = 'bench-tool-body'

const STAMP = '.bench-stamp'

export const skillId = (i: number) => `site-${String(i).padStart(5, '0')}`

/** Four shapes of domain list, all valid for the original and for this project. */
export function domainsOf(i: number): string[] {
  switch (i % 4) {
    case 0:
      return [`site${i}.com`, `*.site${i}.com`]
    case 1:
      return [`www.site${i}.org`, `app.site${i}.org`]
    case 2:
      return [`site${i}.co.uk`, `*.site${i}.co.uk`]
    default:
      return [`site${i}.io`]
  }
}

/** Even skills keep both Node tools in one file, odd ones in two. */
const nodeFiles = (i: number) =>
  i % 2 === 0 ? { search: 'tools/api.js', item: 'tools/api.js' } : { search: 'tools/search.js', item: 'tools/item.js' }

/** Even skills have an ES-module `fill_search` importing a helper; odd ones a bare arrow function. */
export const usesHelper = (i: number) => i % 2 === 0

function manifest(i: number): object {
  const id = skillId(i)
  const files = nodeFiles(i)
  const item = {
    type: 'object',
    description: 'One result row.',
    properties: {
      id: { type: 'string', required: true, description: 'Stable id from data-id.' },
      title: { type: 'string', required: true, description: 'Visible title.' },
      url: { type: 'string', required: false, description: 'Absolute link.' },
    },
  }
  return {
    id,
    name: `Site ${i} (benchmark)`,
    domains: domainsOf(i),
    notes: ['notes/overview.md'],
    nodeTools: {
      search_items: {
        description: `Search site ${i} and return the first results.`,
        path: files.search,
        callable: 'searchItems',
        args: {
          query: { type: 'string', required: true, description: 'Words to search for.' },
          maxResults: { type: 'integer', required: false, description: 'At most this many results (default 10).' },
          sort: {
            type: 'string',
            required: false,
            description: 'Result order.',
            enum: ['relevance', 'newest', 'oldest'],
          },
        },
        returns: { type: 'array', description: 'Result rows, best first.', items: item },
      },
      get_item: {
        description: `Open one item of site ${i} by id and read its details.`,
        path: files.item,
        callable: 'getItem',
        args: {
          id: { type: 'string', required: true, description: 'The item id.' },
          fields: {
            type: 'array',
            required: false,
            description: 'Fields to read.',
            items: { type: 'string', description: 'A field name.' },
          },
        },
        returns: {
          type: 'object',
          description: 'The item.',
          properties: {
            id: { type: 'string', required: true, description: 'Item id.' },
            fields: { type: 'object', required: false, description: 'Field values by name.' },
          },
        },
      },
    },
    browserTools: {
      read_list: {
        description: 'Read the result rows shown on the current page.',
        path: 'browser-tools/read-list.js',
        args: {
          limit: { type: 'integer', required: false, description: 'At most this many rows.' },
          includeHidden: { type: 'boolean', required: false, description: 'Also rows hidden by filters.' },
        },
        returns: { type: 'array', description: 'Rows in page order.', items: item },
      },
      fill_search: {
        description: 'Type a query into the search box and optionally submit it.',
        path: 'browser-tools/fill-search.js',
        timeoutMs: 10000,
        args: {
          query: { type: 'string', required: true, description: 'Text to type.' },
          submit: { type: 'boolean', required: false, description: 'Press Enter afterwards.' },
        },
        returns: { type: 'object', description: 'What was typed; { error } when the box is missing.' },
      },
    },
  }
}

function note(i: number): string {
  return `# Site ${i}

<!-- ${NOTE_MARKER} -->
Results are rendered as \`ul.results-${i} > li[data-id]\`; each row has a \`.title\` link and a
\`.meta\` line with the date. The search box is \`form[role=search] input[name=q]\`; submitting it
navigates to \`/search?q=...\`, which keeps the page URL shareable.

## Stable selectors
- Result rows: \`[data-testid="result-row-${i}"]\`, not the generated class names.
- Pagination: the \`a[rel=next]\` link; there is no infinite scroll.
- Item pages: \`/item/<id>\`; the title is the page's only \`h1\`.
`
}

function nodeSearch(i: number): string {
  return `export async function searchItems(ctx, args = {}) {
  const query = String(args.query || '').trim()
  if (!query) throw new Error('query is required')
  const max = Math.min(Math.max(Number(args.maxResults) || 10, 1), 50)
  await ctx.browser.openOrReuseTab('https://site${i}.example/search?q=' + encodeURIComponent(query), { wait: true })
  await ctx.page.waitForLoadState('load')
  const rows = await ctx.page.locator('ul.results-${i} > li[data-id]').evaluateAll((nodes, n) => nodes.slice(0, n).map((li) => ({
    id: li.dataset.id,
    title: li.querySelector('.title')?.textContent?.trim() ?? '',
    url: li.querySelector('a')?.href,
  })), max)
  return args.sort === 'oldest' ? rows.reverse() : rows
}
`
}

function nodeItem(i: number): string {
  return `const DEFAULT_FIELDS = ['title', 'author', 'date']

export async function getItem(ctx, args = {}) {
  if (!args.id) throw new Error('id is required')
  const fields = Array.isArray(args.fields) && args.fields.length ? args.fields : DEFAULT_FIELDS
  await ctx.browser.openOrReuseTab('https://site${i}.example/item/' + encodeURIComponent(args.id), { wait: true })
  const values = await ctx.page.locator('main [data-field]').evaluateAll((nodes, wanted) => Object.fromEntries(
    nodes.filter((n) => wanted.includes(n.dataset.field)).map((n) => [n.dataset.field, n.textContent.trim()]),
  ), fields)
  return { id: String(args.id), fields: values }
}
`
}

function readList(i: number): string {
  return `async function (args) {
  // Reads the visible result rows (${TOOL_MARKER}).
  const limit = Math.max(1, Number(args && args.limit) || 50)
  const includeHidden = Boolean(args && args.includeHidden)
  const rows = []
  for (const li of document.querySelectorAll('ul.results-${i} > li[data-id], [data-testid="result-row-${i}"]')) {
    if (li.hidden && !includeHidden) continue
    const link = li.querySelector('.title a, a.title')
    rows.push({ id: li.dataset.id, title: (link ? link.textContent : li.textContent).replace(/\\s+/g, ' ').trim(), url: link ? link.href : undefined })
    if (rows.length >= limit) break
  }
  return rows
}
`
}

function fillSearchModule(i: number): string {
  return `import { setInputValue, waitForSelector } from './lib/dom.js'

export default async function fillSearch(args) {
  const input = await waitForSelector('form[role=search] input[name=q], #search-${i}', 2000)
  if (!input) return { error: 'no search box (${TOOL_MARKER})' }
  setInputValue(input, String(args.query))
  if (args.submit) input.form ? input.form.requestSubmit() : input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
  return { typed: input.value, submitted: Boolean(args.submit) }
}
`
}

function fillSearchArrow(i: number): string {
  return `async (args) => {
  const input = document.querySelector('form[role=search] input[name=q], #search-${i}')
  if (!input) return { error: 'no search box (${TOOL_MARKER})' }
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set
  setter.call(input, String(args.query))
  input.dispatchEvent(new Event('input', { bubbles: true }))
  if (args.submit) input.form ? input.form.requestSubmit() : input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
  return { typed: input.value, submitted: Boolean(args.submit) }
}
`
}

const DOM_HELPER = `// Page-side helpers, bundled into the tools that import them.
export async function waitForSelector(selector, timeoutMs = 2000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = document.querySelector(selector)
    if (found || Date.now() >= deadline) return found
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

export function setInputValue(input, value) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set
  setter.call(input, value)
  input.dispatchEvent(new Event('input', { bubbles: true }))
}
`

/** The files of skill `i`, relative to the skill folder. */
/** Skill `i`'s files; `bare`: every browser tool a bare function (no ES module, no helper). */
function skillFiles(i: number, bare = false): Record<string, string> {
  const files: Record<string, string> = {
    'manifest.json': `${JSON.stringify(manifest(i), null, 2)}\n`,
    'notes/overview.md': note(i),
    'browser-tools/read-list.js': readList(i),
  }
  const node = nodeFiles(i)
  if (node.search === node.item) files[node.search] = `${nodeSearch(i)}\n${nodeItem(i)}`
  else Object.assign(files, { [node.search]: nodeSearch(i), [node.item]: nodeItem(i) })
  if (usesHelper(i) && !bare)
    Object.assign(files, {
      'browser-tools/fill-search.js': fillSearchModule(i),
      'browser-tools/lib/dom.js': DOM_HELPER,
    })
  else files['browser-tools/fill-search.js'] = fillSearchArrow(i)
  return files
}

/** Writes skill `i` into `root`. */
export async function writeSkill(root: string, i: number, bare = false): Promise<void> {
  const dir = join(root, skillId(i))
  const files = Object.entries(skillFiles(i, bare))
  await Promise.all([...new Set(files.map(([rel]) => join(dir, rel, '..')))].map((d) => mkdir(d, { recursive: true })))
  await Promise.all(files.map(([rel, text]) => writeFile(join(dir, rel), text)))
}

async function generatorVersion(): Promise<string> {
  return createHash('sha256')
    .update(await readFile(new URL(import.meta.url)))
    .digest('hex')
    .slice(0, 16)
}

/** Writes skills 1..n into a fresh `root`, a few hundred files at a time. */
async function writeSkills(root: string, n: number, bare = false): Promise<void> {
  await rm(root, { recursive: true, force: true })
  await mkdir(root, { recursive: true })
  for (let start = 1; start <= n; start += 200) {
    const batch = Array.from({ length: Math.min(200, n - start + 1) }, (_, k) => start + k)
    await Promise.all(batch.map((i) => writeSkill(root, i, bare)))
  }
}

/**
 * A root of `n` generated skills under bench/.tmp, reused while the generator is unchanged.
 * `fresh` regenerates it (for benchmarks that edit the tree); `bare`: bare-function browser tools only.
 */
export async function generateSkills(n: number, name = `skills-${n}`, fresh = false, bare = false): Promise<string> {
  const root = join(TMP, name)
  const stamp = `${await generatorVersion()} ${n}${bare ? ' bare' : ''}`
  const existing = await readFile(join(root, STAMP), 'utf8').catch(() => '')
  if (!fresh && existing === stamp) return root
  await writeSkills(root, n, bare)
  await writeFile(join(root, STAMP), stamp)
  return root
}

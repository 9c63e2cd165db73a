import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import { startServer, type TestServer } from '../helpers/server'
import { makeTempDir, writeTree } from '../helpers/tmp'
import type { Watched } from './harness'

/** The shop page before the site changed: products in a list. */
const SHOP_V1 =
  '<!doctype html><html><head><title>Corner Shop</title></head><body><h1>Corner Shop</h1>' +
  '<ul id="products"><li class="product"><span class="name">Tea</span> <span class="price">3.50</span></li>' +
  '<li class="product"><span class="name">Cake</span> <span class="price">2.25</span></li></ul>' +
  '<form><input type="password" name="pin" value="1234"></form><script>window.shop = 1</script></body></html>'

/** The same shop after a redesign: the products are cards with other classes. */
export const SHOP_V2 =
  '<!doctype html><html><head><title>Corner Shop</title></head><body><h1>Corner Shop</h1>' +
  '<section id="catalog"><article class="card"><h2 class="title">Tea</h2><p class="cost">3.50</p></article>' +
  '<article class="card"><h2 class="title">Cake</h2><p class="cost">2.25</p></article></section></body></html>'

/** A skill in the root the server may not write. */
const READ_ONLY: Record<string, unknown> = {
  'other/manifest.json': { id: 'other', name: 'Other', domains: ['other.test'], nodeTools: {}, browserTools: {} },
}

/** A writable root (empty), a read-only root, a page server for *.test hosts (the shop), and a browser. */
export interface AuthorWorld {
  dir: string
  readOnly: string
  pages: TestServer
  browser: LaunchedBrowser
  url: (host: string) => string
  /** What the shop serves from now on. */
  setShop: (html: string) => void
  close: () => Promise<void>
}

export async function createAuthorWorld(): Promise<AuthorWorld> {
  const { dir: base, cleanup } = await makeTempDir('mcp-author-')
  const dir = join(base, 'learnings')
  const readOnly = join(base, 'shared')
  await writeTree(dir, { '.keep': '' })
  await writeTree(readOnly, READ_ONLY)
  let shop = SHOP_V1
  const pages = await startServer({
    '/': (req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      res.end(req.headers.host?.startsWith('corner-shop.') ? shop : '<!doctype html><title>elsewhere</title>')
    },
  })
  const port = new URL(pages.origin).port
  const browser = await launchBrowser({ args: ['--host-resolver-rules=MAP *.test 127.0.0.1'] })
  return {
    dir,
    readOnly,
    pages,
    browser,
    url: (host) => `http://${host}:${port}/`,
    setShop(html) {
      shop = html
    },
    async close() {
      await browser.close()
      await pages.close()
      await cleanup()
    },
  }
}

/** `--root DIR --root READ_ONLY --cdp ...` (without --allow-write). */
export const authorArgs = (world: AuthorWorld) => [
  '--root',
  world.dir,
  '--root',
  world.readOnly,
  '--cdp',
  `127.0.0.1:${world.browser.port}`,
  '--tools',
  'all',
]

export const call = (mcp: Watched, name: string, args: Record<string, unknown> = {}) =>
  mcp.client.callTool({ name, arguments: args }) as Promise<CallToolResult>

/** What the authoring tools (and the own tools the tests read) return, as far as the tests look. */
export interface Reply {
  kept?: boolean
  created?: boolean
  ok?: boolean
  passed?: number
  tool?: string
  site?: string
  file?: string
  diagnostics: { at: string; code: string; severity: string; message: string; hint?: string }[]
  runs: { example: string; on: string; status: string; kind?: string; message?: string }[]
  results: { tool: string; status: string; kind?: string; fields?: string[]; repair: { steps: { tool: string }[] } }[]
  tools: { name: string }[]
  [key: string]: unknown
}

/** The JSON an authoring tool returned. */
export const jsonOf = (result: CallToolResult) => result.structuredContent as Reply
export const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text
export const errorCode = (result: CallToolResult) =>
  (result._meta?.['site-skills/error'] as { code?: string } | undefined)?.code

/** sha256 of every file below `dir`, by relative path (the "byte for byte" of a root). */
export async function digests(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    out[relative(dir, path)] = createHash('sha256')
      .update(await readFile(path))
      .digest('hex')
  }
  return out
}

/** The shop's browser tool, right. */
export const LIST_PRODUCTS_V1 = [
  'async function () {',
  "  const products = [...document.querySelectorAll('#products .product')].map((li) => ({",
  "    name: li.querySelector('.name').textContent.trim(),",
  "    price: Number(li.querySelector('.price').textContent),",
  '  }))',
  '  return { products }',
  '}',
].join('\n')

/** The same, after the redesign. */
export const LIST_PRODUCTS_V2 = [
  'async function () {',
  "  const products = [...document.querySelectorAll('#catalog .card')].map((card) => ({",
  "    name: card.querySelector('.title').textContent.trim(),",
  "    price: Number(card.querySelector('.cost').textContent),",
  '  }))',
  '  return { products }',
  '}',
].join('\n')

const PRODUCTS_RETURNS = {
  type: 'object',
  description: 'The products on the page.',
  properties: {
    products: {
      type: 'array',
      required: true,
      description: 'Name and price of each product.',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', required: true, description: 'Product name.' },
          price: { type: 'number', required: true, description: 'Price.' },
        },
      },
    },
  },
}

/** The write_tool arguments of the shop's list_products. */
export function listProducts(site: string, code: string, example: Record<string, unknown> = {}) {
  return {
    site,
    tool: 'list_products',
    kind: 'browser',
    code,
    description: 'List the products of the shop page with their prices.',
    args: {},
    returns: PRODUCTS_RETURNS,
    example: { name: 'home', args: {}, expect: { products: [{ name: 'Tea', price: 3.5 }] }, ...example },
  }
}

/** The browser tool page_title of the shop, as a client writes it (`site_skills_write_tool`'s arguments). */
export const PAGE_TITLE = {
  site: 'corner-shop-test',
  tool: 'page_title',
  kind: 'browser',
  code: 'async function () {\n  return { title: document.title }\n}\n',
  description: 'The title of the page.',
  args: {},
  returns: {
    type: 'object',
    description: 'The title.',
    properties: { title: { type: 'string', required: true, description: 'document.title' } },
  },
  example: { name: 'home', args: {}, expect: { title: 'Corner Shop' } },
}

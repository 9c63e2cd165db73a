/**
 * Node-side search over the Demo Shop catalogue. It reads the same products.json the page loads,
 * so it answers without a browser.
 *
 * ctx used:
 * - ctx.baseUrl (required): where the demo site is served, e.g. "http://localhost:4173" or
 *   "http://127.0.0.1:4173/index.html". products.json is fetched next to it.
 * - ctx.fetch (optional): a fetch implementation; defaults to the global fetch.
 */

export type Category = 'books' | 'electronics' | 'home' | 'outdoor'
export type SortOrder = 'relevance' | 'price-asc' | 'price-desc' | 'name'

export interface SearchCatalogArgs {
  query?: string | null
  category?: Category | null
  inStockOnly?: boolean | null
  maxPrice?: number | null
  sort?: SortOrder | null
  maxResults?: number | null
}

export interface CatalogContext {
  baseUrl?: string
  fetch?: typeof fetch
}

interface Product {
  id: string
  name: string
  category: string
  price: number
  currency: string
  stock: number
  description: string
  tags?: string[]
}

export interface CatalogItem {
  id: string
  name: string
  category: Category
  price: number
  currency: string
  stock: number
  inStock: boolean
  url: string
}

const CATEGORIES: readonly string[] = ['books', 'electronics', 'home', 'outdoor']
const SORTS: readonly string[] = ['relevance', 'price-asc', 'price-desc', 'name']

/** The site's root URL, without a trailing slash or a trailing /index.html. */
function siteRoot(baseUrl: string | undefined): string {
  if (!baseUrl || typeof baseUrl !== 'string') {
    throw new Error('ctx.baseUrl is required: the URL the demo site is served from, e.g. "http://localhost:4173"')
  }
  const url = new URL(baseUrl)
  url.search = ''
  url.hash = ''
  return url.href.replace(/\/index\.html$/, '').replace(/\/+$/, '')
}

function boundedInteger(value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined || value === null) return fallback
  const n = Number(value)
  if (!Number.isInteger(n)) throw new Error(`maxResults must be an integer, got ${JSON.stringify(value)}`)
  return Math.min(max, Math.max(min, n))
}

/** How well a product matches the query words: 0 means "does not match". Name hits weigh most. */
function score(product: Product, words: string[]): number {
  if (words.length === 0) return 1
  const name = product.name.toLowerCase()
  const rest = [product.description, product.category, ...(product.tags ?? [])].join(' ').toLowerCase()
  let total = 0
  for (const word of words) {
    if (name.includes(word)) total += 3
    else if (rest.includes(word)) total += 1
    else return 0
  }
  return total
}

export async function searchCatalog(ctx: CatalogContext = {}, args: SearchCatalogArgs = {}): Promise<CatalogItem[]> {
  const root = siteRoot(ctx?.baseUrl)
  const doFetch = ctx?.fetch ?? globalThis.fetch
  if (args.category != null && !CATEGORIES.includes(args.category)) {
    throw new Error(`category must be one of ${CATEGORIES.join(', ')}`)
  }
  const sort = args.sort ?? 'relevance'
  if (!SORTS.includes(sort)) throw new Error(`sort must be one of ${SORTS.join(', ')}`)
  const maxResults = boundedInteger(args.maxResults, 10, 1, 50)
  if (args.maxPrice != null && !(typeof args.maxPrice === 'number' && Number.isFinite(args.maxPrice))) {
    throw new Error('maxPrice must be a number')
  }
  const words = String(args.query ?? '').toLowerCase().split(/\s+/).filter(Boolean)

  const response = await doFetch(`${root}/products.json`, { headers: { accept: 'application/json' } })
  if (!response.ok) throw new Error(`GET ${root}/products.json failed: HTTP ${response.status}`)
  const products = (await response.json()) as Product[]
  if (!Array.isArray(products)) throw new Error('products.json is not a list of products')

  const hits = products
    .map((product, index) => ({ product, index, score: score(product, words) }))
    .filter(({ product, score }) =>
      score > 0 &&
      (args.category == null || product.category === args.category) &&
      (!args.inStockOnly || product.stock > 0) &&
      (args.maxPrice == null || product.price <= args.maxPrice))

  const order: Record<SortOrder, (a: (typeof hits)[number], b: (typeof hits)[number]) => number> = {
    relevance: (a, b) => b.score - a.score || a.index - b.index,
    'price-asc': (a, b) => a.product.price - b.product.price || a.index - b.index,
    'price-desc': (a, b) => b.product.price - a.product.price || a.index - b.index,
    name: (a, b) => a.product.name.localeCompare(b.product.name, 'en'),
  }
  hits.sort(order[sort])

  return hits.slice(0, maxResults).map(({ product }) => ({
    id: product.id,
    name: product.name,
    category: product.category as Category,
    price: product.price,
    currency: product.currency,
    stock: product.stock,
    inStock: product.stock > 0,
    url: `${root}/#product-${encodeURIComponent(product.id)}`,
  }))
}

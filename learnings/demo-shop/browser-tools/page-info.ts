import { catalogState, readCartCount } from './lib/dom.js'

interface PageInfoArgs {
  /** Wait for the catalogue to finish loading first (default true). */
  waitForReady?: boolean
}

interface PageInfo {
  url: string
  title: string
  heading: string
  state: string | null
  query: string
  category: string
  inStockOnly: boolean
  categories: string[]
  productCount: number
  visibleCount: number
  cartCount: number | null
  cartTotal: number | null
}

/** A quick overview of the Demo Shop page: where we are, what is filtered, what is in the cart. */
export default async function pageInfo(args: PageInfoArgs = {}): Promise<PageInfo | { error: string }> {
  const main = document.querySelector<HTMLElement>('main[data-state]')
  if (!main) return { error: 'not a Demo Shop catalogue page (no main[data-state])' }
  if (args.waitForReady !== false) {
    const deadline = Date.now() + 5000
    while (catalogState() === 'loading' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
  }

  const form = document.getElementById('search-form') as HTMLFormElement | null
  const field = (name: string) => form?.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null
  const select = field('category') as HTMLSelectElement | null
  const cards = [...document.querySelectorAll<HTMLLIElement>('#product-list li[data-product-id]')]
  const total = document.getElementById('cart-total')?.getAttribute('data-total')

  return {
    url: location.href,
    title: document.title,
    heading: document.querySelector('h1')?.textContent?.trim() ?? '',
    state: catalogState(),
    query: (field('q') as HTMLInputElement | null)?.value ?? '',
    category: select?.value ?? '',
    inStockOnly: Boolean((field('instock') as HTMLInputElement | null)?.checked),
    categories: select ? [...select.options].map((o) => o.value).filter(Boolean) : [],
    productCount: cards.length,
    visibleCount: cards.filter((card) => !card.hidden).length,
    cartCount: readCartCount(),
    cartTotal: total == null ? null : Number(total),
  }
}

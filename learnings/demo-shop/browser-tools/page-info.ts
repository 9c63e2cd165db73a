// Typed against its manifest entry: `site-skills check` reports any disagreement at this file's lines.
// The import is type-only, so the bundled tool is still one self-contained function.
import type { BrowserTool, SiteToolResult } from 'unplugin-site-skills/tool'
import { catalogState, readCartCount } from './lib/dom.js'

type PageState = SiteToolResult<'demo-shop', 'page_info'>['state']
const STATES: readonly string[] = ['loading', 'ready', 'error']

/** A quick overview of the Demo Shop page: where we are, what is filtered, what is in the cart. */
const pageInfo: BrowserTool<'demo-shop', 'page_info'> = async (args = {}) => {
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
    state: STATES.includes(catalogState() ?? '') ? (catalogState() as PageState) : undefined,
    query: (field('q') as HTMLInputElement | null)?.value ?? '',
    category: select?.value ?? '',
    inStockOnly: Boolean((field('instock') as HTMLInputElement | null)?.checked),
    categories: select ? [...select.options].map((o) => o.value).filter(Boolean) : [],
    productCount: cards.length,
    visibleCount: cards.filter((card) => !card.hidden).length,
    cartCount: readCartCount() ?? undefined,
    cartTotal: total == null ? undefined : Number(total),
  }
}

export default pageInfo

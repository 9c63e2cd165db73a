// @ts-check
import { findCard, readCard, readCartCount, waitFor, waitForCatalog } from './lib/dom.js'

/**
 * Clicks "Add to cart" on one product card, `quantity` times, and reports the header cart
 * counter afterwards. Stops early (and says why) when the button is disabled: out of stock, or
 * the cart already holds all the stock. A hidden card (filtered out by the search) is still
 * clickable through the DOM.
 *
 * @type {import('unplugin-site-skills/tool').BrowserTool<'demo-shop', 'add_to_cart'>}
 */
export default async function addToCart(args) {
  const productId = String(args?.productId ?? '').trim()
  const quantity = args?.quantity == null ? 1 : Number(args.quantity)
  if (!productId) return { ok: false, error: 'productId is required' }
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > 20) return { ok: false, error: 'quantity must be an integer from 1 to 20' }

  const state = await waitForCatalog()
  if (state === null) return { ok: false, error: 'not a Demo Shop catalogue page (no main[data-state])' }
  if (state !== 'ready') return { ok: false, error: `catalogue is not ready (state: ${state})` }

  const card = findCard(productId)
  if (!card) return { ok: false, error: `no product with data-product-id "${productId}" on this page` }
  const before = readCartCount() ?? 0
  let added = 0
  let reason = null
  for (let i = 0; i < quantity; i++) {
    const button = /** @type {HTMLButtonElement | null} */ (card.querySelector('button[data-action="add-to-cart"]'))
    if (!button) { reason = 'the card has no Add to cart button'; break }
    if (button.disabled) { reason = readCard(card).inStock ? 'stock limit reached' : 'out of stock'; break }
    const expected = before + added + 1
    button.click()
    // The counter is updated synchronously by the page, but wait briefly in case it is not.
    const updated = await waitFor(() => (readCartCount() ?? 0) >= expected, { timeoutMs: 2000 })
    if (!updated) { reason = 'the cart counter did not change after the click'; break }
    added++
  }

  const cartCount = readCartCount() ?? 0
  return {
    ok: added === quantity,
    productId,
    added,
    cartCount,
    product: readCard(card),
    ...(reason ? { error: reason } : {}),
  }
}

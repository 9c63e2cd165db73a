// Page-side helpers shared by the demo-shop browser tools. They are bundled into each tool that
// imports them, so they may only use the DOM (no Node APIs, no network).

/** Polls `check` until it returns a truthy value or `timeoutMs` passes; resolves to that value or null. */
export async function waitFor(check, { timeoutMs = 5000, intervalMs = 50 } = {}) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = check()
    if (value) return value
    if (Date.now() >= deadline) return null
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

/** The catalogue's load state: 'loading', 'ready', 'error', or null when this is not the demo shop. */
export function catalogState() {
  return document.querySelector('main[data-state]')?.getAttribute('data-state') ?? null
}

/** Waits until the catalogue has finished loading; returns its final state (or null off-site). */
export async function waitForCatalog(timeoutMs = 5000) {
  if (!document.querySelector('main[data-state]')) return null
  await waitFor(() => catalogState() !== 'loading', { timeoutMs })
  return catalogState()
}

/** The number in the header cart counter, or null when the counter is missing. */
export function readCartCount() {
  const output = document.getElementById('cart-count')
  if (!output) return null
  const value = Number.parseInt(output.textContent.trim(), 10)
  return Number.isFinite(value) ? value : null
}

/** The product card (`li[data-product-id]`) for an id, or null. */
export function findCard(productId) {
  return document.querySelector(`#product-list li[data-product-id="${CSS.escape(String(productId))}"]`)
}

/** Plain data about one product card, read from its data-* attributes and text. */
export function readCard(card) {
  const button = card.querySelector('button[data-action="add-to-cart"]')
  return {
    id: card.dataset.productId,
    name: card.querySelector('.product-name')?.textContent.trim() ?? '',
    category: card.dataset.category ?? '',
    price: Number(card.dataset.price),
    currency: card.dataset.currency ?? 'USD',
    stock: Number(card.dataset.stock),
    inStock: card.dataset.inStock === 'true',
    visible: !card.hidden,
    canAddToCart: Boolean(button && !button.disabled),
  }
}

async function (args) {
  // Reads the product cards of the Demo Shop catalogue page (`#product-list li[data-product-id]`).
  // A bare function expression: no imports, DOM only.
  const includeHidden = Boolean(args && args.includeHidden)
  const inStockOnly = Boolean(args && args.inStockOnly)
  const main = document.querySelector('main[data-state]')
  if (!main) return { error: 'not a Demo Shop catalogue page (no main[data-state])' }

  // The list is rendered after products.json loads; wait for it (up to 5 s).
  const deadline = Date.now() + 5000
  while (main.getAttribute('data-state') === 'loading' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const state = main.getAttribute('data-state')
  if (state !== 'ready') {
    const message = document.getElementById('load-error')
    return { error: state === 'error' ? (message ? message.textContent.trim() : 'catalogue failed to load') : 'catalogue still loading after 5 s' }
  }

  const text = (root, selector) => {
    const node = root.querySelector(selector)
    return node ? node.textContent.replace(/\s+/g, ' ').trim() : ''
  }
  const products = []
  for (const card of document.querySelectorAll('#product-list li[data-product-id]')) {
    if (card.hidden && !includeHidden) continue
    if (inStockOnly && card.dataset.inStock !== 'true') continue
    const button = card.querySelector('button[data-action="add-to-cart"]')
    const stockNode = card.querySelector('.product-stock')
    products.push({
      id: card.dataset.productId,
      name: text(card, '.product-name'),
      category: card.dataset.category || '',
      description: text(card, '.product-description'),
      price: Number(card.dataset.price),
      currency: card.dataset.currency || 'USD',
      priceText: text(card, '.product-price'),
      stock: Number(card.dataset.stock),
      stockState: stockNode ? stockNode.getAttribute('data-stock-state') : null,
      inStock: card.dataset.inStock === 'true',
      visible: !card.hidden,
      canAddToCart: Boolean(button && !button.disabled),
    })
  }

  const params = new URLSearchParams(location.search)
  const count = document.getElementById('cart-count')
  return {
    query: params.get('q') || '',
    category: params.get('category') || '',
    cartCount: count ? Number.parseInt(count.textContent, 10) || 0 : 0,
    count: products.length,
    products,
  }
}

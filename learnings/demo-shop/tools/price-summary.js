/**
 * Price statistics over a list of priced items, e.g. the result of search_catalog or
 * read_products. Pure computation: it uses neither ctx nor the network.
 */

function round2(value) {
  return Math.round(value * 100) / 100
}

export async function priceSummary(_ctx, args = {}) {
  const items = args.items
  if (!Array.isArray(items)) throw new Error('items must be an array of { price, quantity?, id? } objects')

  const rows = items.map((item, index) => {
    if (item === null || typeof item !== 'object') throw new Error(`items[${index}] must be an object`)
    const price = Number(item.price)
    if (!Number.isFinite(price) || price < 0) throw new Error(`items[${index}].price must be a non-negative number`)
    const quantity = item.quantity == null ? 1 : Number(item.quantity)
    if (!Number.isInteger(quantity) || quantity < 0) throw new Error(`items[${index}].quantity must be a non-negative integer`)
    return { id: item.id == null ? null : String(item.id), price, quantity }
  })

  const currency = args.currency ?? items.find((item) => typeof item?.currency === 'string')?.currency ?? 'USD'
  if (rows.length === 0) {
    return { count: 0, units: 0, min: null, max: null, average: null, median: null, total: 0, currency, cheapest: null, mostExpensive: null }
  }

  let cheapest = rows[0]
  let dearest = rows[0]
  for (const row of rows) {
    if (row.price < cheapest.price) cheapest = row
    if (row.price > dearest.price) dearest = row
  }
  const prices = rows.map((row) => row.price).sort((a, b) => a - b)
  const middle = Math.floor(prices.length / 2)
  const median = prices.length % 2 ? prices[middle] : (prices[middle - 1] + prices[middle]) / 2

  return {
    count: rows.length,
    units: rows.reduce((sum, row) => sum + row.quantity, 0),
    min: cheapest.price,
    max: dearest.price,
    average: round2(prices.reduce((sum, price) => sum + price, 0) / prices.length),
    median: round2(median),
    total: round2(rows.reduce((sum, row) => sum + row.price * row.quantity, 0)),
    currency,
    cheapest: cheapest.id,
    mostExpensive: dearest.id,
  }
}

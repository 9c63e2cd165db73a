/**
 * A skill whose results are checked against its `returns` (nullable values, a map, nested
 * `required`): `products` returns a matching result with `{ mode: 'good' }` and a drifted one
 * (prices as text) otherwise; the browser tool `read_price` returns null for a price that is
 * required and not nullable. Its domain is 127.0.0.1, so it runs on a test server's pages.
 */
export const DRIFT_SKILL: Record<string, unknown> = {
  'drift/manifest.json': {
    id: 'drift',
    name: 'Drift',
    domains: ['127.0.0.1'],
    notes: [],
    nodeTools: {
      products: {
        description: 'Products of the shop.',
        path: 'tools/products.js',
        callable: 'products',
        args: { mode: { type: 'string', required: true, description: 'good or drift.' } },
        returns: {
          type: 'object',
          description: 'The products.',
          properties: {
            products: {
              type: 'array',
              required: true,
              items: {
                type: 'object',
                properties: {
                  id: { type: 'string', required: true },
                  price: { type: 'number', required: true, nullable: true, description: 'Null when sold out.' },
                  note: { type: 'string' },
                },
              },
            },
            stock: { type: 'object', required: true, additionalProperties: { type: 'integer', nullable: true } },
            cursor: { type: 'string', required: true, nullable: true },
          },
        },
      },
    },
    browserTools: {
      read_price: {
        description: 'The price shown on the page.',
        path: 'browser-tools/read-price.js',
        args: {},
        returns: {
          type: 'object',
          description: 'Title and price.',
          properties: { title: { type: 'string', required: true }, price: { type: 'number', required: true } },
        },
      },
    },
  },
  'drift/tools/products.js': `export async function products(ctx, { mode }) {
  if (mode === 'good')
    return { products: [{ id: 'a', price: 1 }, { id: 'b', price: null, note: null }], stock: { a: 3, b: null }, cursor: null }
  return { products: [{ id: 'a', price: '1 €' }, { id: 'b', price: '2 €' }], stock: {}, cursor: null }
}
`,
  'drift/browser-tools/read-price.js': `async function () {
  return { title: document.title, price: null }
}
`,
}

/** What `products` returns with `{ mode: 'good' }`. */
export const GOOD_PRODUCTS = {
  products: [
    { id: 'a', price: 1 },
    { id: 'b', price: null, note: null },
  ],
  stock: { a: 3, b: null },
  cursor: null,
}

/** The messages of the two mismatches (without the tool's file). */
export const DRIFT_MESSAGE =
  'drift -> products: result does not match the manifest\'s returns: result.products[0].price must be a number or null (got "1 €"). Hint: if the site changed, fix the tool; else fix its "returns" (drift/tools/products.js)'
export const PAGE_MESSAGE =
  'drift -> read_price: result does not match the manifest\'s returns: result.price is missing (got null). Hint: if null is a real answer, mark it "nullable": true (drift/browser-tools/read-price.js)'

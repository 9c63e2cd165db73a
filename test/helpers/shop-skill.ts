/** The manifest of a one-tool skill, `shop` (a Node tool `double` in tools/double.js), for tests of roots and packages. */
export const SHOP_MANIFEST = {
  id: 'shop',
  name: 'Shop',
  domains: ['shop.example.com'],
  nodeTools: {
    double: {
      description: 'Doubles n.',
      path: 'tools/double.js',
      callable: 'double',
      args: { n: { type: 'integer', required: true, description: 'A number.' } },
      returns: { type: 'integer', description: 'Twice n.' },
    },
  },
}

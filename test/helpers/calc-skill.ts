/** A skill of one Node tool with one example (`add`, 1 + 2 = 3): what `test --record` records. */
export const ADD = 'export function add(ctx, args) {\n  return args.a + args.b\n}\n'
/** Its manifest. */
export const CALC = {
  id: 'calc',
  name: 'Calc',
  domains: ['calc.example.com'],
  notes: ['notes/overview.md'],
  nodeTools: {
    add: {
      description: 'Adds two numbers.',
      path: 'tools/add.js',
      callable: 'add',
      args: {
        a: { type: 'number', required: true, description: 'First.' },
        b: { type: 'number', required: true, description: 'Second.' },
      },
      returns: { type: 'number', description: 'The sum.' },
      examples: [{ name: 'one-plus-two', args: { a: 1, b: 2 }, expect: 3 }],
    },
  },
}

import { join } from 'node:path'
import { expect, it } from 'vitest'
import { RULES, compileRoots, describe } from '../helpers/compile'

it('keeps the checked examples on the tool model, and --compat ego-lite accepts them', async () => {
  for (const compat of [undefined, 'ego-lite'] as const) {
    const result = await compileRoots([join(RULES, 'valid-examples')], compat)
    expect(describe(result.diagnostics)).toEqual([])
    const tools = result.skills[0]!.model.tools
    const read = tools.find((t) => t.name === 'read')!
    expect(read.examples?.map((e) => [e.name, e.url, e.fixture, e.expect])).toEqual([
      ['list', 'https://shop.example.com/list', 'fixtures/list.html', { value: { title: 'List', count: 2 } }],
      ['#2', 'https://www.shop.example.com/list', 'fixtures/list.html', undefined],
    ])
    expect(tools.find((t) => t.name === 'sum')!.examples?.[0]).toEqual({
      name: 'small',
      args: { a: 1, b: 2 },
      expect: { value: { total: 3 } },
    })
  }
})

it('reports each bad example once, at the member it is about', async () => {
  const result = await compileRoots([join(RULES, 'example-url')])
  const lines = describe(result.diagnostics)
  expect(lines.filter((l) => l.includes('examples[3]'))).toEqual([
    'url/manifest.json:83:11 error example-invalid: browserTools.read.examples[3]: url must be an http:// or https:// address',
  ])
  expect(result.skills).toEqual([])
})

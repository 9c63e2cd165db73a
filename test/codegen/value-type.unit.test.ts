import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ValueSchema } from '../../runtime/index'
import { generateDts } from '../../src/codegen/dts'
import { printFields, printReturnsType, printValueType } from '../../src/codegen/value-type'
import { compileRoots } from '../helpers/compile'
import { REPO_ROOT } from '../helpers/tmp'

const s = (type: ValueSchema['type'], more: Partial<ValueSchema> = {}): ValueSchema => ({
  type,
  description: 'A value.',
  ...more,
})

describe('one printer of value schemas as TypeScript types', () => {
  it('on one line (the skills explorer): keys bare where they can be, members in manifest order', () => {
    const args = { productId: s('string', { required: true }), quantity: s('integer'), 'data-id': s('boolean') }
    expect(printFields(args)).toBe('{ productId: string; quantity?: number; "data-id"?: boolean }')
    expect(printFields({})).toBe('Record<string, never>')
    expect(printValueType(s('array', { items: s('string', { enum: ['a', 'b'] }) }))).toBe('Array<"a" | "b">')
    expect(printValueType(s('array'))).toBe('unknown[]')
    expect(printValueType(s('object'))).toBe('Record<string, unknown>')
    const nested = s('object', {
      properties: { tags: s('array', { items: s('object', { properties: { n: s('number') } }) }) },
    })
    expect(printValueType(nested)).toBe('{ tags?: Array<{ n?: number }> }')
  })

  it('on one line too: nullable values, maps, and a result that is not required', () => {
    expect(printValueType(s('string', { nullable: true }))).toBe('string | null')
    expect(printValueType(s('object', { additionalProperties: s('number') }))).toBe('Record<string, number>')
    const mixed = s('object', { properties: { a: s('string', { required: true }) }, additionalProperties: s('number') })
    expect(printValueType(mixed)).toBe('{ a: string; [key: string]: number | string }')
    expect(printReturnsType(s('boolean', { required: false }))).toBe('boolean | null | undefined')
    expect(printReturnsType(s('boolean'))).toBe('boolean')
  })

  it('with an indentation (the d.ts): one documented member a line, keys quoted', () => {
    const args = { q: s('string', { required: true, description: 'The */ query.' }) }
    expect(printFields(args, '  ')).toBe('{\n    /** The *\\/ query. */\n    "q": string\n  }')
  })

  it('is what the generated d.ts declares for every tool', async () => {
    const { skills } = await compileRoots([join(REPO_ROOT, 'test/fixtures/app/learnings')])
    const dts = generateDts(skills)
    const tools = skills.flatMap((skill) => skill.model.tools)
    expect(tools.length).toBeGreaterThan(5)
    for (const tool of tools) {
      expect(dts).toContain(`args: ${printFields(tool.args, '        ')}\n`)
      expect(dts).toContain(`returns: ${printReturnsType(tool.returns, '        ')}\n`)
    }
  })
})

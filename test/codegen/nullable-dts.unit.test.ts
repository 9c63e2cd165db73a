import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { generateDts } from '../../src/codegen/dts'
import { RULES, compileRoots } from '../helpers/compile'

describe('d.ts of nullable values and maps', () => {
  it('--compat ego-lite accepts the new keys (the original ignores keys it does not know)', async () => {
    expect((await compileRoots([join(RULES, 'valid-value-keys')], 'ego-lite')).diagnostics).toEqual([])
  })

  it('nullable is T | null, a map Record<string, T>, a property without required ?: T', async () => {
    const dts = generateDts((await compileRoots([join(RULES, 'valid-value-keys')])).skills)
    expect(dts).toContain('"after": string | null\n')
    expect(dts).toContain('"headers"?: Record<string, string>\n')
    expect(dts).toContain('"price": number | null\n')
    expect(dts).toContain('"note"?: string\n')
    expect(dts).toContain('"stock"?: Record<string, number | null>\n')
    expect(dts).toContain('"a"?: string\n            [key: string]: unknown\n')
    expect(dts).toContain('returns: Record<string, unknown> | null\n')
    expect(dts).toContain('"empty"?: Record<string, never>\n')
  })
})

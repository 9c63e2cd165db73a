import { describe, expect, it } from 'vitest'
import type { ValueSchema } from '../../runtime/skill-data'
import { findDrift } from '../../src/examples/expect'

// `test --live`: which differences between the fixture's result and the live one are selector drift.
const RETURNS: ValueSchema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    error: { type: 'string' },
    count: { type: 'integer', required: true },
    items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
    stock: { type: 'object', additionalProperties: { type: 'integer' } },
  },
}

describe('findDrift', () => {
  const fixture = { title: 'Shop', error: 'no JS on the fixture', count: 2, items: [{ name: 'Lamp' }], stock: { a: 1 } }

  it('a key that returns allows to be left out, left out live, is not drift (nested and in maps too)', () => {
    expect(findDrift(fixture, { count: 2, items: [{ price: 3 }], stock: {} }, RETURNS)).toEqual(['result.stock'])
    expect(findDrift(fixture, { count: 2, items: [{ price: 3 }], stock: { b: 2 } }, RETURNS)).toEqual([])
  })

  it('a key kept but empty live is drift, whatever returns says', () => {
    const live = { title: '', error: null, count: 2, items: [], stock: { b: 1 } }
    expect(findDrift(fixture, live, RETURNS)).toEqual(['result.title', 'result.error', 'result.items'])
  })

  it('a key left out live is drift when returns does not declare it, or without returns', () => {
    expect(findDrift({ extra: 'x' }, { other: 1 }, RETURNS)).toEqual(['result.extra'])
    expect(findDrift({ error: 'x' }, { other: 1 })).toEqual(['result.error'])
  })
})

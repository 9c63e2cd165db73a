import { describe, expect, it } from 'vitest'
import type { ValueSchema } from '../../runtime/index'
import { argsProblem, resultProblem } from '../../runtime/internal'

/*
 * The runtime checks every call's arguments and result against the schemas of the metadata
 * (runtime/value-problems.ts); no validator code is generated, so these are the runtime's tests.
 */

type Check = (value: unknown) => unknown
const returns =
  (schema: ValueSchema): Check =>
  (value) =>
    resultProblem(schema, value)
const args =
  (schema: Record<string, ValueSchema>): Check =>
  (value) =>
    argsProblem(schema, value as Record<string, unknown>)

describe('checks of results and arguments: nullable', () => {
  it('the result itself: null only when nullable, nothing only when required is false', () => {
    const plain = returns({ type: 'object' })
    expect(plain(null)).toEqual(['result', 'present', null])
    expect(plain(undefined)).toEqual(['result', 'present', undefined])
    const nullable = returns({ type: 'object', nullable: true })
    expect(nullable(null)).toBeUndefined()
    expect(nullable(undefined)).toEqual(['result', 'present', undefined])
    expect(nullable(3)).toEqual(['result', 'an object or null', 3])
    expect(returns({ type: 'object', required: false })(undefined)).toBeUndefined()
  })

  it('array items and map values: null only when nullable', () => {
    const items = returns({ type: 'array', items: { type: 'string', nullable: true } })
    expect(items(['a', null])).toBeUndefined()
    expect(items(['a', 1])).toEqual(['result[1]', 'a string or null', 1])
    const strict = returns({ type: 'array', items: { type: 'string' } })
    expect(strict(['a', null])).toEqual(['result[1]', 'a string', null])
  })
})

describe('checks of results and arguments: nested required', () => {
  const check = returns({
    type: 'object',
    properties: {
      id: { type: 'string', required: true },
      price: { type: 'number', required: true, nullable: true },
      note: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
    },
  })

  it('without required: absent, undefined or null are all "no value"', () => {
    expect(check({ id: 'a', price: 1 })).toBeUndefined()
    expect(check({ id: 'a', price: 1, note: null, tags: undefined })).toBeUndefined()
    expect(check({ id: 'a', price: 1, note: 2 })).toEqual(['result.note', 'a string', 2])
  })

  it('with required: present and not null; with nullable as well, present (null allowed)', () => {
    expect(check({ price: 1 })).toEqual(['result.id', 'present', undefined])
    expect(check({ id: null, price: 1 })).toEqual(['result.id', 'present', null])
    expect(check({ id: 'a', price: null })).toBeUndefined()
    expect(check({ id: 'a' })).toEqual(['result.price', 'present', undefined])
    expect(check({ id: 'a', price: '1 €' })).toEqual(['result.price', 'a number or null', '1 €'])
  })

  it('arguments follow the same rules', () => {
    const check = args({
      id: { type: 'string', required: true },
      after: { type: 'string', required: true, nullable: true },
      note: { type: 'string', required: false },
    })
    expect(check({ id: 'a', after: null, note: null })).toBeUndefined()
    expect(check({ id: 'a' })).toEqual(['after', 'present', undefined])
    expect(check({ id: null, after: 'x' })).toEqual(['id', 'present', null])
  })
})

describe('checks of results and arguments: additionalProperties', () => {
  it('a map: every other key is checked against the schema, with its JSON path', () => {
    const check = returns({
      type: 'object',
      properties: { total: { type: 'integer', required: true } },
      additionalProperties: { type: 'integer', nullable: true },
    })
    expect(check({ total: 2, a: 1, b: null })).toBeUndefined()
    expect(check({ total: 2, a: 'x' })).toEqual(['result.a', 'an integer or null', 'x'])
    expect(check({ total: 2, 'odd key': 'x' })).toEqual(['result["odd key"]', 'an integer or null', 'x'])
    expect(check({ total: 'x' })).toEqual(['result.total', 'an integer', 'x'])
  })

  it('nested maps of objects: paths through items and keys', () => {
    const check = returns({
      type: 'array',
      items: {
        type: 'object',
        properties: {
          stock: { type: 'object', additionalProperties: { type: 'object', properties: { n: { type: 'integer' } } } },
        },
      },
    })
    expect(check([{ stock: { a: { n: 1 } } }, { stock: { b: { n: 1.5 } } }])).toEqual([
      'result[1].stock.b.n',
      'an integer',
      1.5,
    ])
  })

  it('false refuses other keys; true and absent allow them', () => {
    const closed = returns({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false })
    expect(closed({ a: 'x' })).toBeUndefined()
    expect(closed({ a: 'x', b: 1 })).toEqual(['result.b', 'absent', 1])
    expect(
      returns({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true })({ b: 1 }),
    ).toBe(undefined)
    expect(returns({ type: 'object', properties: { a: { type: 'string' } } })({ b: 1 })).toBeUndefined()
  })

  it('a map argument is checked like a map result', () => {
    const check = args({
      headers: { type: 'object', required: false, additionalProperties: { type: 'string' } },
    })
    expect(check({ headers: { accept: 'text/html' } })).toBeUndefined()
    expect(check({ headers: { accept: 1 } })).toEqual(['headers.accept', 'a string', 1])
  })

  it('a key that is not an identifier is quoted in the path', () => {
    const hostile = '"]);globalThis.pwnedMap=1;//'
    const check = returns({ type: 'object', additionalProperties: { type: 'string' } })
    expect(check({ [hostile]: 1 })).toEqual([`result[${JSON.stringify(hostile)}]`, 'a string', 1])
  })
})

describe('checks of arguments: names and literals', () => {
  it('a hostile argument name and enum literal are compared as data and quoted in the message', () => {
    const hostile = '"]);globalThis.pwned=1;//\u2028</script>'
    const check = args({ [hostile]: { type: 'string', required: true, enum: [hostile, 'b'] } })
    expect(check({ [hostile]: hostile })).toBeUndefined()
    expect(check({ [hostile]: 'c' })).toEqual([hostile, `one of ${JSON.stringify(hostile)}, "b"`, 'c'])
    expect(check({})).toEqual([hostile, 'present', undefined])
  })
})

import { describe, expect, it } from 'vitest'
import { isSiteToolError } from '../../runtime/errors'
import { createDomainTableData } from '../../runtime/match'
import { createSiteSkills } from '../../runtime/registry'
import type { Literal, SkillMeta, ValueSchema, ValueType } from '../../runtime/skill-data'

/** mulberry32: a small seeded generator, so that a failure can be replayed by its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Rng = () => number
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!
const TYPES: ValueType[] = ['string', 'number', 'integer', 'boolean', 'array', 'object']
const NAMES = ['q', 'limit', 'hasOwnProperty', 'tags', '__proto__', 'constructor']
NAMES.push('a b', 'ünï', '0', 'toString', 'x"y')
const STRINGS = ['', 'a', 'up', '"', '\\', '\u0000', '\u2028', '🎉', '</script>', '__proto__']
const NUMBERS = [0, -0, 1, -1, 1.5, 2 ** 53, -(2 ** 31), 1e300]
const HUGE = 'x'.repeat(17 * 2 ** 20)

/** Sets a property as an own data property, `__proto__` included. */
const own = (target: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })

function schemaOf(rng: Rng, depth: number): ValueSchema {
  const type = depth > 3 ? pick(rng, TYPES.slice(0, 4)) : pick(rng, TYPES)
  const schema: ValueSchema = { type, required: rng() < 0.5 }
  const literals = type === 'string' ? STRINGS : type === 'integer' ? [0, 1, 2 ** 53] : []
  const chosen = rng() < 0.3 ? literals.filter(() => rng() < 0.5) : []
  if (chosen.length) schema.enum = chosen
  if (type === 'array' && rng() < 0.7) schema.items = schemaOf(rng, depth + 1)
  if (type === 'object' && rng() < 0.7) schema.properties = fieldsOf(rng, depth + 1)
  return schema
}

function fieldsOf(rng: Rng, depth: number): Record<string, ValueSchema> {
  const fields: Record<string, ValueSchema> = {}
  for (let i = Math.floor(rng() * 4); i > 0; i--) own(fields, pick(rng, NAMES), schemaOf(rng, depth))
  return fields
}

function validValue(rng: Rng, schema: ValueSchema): unknown {
  if (schema.enum?.length) return pick(rng, schema.enum)
  switch (schema.type) {
    case 'string':
      return pick(rng, STRINGS) + pick(rng, STRINGS)
    case 'number':
      return pick(rng, NUMBERS) * rng()
    case 'integer':
      return pick(rng, NUMBERS.filter(Number.isInteger))
    case 'boolean':
      return rng() < 0.5
    case 'array': {
      const item = () => (schema.items ? validValue(rng, schema.items) : junk(rng, 2))
      return Array.from({ length: Math.floor(rng() * 4) }, item)
    }
    case 'object':
      return schema.properties ? validFields(rng, schema.properties) : { free: junk(rng, 2) }
  }
}

function validFields(rng: Rng, fields: Record<string, ValueSchema>): Record<string, unknown> {
  const value: Record<string, unknown> = {}
  for (const [name, schema] of Object.entries(fields)) {
    if (schema.required || rng() < 0.5) own(value, name, validValue(rng, schema))
    else if (rng() < 0.3) own(value, name, pick(rng, [null, undefined]))
  }
  return value
}

/** Plain data a model or a caller might send, right or wrong. */
function junk(rng: Rng, depth: number): unknown {
  const r = rng()
  const leaves: unknown[] = [...STRINGS, ...NUMBERS, NaN, Infinity, true, false, null, undefined]
  if (depth <= 0 || r < 0.5) return pick(rng, leaves)
  if (r < 0.75) return Array.from({ length: Math.floor(rng() * 3) }, () => junk(rng, depth - 1))
  const value: Record<string, unknown> = {}
  for (let i = Math.floor(rng() * 3); i > 0; i--) own(value, pick(rng, NAMES), junk(rng, depth - 1))
  return value
}

/** Values the runtime must refuse without throwing anything but invalid-args. */
function hostile(rng: Rng): unknown {
  const deep = (n: number) => Array.from({ length: n }).reduce<unknown>((inner) => ({ v: inner }), 'leaf')
  const cyclic: Record<string, unknown> = {}
  cyclic.self = cyclic
  const revoked = Proxy.revocable({}, {})
  revoked.revoke()
  const makers: (() => unknown)[] = [
    () => deep(65 + Math.floor(rng() * 2000)),
    () => ({ q: cyclic }),
    () => revoked.proxy,
    () =>
      new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error('trap')
          },
        },
      ),
    () =>
      new Proxy(
        { q: 'x' },
        {
          get: () => {
            throw 'a string'
          },
        },
      ),
    () =>
      Object.defineProperty({}, 'q', {
        enumerable: true,
        get: () => {
          throw null
        },
      }),
    () => ({ q: () => 1 }),
    () => ({ q: Symbol('s') }),
    () => ({ q: 10n }),
    () => pick(rng, [[], [1], 'text', 42, true, Symbol('top'), () => ({})]),
    () => ({ q: HUGE }),
  ]
  return pick(rng, makers)()
}

/** The rules the runtime's argument check (runtime/value-problems.ts) implements, written plainly. */
function accepts(schema: ValueSchema, value: unknown): boolean {
  const ok: Record<ValueType, (v: unknown) => boolean> = {
    string: (v) => typeof v === 'string',
    number: (v) => typeof v === 'number' && Number.isFinite(v),
    integer: (v) => Number.isInteger(v),
    boolean: (v) => typeof v === 'boolean',
    array: (v) => Array.isArray(v),
    object: (v) => v !== null && typeof v === 'object' && !Array.isArray(v),
  }
  if (!ok[schema.type](value)) return false
  if (schema.enum && !schema.enum.includes(value as Literal)) return false
  if (schema.type === 'array' && schema.items) return (value as unknown[]).every((item) => accepts(schema.items!, item))
  if (schema.type === 'object' && schema.properties) return fieldsAccept(schema.properties, value as Args, false)
  return true
}

type Args = Record<string, unknown>

function fieldsAccept(fields: Record<string, ValueSchema>, value: Args, closed: boolean): boolean {
  for (const [name, schema] of Object.entries(fields)) {
    const field = Object.hasOwn(value, name) ? value[name] : undefined
    if (field === undefined || field === null ? schema.required : !accepts(schema, field)) return false
  }
  return !closed || Object.keys(value).every((key) => Object.hasOwn(fields, key))
}

function depthOf(value: unknown): number {
  return value && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0
}

function mutate(rng: Rng, args: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...args }
  const r = rng()
  if (r < 0.4) own(copy, pick(rng, NAMES), junk(rng, 3))
  else if (r < 0.7) delete copy[pick(rng, Object.keys(copy).length ? Object.keys(copy) : ['q'])]
  else own(copy, pick(rng, NAMES), pick(rng, [null, undefined, NaN, -0, '', [], {}]))
  return copy
}

function apiFor(args: Record<string, ValueSchema>) {
  const returns = { type: 'object' as const }
  const echo = { kind: 'node' as const, description: 'Echo.', args, returns, file: 'site/tools/echo.js' }
  const meta: SkillMeta = { id: 'site', name: 'Site', domains: ['example.com'], notes: [], tools: { echo } }
  const nodeTools = { echo: async () => (_ctx: unknown, value: unknown) => value }
  const chunk = { notes: [], browserTools: {}, nodeTools }
  return createSiteSkills({ skills: [meta], table: createDomainTableData([meta.domains]) }, { site: async () => chunk })
}

/** Runs a call; a refusal must be invalid-args naming the site and tool, nothing else. */
type Api = ReturnType<typeof apiFor>

async function outcome(api: Api, args: unknown, label: string): Promise<{ value: unknown } | undefined> {
  try {
    return { value: await api.runTool('site', 'echo', args as Record<string, unknown>) }
  } catch (error) {
    const refused = isSiteToolError(error, 'invalid-args') && error.message.startsWith('site -> echo: ')
    if (!refused) throw new Error(`${label}: ${String(error)}`, { cause: error })
    return undefined
  }
}

const SEEDS = Array.from({ length: 16 }, (_, i) => 0x5eed + i * 7919)

describe('fuzz: argument checks through the runtime', () => {
  const title = 'seed %i: valid values pass as copies, others agree with the plain rules, hostile ones are invalid-args'
  it.each(SEEDS)(title, async (seed) => {
    const rng = random(seed)
    for (let round = 0; round < 40; round++) {
      const schema = fieldsOf(rng, 0)
      const api = apiFor(schema)
      const label = `seed ${seed} round ${round} schema ${JSON.stringify(schema)}`
      for (let i = 0; i < 10; i++) {
        const valid = validFields(rng, schema)
        const ran = await outcome(api, valid, `${label} valid ${JSON.stringify(valid)}`)
        expect(ran, `${label}: refused a valid value`).toBeDefined()
        expect(ran!.value).toEqual(valid)
        if (depthOf(valid) > 0) expect(ran!.value).not.toBe(valid)
        const mutated = mutate(rng, valid)
        const verdict = await outcome(api, mutated, label)
        const expected = depthOf(mutated) <= 65 && fieldsAccept(schema, mutated, true)
        expect(verdict !== undefined, `${label}: ${JSON.stringify(mutated)}`).toBe(expected)
        await outcome(api, hostile(rng), label)
      }
    }
  })
})

import { cp, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DIAGNOSTIC_CATALOG } from '../../src/compiler/diagnostics/catalog'
import { scanRoot } from '../../src/compiler/discover/skills'
import { validateSkill } from '../../src/compiler/validate/skill'
import { RULES, compileRoots } from '../helpers/compile'
import { makeTempDir, writeTree } from '../helpers/tmp'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('hostile-')
})
afterAll(() => tmp.cleanup())

const base = (id: string) => ({
  id,
  name: 'Site',
  domains: [`${id}.example.com`],
  nodeTools: {
    search: {
      description: 'Search.',
      path: 'tools/search.js',
      callable: 'search',
      args: {},
      returns: { type: 'array', description: 'Results.' },
    },
  },
})

describe('hostile input', () => {
  it('rejects a 10 MB manifest without reading it into the parser', async () => {
    const root = join(tmp.dir, 'big')
    await writeTree(root, { 'huge/manifest.json': `{"id":"huge","pad":"${'x'.repeat(10 * 1024 * 1024)}"}` })
    const result = await compileRoots([root])
    expect(result.diagnostics.map((d) => [d.code, d.file])).toEqual([['manifest-too-large', 'huge/manifest.json']])
  })

  it('handles a deeply nested args schema within limits and rejects deeper ones', async () => {
    const root = join(tmp.dir, 'nested')
    const nest = (depth: number): object =>
      depth === 0 ? { type: 'string' } : { type: 'array', items: nest(depth - 1) }
    const ok = base('ok')
    ok.nodeTools.search.args = {
      deep: { type: 'array', required: false, description: 'Deep.', items: nest(25) },
    } as never
    // Built as text: JSON.stringify itself overflows the stack at this depth.
    const deepItems = `${'{"type":"array","items":'.repeat(5000)}{"type":"string"}${'}'.repeat(5000)}`
    const deep = JSON.stringify(base('deep')).replace(
      '"args":{}',
      `"args":{"deep":{"type":"array","required":false,"description":"Deep.","items":${deepItems}}}`,
    )
    const tool = 'export async function search() { return [] }\n'
    await writeTree(root, {
      'ok/manifest.json': ok,
      'ok/tools/search.js': tool,
      'deep/manifest.json': deep,
      'deep/tools/search.js': tool,
    })
    const result = await compileRoots([root])
    expect(result.skills.map((s) => s.model.id)).toEqual(['ok'])
    expect(result.diagnostics.map((d) => `${d.file} ${d.code} ${d.message}`)).toEqual([
      'deep/manifest.json manifest-parse invalid JSON: JSON nests deeper than 64 levels',
    ])
  })

  it('reports every problem of many broken skills in one run', async () => {
    const root = join(tmp.dir, 'many')
    const cases = [
      'manifest-parse',
      'tool-parse',
      'path-escape',
      'domain-invalid',
      'note-missing',
      'arg-schema',
      'temp-ref',
      'tool-name',
    ]
    const alone: Record<string, number> = {}
    for (const name of cases) {
      for (const skill of await readdir(join(RULES, name)))
        await cp(join(RULES, name, skill), join(root, `${name}--${skill}`), { recursive: true, verbatimSymlinks: true })
    }
    for (const name of cases) alone[name] = (await compileRoots([join(RULES, name)])).errors
    const result = await compileRoots([root])
    // Copies keep their problems, except that the folder names no longer equal the ids.
    for (const name of cases) {
      const own = result.diagnostics.filter(
        (d) => d.siteId.startsWith(`${name}--`) && d.code !== 'id-mismatch' && d.severity === 'error',
      )
      expect(own.length, name).toBeGreaterThanOrEqual(alone[name]! - (name === 'path-escape' ? 3 : 0))
      expect(
        own.some((d) => d.code === name),
        name,
      ).toBe(true)
    }
  })

  it('takes binary junk, a directory as manifest and an empty file without throwing', async () => {
    const root = join(tmp.dir, 'junk')
    await writeTree(root, {
      'bin/manifest.json': new Uint8Array([0, 159, 146, 150, 255, 0, 1]),
      'empty/manifest.json': '',
      'dir/manifest.json/x': 'x',
      'nul/manifest.json': '{"id":"nul\u0000"}',
    })
    const result = await compileRoots([root])
    expect(result.diagnostics.map((d) => `${d.siteId} ${d.code}`)).toEqual([
      'bin manifest-parse',
      'dir manifest-missing',
      'empty manifest-parse',
      'nul manifest-parse',
    ])
  })
})

/** Mulberry32: a small seeded generator, so a failure can be replayed. */
function createRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const JUNK: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  '',
  ' ',
  '../x',
  '__proto__',
  'constructor',
  '*.com',
  'tools/search.js',
  '\u0000',
  'é',
  [],
  {},
  [1, 'a'],
  { type: 'string' },
  { __proto__: 1 },
]

function mutate(value: unknown, random: () => number, depth = 0): unknown {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
  if (depth > 6 || value === null || typeof value !== 'object') return random() < 0.5 ? pick(JUNK) : value
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...(value as object) }
  const keys = Object.keys(copy)
  const action = random()
  if (action < 0.15 && keys.length) delete (copy as Record<string, unknown>)[pick(keys)]
  else if (action < 0.25)
    (copy as Record<string, unknown>)[String(pick(['__proto__', 'constructor', 'id', 'args', 'extra', '']))] =
      pick(JUNK)
  else if (keys.length) {
    const key = pick(keys)
    ;(copy as Record<string, unknown>)[key] = mutate((copy as Record<string, unknown>)[key], random, depth + 1)
  }
  return copy
}

function mutateText(text: string, random: () => number): string {
  const at = Math.floor(random() * text.length)
  const action = random()
  if (action < 0.3) return text.slice(0, at)
  if (action < 0.6) return text.slice(0, at) + String.fromCharCode(Math.floor(random() * 0x3000)) + text.slice(at)
  return text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 10))
}

describe('fuzz', () => {
  it('never throws and always returns well-formed diagnostics on 2,000 mutated manifests (seed 20261129)', async () => {
    const root = join(tmp.dir, 'fuzz')
    await writeTree(root, {
      'site/tools/search.js': 'export async function search() { return [] }\n',
      'site/notes/a.md': '# a\n',
    })
    const [folder] = (await scanRoot(root)).folders
    const random = createRandom(20261129)
    const valid = { ...base('site'), notes: ['notes/a.md'] }
    let withErrors = 0
    for (let i = 0; i < 2000; i++) {
      const mutated = JSON.stringify(mutate(valid, random), null, 2)
      await writeFile(join(root, 'site/manifest.json'), random() < 0.3 ? mutateText(mutated, random) : mutated)
      const record = await validateSkill(folder!)
      for (const d of record.diagnostics) {
        expect(d.code in DIAGNOSTIC_CATALOG, `${i}: ${d.code}`).toBe(true)
        expect(
          Number.isInteger(d.line) && d.line >= 1 && Number.isInteger(d.column) && d.column >= 1,
          `${i}: ${JSON.stringify(d)}`,
        ).toBe(true)
        expect(d.file.startsWith('site/')).toBe(true)
      }
      if (record.diagnostics.some((d) => d.severity === 'error')) withErrors++
      else expect(record.model?.id).toBe('site')
    }
    // Most mutations break something; a run where none did would mean the mutator is broken.
    expect(withErrors).toBeGreaterThan(1000)
  })
})

import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe as group, expect, it } from 'vitest'
import { DIAGNOSTIC_CATALOG } from '../../src/compiler/diagnostics/catalog'
import { RULES, at, compileRoots, describe } from '../helpers/compile'

const CASES = readdirSync(RULES)
  .filter((name) => !/-(target|outside)$/.test(name))
  .sort()
const compatOf = (name: string) => (name.startsWith('compat-') ? 'ego-lite' : undefined)

group('one fixture folder per rule', () => {
  it.each(CASES)('%s', async (name) => {
    const result = await compileRoots([join(RULES, name)], compatOf(name))
    const again = await compileRoots([join(RULES, name)], compatOf(name))
    expect(describe(again.diagnostics)).toEqual(describe(result.diagnostics))
    expect({
      skills: result.skills.map((s) => s.model.id),
      diagnostics: describe(result.diagnostics),
    }).toMatchSnapshot()
    for (const d of result.diagnostics) {
      expect(d.code in DIAGNOSTIC_CATALOG).toBe(true)
      expect(d.line).toBeGreaterThanOrEqual(1)
      expect(d.column).toBeGreaterThanOrEqual(1)
      expect(d.file).not.toMatch(/^\/|\\/)
    }
  })

  it('a fixture named after a code reports that code, and valid fixtures report nothing', async () => {
    for (const name of CASES) {
      const result = await compileRoots([join(RULES, name)], compatOf(name))
      if (name.startsWith('valid-') || name === 'discovery' || name === 'never-executed')
        expect(result.diagnostics, name).toEqual([])
      else
        expect(
          result.diagnostics.map((d) => d.code),
          name,
        ).toContain(name)
    }
  })
})

group('exact positions', () => {
  it('points at the trailing comma, the comment and the truncation', async () => {
    const { diagnostics } = await compileRoots([join(RULES, 'manifest-parse')])
    expect(at(diagnostics, 'manifest-parse')).toEqual(
      expect.arrayContaining([
        { file: 'trailing-comma/manifest.json', line: 4, column: 31 },
        { file: 'comment/manifest.json', line: 2, column: 3 },
        { file: 'truncated/manifest.json', line: 3, column: 14 },
        { file: 'deep/manifest.json', line: 1, column: 81 },
      ]),
    )
  })

  it('points at the key of a manifest field and at the item of a list', async () => {
    const names = await compileRoots([join(RULES, 'tool-name')])
    expect(at(names.diagnostics, 'tool-name')[0]).toEqual({ file: 'bad/manifest.json', line: 11, column: 5 })
    const ports = await compileRoots([join(RULES, 'domain-port')])
    expect(at(ports.diagnostics, 'domain-port')).toEqual(
      [5, 6, 7].map((line) => ({ file: 'patterns/manifest.json', line, column: 5 })),
    )
    const id = await compileRoots([join(RULES, 'id-mismatch')])
    expect(at(id.diagnostics, 'id-mismatch')).toContainEqual({ file: 'folder-name/manifest.json', line: 2, column: 3 })
  })

  it('points into notes and tool files, not only the manifest', async () => {
    const refs = await compileRoots([join(RULES, 'temp-ref')])
    expect(at(refs.diagnostics, 'temp-ref')).toEqual([
      { file: 'refs/browser-tools/read.js', line: 2, column: 17 },
      { file: 'refs/notes/overview.md', line: 3, column: 7 },
      { file: 'refs/notes/overview.md', line: 4, column: 28 },
      { file: 'refs/notes/overview.md', line: 5, column: 19 },
    ])
    const parse = await compileRoots([join(RULES, 'tool-parse')])
    expect(at(parse.diagnostics, 'tool-parse')).toEqual(
      expect.arrayContaining([
        { file: 'bad/browser-tools/syntax.js', line: 2, column: 13 },
        { file: 'bad/browser-tools/badimport.js', line: 1, column: 25 },
        { file: 'bad/tools/search.js', line: 3, column: 1 },
      ]),
    )
  })
})

group('discovery', () => {
  it('follows symlinked skill folders and skips _, dot, node_modules and dangling links', async () => {
    const result = await compileRoots([join(RULES, 'discovery')])
    expect(result.records.map((r) => r.folder.id)).toEqual(['linked', 'real'])
    expect(result.records[0]!.folder.symlinked).toBe(true)
  })

  it('reads a workspace root through its learnings/ folder', async () => {
    const result = await compileRoots([join(RULES, '..')])
    expect(result.roots[0]!.root).toBe(join(RULES, '..'))
    const workspace = await compileRoots([join(RULES, '../workspace')])
    expect(workspace.roots[0]!.root).toBe(join(RULES, '../workspace/learnings'))
    expect(workspace.skills.map((s) => s.model.id)).toEqual(['inner'])
  })

  it('reads a root given twice once', async () => {
    const result = await compileRoots([join(RULES, 'valid-basic'), join(RULES, 'valid-basic')])
    expect(result.records.map((r) => r.folder.id)).toEqual(['shop'])
    expect(result.diagnostics).toEqual([])
  })

  it('reports the same id in two roots once, on the later root', async () => {
    const result = await compileRoots([join(RULES, 'valid-basic'), join(RULES, 'duplicate-id-target')])
    expect(result.skills.map((s) => s.model.root)).toEqual([join(RULES, 'valid-basic')])
    expect(describe(result.diagnostics)).toEqual([
      'shop/manifest.json:2:3 error duplicate-id: skill id "shop" is already used by the skill in "../valid-basic"',
    ])
  })
})

it('never runs tool code while validating and bundling', async () => {
  const marker = join(RULES, 'never-executed/writer/tools/PWNED')
  const result = await compileRoots([join(RULES, 'never-executed')])
  expect(result.skills.map((s) => s.model.id)).toEqual(['writer'])
  expect(existsSync(marker)).toBe(false)
})

import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonReport } from '../../src/cli/commands/validate'
import { type CompileResult, createCompiler } from '../../src/compiler/compile'
import { type CatalogEntry, DIAGNOSTIC_CATALOG, type DiagnosticCode } from '../../src/compiler/diagnostics/catalog'
import { invalidSkill } from '../../src/nobuild/invalid'
import { originalErrors } from '../../src/nobuild/original-messages'
import { makeTempDir, writeTree } from '../helpers/tmp'

const returns = { type: 'object', description: 'R.' }
/** A skill with findings of many codes, each one the original validator also makes. */
const PACK = {
  id: 'wrong-id',
  name: '   ',
  domains: ['bad/domain', 'localhost:8080'],
  notes: ['notes/a.md', '../secrets.md', 'notes/gone.md'],
  nodeTools: {
    grab: { description: 'Grab.', path: '../escape.js', callable: 'run', args: {}, returns },
    good: {
      description: 'Good.',
      path: 'tools/good.js',
      callable: 'nope',
      args: { n: { type: 'int', required: 'yes', description: 'N.' } },
      returns,
    },
  },
  browserTools: {
    object: { description: 'O.', path: 'browser-tools/object.js', args: {}, returns },
    broken: { description: 'B.', path: 'browser-tools/broken.js', args: {}, returns },
  },
}
const TREE = {
  'first/pack/manifest.json': PACK,
  'first/pack/notes/a.md': 'Click @21 to open it.\n',
  'first/pack/tools/good.js': 'export const good = () => 1\n',
  'first/pack/browser-tools/object.js': '({ run: (args) => args })\n',
  'first/pack/browser-tools/broken.js': 'async function (args) { return oops(( }\n',
  // The same id in a second root: `duplicate-id` there, and a warning of its own.
  'second/pack/manifest.json': { id: 'pack', name: 'Pack', domains: ['bücher.de'] },
}

/** Every output of a compile but the text of its diagnostics. */
async function outputs(dir: string) {
  const first = join(dir, 'first')
  const result: CompileResult = await createCompiler({ roots: [first, join(dir, 'second')] }).compile()
  const own = result.reports.find((r) => r.root === first)!.diagnostics
  const json = jsonReport(result, dir)
  return {
    messages: result.diagnostics.map((d) => d.message),
    original: originalErrors('pack', join(first, 'pack'), own),
    parse: own.filter((d) => d.code === 'tool-parse').map((d) => d.data),
    invalid: invalidSkill(own, 'pack', { name: 'grab', kind: 'node' }).message,
    roots: result.diagnostics.map((d) => [d.code, d.root]),
    json: { ...json, diagnostics: json.diagnostics.map(({ message, hint, ...rest }) => rest) },
  }
}

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('reword-')
  await writeTree(tmp.dir, TREE)
})
afterAll(() => tmp.cleanup())

describe('the catalog words findings for people; nothing else reads the words', () => {
  it('rewording every catalog message changes the messages and no other output', async () => {
    const before = await outputs(tmp.dir)
    expect(before.original).toEqual([
      'pack: manifest id must match directory name',
      'pack: name must be a non-empty string',
      'pack: invalid domain "bad/domain"',
      'pack: invalid domain "localhost:8080"',
      'pack: note "notes/a.md": contains temporary snapshot ref; use stable locators instead',
      'pack: notes must point to notes/*.md: "../secrets.md"',
      'pack: missing note "notes/gone.md"',
      'pack: nodeTools.grab: path must be a relative tools/*.js path',
      'pack: nodeTools.good.args.n: invalid arg type "int"',
      'pack: nodeTools.good.args.n: required must be a boolean',
      'pack: missing Node callable "nope" for tool "good"',
      'pack: cannot parse "browser-tools/broken.js": Unexpected token `}`',
      'pack: "browser-tools/object.js" must contain a single function expression',
    ])
    // The validator tells a tool that is something else than one function from one that does not parse.
    expect(before.parse).toEqual([
      { problem: 'syntax', path: 'browser-tools/broken.js', reason: 'Unexpected token `}`' },
      { problem: 'shape', path: 'browser-tools/object.js', found: 'an object `{ run: (args) => args }`' },
    ])
    expect(before.invalid).toMatch(/ Node tool path must be relative to the site skill directory$/)
    const second = join(tmp.dir, 'second')
    expect(before.roots.filter(([, root]) => root === second)).toEqual([
      ['duplicate-id', second],
      ['domain-unicode', second],
    ])
    expect(before.json.diagnostics.find((d) => d.code === 'duplicate-id')).toMatchObject({
      root: 'second',
      data: { id: 'pack', where: '../first' },
    })

    const saved = new Map<DiagnosticCode, CatalogEntry<never>['message']>()
    const entries = DIAGNOSTIC_CATALOG as unknown as Record<DiagnosticCode, CatalogEntry<never>>
    for (const [code, entry] of Object.entries(entries) as [DiagnosticCode, CatalogEntry<never>][]) {
      saved.set(code, entry.message)
      entry.message = () => `reworded ${code}`
    }
    try {
      const after = await outputs(tmp.dir)
      expect(after.messages).toEqual(before.roots.map(([code]) => `reworded ${code}`))
      expect({ ...after, messages: before.messages }).toEqual(before)
    } finally {
      for (const [code, message] of saved) entries[code].message = message
    }
  })
})

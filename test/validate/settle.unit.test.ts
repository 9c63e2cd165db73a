import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCompiler } from '../../src/compiler/compile'
import { createDiagnostic } from '../../src/compiler/diagnostics/catalog'
import { scanRoot } from '../../src/compiler/discover/skills'
import { validateFolder, settleSkill } from '../../src/compiler/validate/skill'
import { makeTempDir, writeTree } from '../helpers/tmp'

const READ = { description: 'Reads the page.', path: 'browser-tools/read.js', args: {} }
const RETURNS = { returns: { type: 'object', description: 'The result.' } }
const skill = (id: string) => ({
  id,
  name: id.toUpperCase(),
  domains: ['shared.example.com'],
  browserTools: { read: { ...READ, ...RETURNS } },
})

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let root: string
beforeAll(async () => {
  tmp = await makeTempDir('settle-')
  root = join(tmp.dir, 'learnings')
  await writeTree(root, {
    // Valid to every check that reads files; only esbuild sees that the import does not exist.
    'a-broken/manifest.json': skill('a-broken'),
    'a-broken/browser-tools/read.js': "import { title } from './missing.js'\nexport default () => title()\n",
    'b-fine/manifest.json': skill('b-fine'),
    'b-fine/browser-tools/read.js': 'export default () => document.title\n',
  })
})
afterAll(() => tmp.cleanup())

describe('a skill is settled once, after bundling', () => {
  it('a browser tool esbuild cannot bundle makes its skill invalid: not served, no model, its domain not claimed', async () => {
    const compiler = createCompiler({ roots: [root] })
    for (const run of [await compiler.compile(), await compiler.compile()]) {
      expect(run.skills.map((s) => s.model.id)).toEqual(['b-fine'])
      const [broken, fine] = run.records
      expect(broken!.folder.id).toBe('a-broken')
      expect(broken!.model).toBeUndefined()
      expect(fine!.model?.id).toBe('b-fine')
      const [report, other] = run.reports
      expect(report!.diagnostics.map((d) => [d.code, d.file])).toEqual([
        ['tool-parse', 'a-broken/browser-tools/read.js'],
      ])
      expect(report!.diagnostics[0]!.message).toContain('missing.js')
      // An invalid skill claims no pattern: the valid one sharing it is not told it is shadowed.
      expect(other!.diagnostics).toEqual([])
    }
  })

  it('settling builds a new record and leaves the checked folder as it was', async () => {
    const folder = (await scanRoot(root)).folders.find((f) => f.id === 'b-fine')!
    const checked = await validateFolder(folder)
    const before = structuredClone({ diagnostics: checked.diagnostics, files: checked.files })
    expect(checked.candidate?.id).toBe('b-fine')

    expect(settleSkill(checked, {}).model).toBe(checked.candidate)
    const failure = createDiagnostic(folder, 'b-fine/browser-tools/read.js', {
      code: 'returns-invalid',
      data: { tool: 'read' },
    })
    const blocked = settleSkill(checked, {}, { diagnostics: [failure], files: ['/elsewhere/lib.js'] })
    expect(blocked.model).toBeUndefined()
    expect(blocked.diagnostics).toEqual([failure])
    expect(blocked.files).toContain('/elsewhere/lib.js')
    // A code the options tolerate does not block (as the no-build API tolerates `returns-invalid`).
    expect(settleSkill(checked, { tolerate: ['returns-invalid'] }, { diagnostics: [failure], files: [] }).model).toBe(
      checked.candidate,
    )
    expect({ diagnostics: checked.diagnostics, files: checked.files }).toEqual(before)
    expect(blocked).not.toBe(checked)
  })
})

import { realpathSync } from 'node:fs'
import { rollup } from 'rollup'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveRoots } from '../../src/compiler/discover/roots'
import { invalidSkill } from '../../src/nobuild/invalid'
import { createSession } from '../../src/session/session'
import { rollupPlugin } from '../helpers/bundlers'
import { makeTempDir, writeTree } from '../helpers/tmp'

/*
 * What one plugin instance or session learns about its roots stays its own: a package that cannot
 * be used as a skill package in one is, named as a plain folder in another, just a folder of skills.
 */

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let project = ''
const AS_PACKAGE = '@acme/plain'
const AS_FOLDER = 'node_modules/@acme/plain'

beforeAll(async () => {
  tmp = await makeTempDir('isolation-')
  project = realpathSync(tmp.dir)
  await writeTree(project, {
    // No `siteSkills` field: as a package name it is package-invalid; as a folder it holds a skill.
    'node_modules/@acme/plain/package.json': { name: AS_PACKAGE, version: '1.0.0' },
    'node_modules/@acme/plain/shop/manifest.json': { id: 'shop', name: 'Shop', domains: ['shop.example.com'] },
    'main.js': "import { skills } from 'virtual:site-skills'\nexport const ids = skills.map((s) => s.id)\n",
  })
})
afterAll(() => tmp.cleanup())

/** Builds main.js with one plugin instance (Rollup's root is the working directory): its code, or its error. */
async function build(plugin: unknown): Promise<{ code?: string; error?: string }> {
  const before = process.cwd()
  process.chdir(project)
  try {
    const bundle = await rollup({ input: 'main.js', plugins: [plugin as never], logLevel: 'silent' })
    try {
      const { output } = await bundle.generate({ format: 'es' })
      return { code: output.map((chunk) => (chunk as { code?: string }).code ?? '').join('\n') }
    } finally {
      await bundle.close()
    }
  } catch (error) {
    return { error: String((error as Error).message) }
  } finally {
    process.chdir(before)
  }
}

describe('two plugin instances and two sessions in one process, with different roots', () => {
  it('plugin instances: each builds from what its own roots are', async () => {
    const asPackage = rollupPlugin({ roots: [AS_PACKAGE], dts: false, cache: false })
    const asFolder = rollupPlugin({ roots: [AS_FOLDER], dts: false, cache: false })
    const first = await build(asPackage)
    expect(first.error).toContain('package-invalid')
    const second = await build(asFolder)
    expect(second.error).toBeUndefined()
    expect(second.code).toContain('shop.example.com')
    // And the other way round: the folder's build changed nothing the package's instance knows.
    expect((await build(asPackage)).error).toContain('package-invalid')
  })

  it('sessions: each compiles its own roots, resolved once, as values', async () => {
    const asPackage = createSession(resolveRoots([AS_PACKAGE], project), { invalidSkill, watch: false })
    const asFolder = createSession(resolveRoots([AS_FOLDER], project), { invalidSkill, watch: false })
    try {
      const [byPackage, byFolder] = [await asPackage.current(), await asFolder.current()]
      expect(byPackage.result.roots[0]?.problem?.code).toBe('package-invalid')
      expect(byPackage.result.skills).toEqual([])
      expect(byFolder.result.roots[0]?.problem).toBeUndefined()
      expect(byFolder.result.skills.map((s) => s.model.id)).toEqual(['shop'])
    } finally {
      asPackage.close()
      asFolder.close()
    }
  })
})

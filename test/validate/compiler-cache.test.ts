import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCompiler } from '../../src/compiler/compile'
import { REPO_ROOT, makeTempDir } from '../helpers/tmp'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let root: string
let cacheDir: string
beforeAll(async () => {
  tmp = await makeTempDir('compiler-cache-')
  root = join(tmp.dir, 'learnings')
  cacheDir = join(tmp.dir, 'cache')
  await cp(join(REPO_ROOT, 'test/fixtures/app/learnings'), root, { recursive: true })
})
afterAll(() => tmp.cleanup())

// The details under test/plugin/persistent-cache.test.ts (which builds in new processes): what a
// compiler does with skills it took from the cache file.
describe('a compiler with cacheDir', () => {
  it('takes every unchanged skill from the file a first compiler wrote, then sees an edit to one of them', async () => {
    const first = createCompiler({ roots: [root], cacheDir })
    const cold = await first.compile()
    await first.flush()
    expect(cold.revalidated).toEqual(['ext', 'workspace'])
    expect(first.cacheFile?.miss).toBe('missing')

    // A new compiler, as in a new process: nothing validated or bundled, the same skills and findings.
    const second = createCompiler({ roots: [root], cacheDir })
    const warm = await second.compile()
    expect(warm.revalidated).toEqual([])
    expect(second.bundled).toBe(0)
    expect(second.cacheFile?.miss).toBeUndefined()
    expect(warm.skills.map((s) => s.browser)).toEqual(cold.skills.map((s) => s.browser))
    expect(warm.skills.map((s) => s.model)).toEqual(cold.skills.map((s) => s.model))
    expect(warm.diagnostics).toEqual(cold.diagnostics)
    expect(second.outputKey(warm.skills)).toBe(first.outputKey(cold.skills))

    // The same compiler again (a watch rebuild): a skill it took from the file is compared by its
    // stored inputs, and an edit to it (same size) is seen.
    expect((await second.compile()).revalidated).toEqual([])
    const tool = join(root, 'ext/browser-tools/lib/text.js')
    const text = await readFile(tool, 'utf8')
    expect(text).toContain("?? ''")
    await writeFile(tool, text.replace("?? ''", '?? ""'))
    const edited = await second.compile()
    expect(edited.revalidated).toEqual(['ext'])
    expect(second.outputKey(edited.skills)).toBeUndefined()
    await second.flush()
    expect(second.outputKey(edited.skills)).not.toBe(first.outputKey(cold.skills))
  })

  it('a position asked for after the fact (a cross-skill finding) comes from the manifest read again', async () => {
    await cp(join(root, 'ext'), join(root, 'ext-copy'), { recursive: true })
    const manifest = join(root, 'ext-copy/manifest.json')
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('"id": "ext"', '"id": "ext-copy"'))
    const writer = createCompiler({ roots: [root], cacheDir })
    const fresh = await writer.compile()
    await writer.flush()
    const reader = createCompiler({ roots: [root], cacheDir })
    const cached = await reader.compile()
    expect(cached.revalidated).toEqual([])
    const shadowed = (r: typeof fresh) => r.diagnostics.filter((d) => d.code === 'domain-shadowed')
    expect(shadowed(fresh).length).toBeGreaterThan(0)
    expect(shadowed(cached)).toEqual(shadowed(fresh))
  })
})

import { cp, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCompiler } from '../../src/compiler/compile'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let root: string
beforeAll(async () => {
  tmp = await makeTempDir('compiler-')
  root = join(tmp.dir, 'learnings')
  await cp(join(REPO_ROOT, 'test/fixtures/app/learnings'), root, { recursive: true })
})
afterAll(() => tmp.cleanup())

describe('incremental compile', () => {
  it('revalidates only changed skills and re-bundles only changed browser tools', async () => {
    const compiler = createCompiler({ roots: [root] })
    const cold = await compiler.compile()
    expect(cold.revalidated).toEqual(['ext', 'workspace'])
    const bundledCold = compiler.bundled
    expect(bundledCold).toBe(4)

    const unchanged = await compiler.compile()
    expect(unchanged.revalidated).toEqual([])
    expect(compiler.bundled).toBe(bundledCold)

    // A helper imported by one ES-module browser tool: only that tool is rebuilt.
    await writeFile(
      join(root, 'ext/browser-tools/lib/text.js'),
      "export function text(s) {\n  return document.querySelector(s)?.textContent ?? 'none'\n}\n",
    )
    const helperEdit = await compiler.compile()
    expect(helperEdit.revalidated).toEqual(['ext'])
    expect(compiler.bundled).toBe(bundledCold + 1)
    expect(helperEdit.skills[0]!.browser.module!.source).toContain('none')

    // A tool file touched but not changed: its skill is checked again, the tool is not recompiled.
    const now = new Date(Date.now() + 5000)
    await utimes(join(root, 'ext/browser-tools/read.js'), now, now)
    const touched = await compiler.compile()
    expect(touched.revalidated).toEqual(['ext'])
    expect(compiler.bundled).toBe(bundledCold + 1)

    // A manifest edit revalidates the skill but reuses every compiled tool.
    const manifest = join(root, 'workspace/manifest.json')
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('"Workspace"', '"Work space"'))
    const manifestEdit = await compiler.compile()
    expect(manifestEdit.revalidated).toEqual(['workspace'])
    expect(manifestEdit.skills[1]!.model.name).toBe('Work space')
    expect(compiler.bundled).toBe(bundledCold + 1)
  })

  it('sees a new skill folder, a removed one, and a broken then fixed file', async () => {
    const compiler = createCompiler({ roots: [root] })
    await compiler.compile()
    await writeTree(root, { 'added/manifest.json': { id: 'added', name: 'Added', domains: ['added.example.com'] } })
    expect((await compiler.compile()).skills.map((s) => s.model.id)).toEqual(['added', 'ext', 'workspace'])
    await writeFile(join(root, 'added/manifest.json'), '{ "id": "added", }')
    const broken = await compiler.compile()
    expect(broken.revalidated).toEqual(['added'])
    expect(broken.diagnostics.map((d) => d.code)).toEqual(['manifest-parse'])
    await rm(join(root, 'added'), { recursive: true })
    const removed = await compiler.compile()
    expect(removed.skills.map((s) => s.model.id)).toEqual(['ext', 'workspace'])
    expect(removed.diagnostics).toEqual([])
  })
})

describe('onValidated', () => {
  it('gives the models valid when validation ends, before the compile resolves, and none when a folder has an error', async () => {
    const calls: { ids: string[]; models: readonly import('../../src/compiler/model').SkillModel[] }[] = []
    let resolved = false
    const compiler = createCompiler({
      roots: [root],
      onValidated: (models) => {
        // Called while esbuild may still be compiling: never after the compile's result is out.
        expect(resolved).toBe(false)
        calls.push({ ids: models.map((m) => m.id), models })
      },
    })
    const cold = await compiler.compile()
    resolved = true
    expect(calls.map((c) => c.ids)).toEqual([['ext', 'workspace']])
    // The same model objects as the result's (what the plugin compares before using its early d.ts).
    expect(calls[0]!.models).toEqual(cold.skills.map((s) => s.model))
    expect(calls[0]!.models.every((m, i) => m === cold.skills[i]!.model)).toBe(true)

    // Nothing validated (every skill cached): no esbuild work to overlap, so no call.
    resolved = false
    await compiler.compile()
    resolved = true
    expect(calls).toHaveLength(1)

    // One skill changed: cached skills count too, with their cached models.
    const later = new Date(Date.now() + 5000)
    await utimes(join(root, 'ext/browser-tools/read.js'), later, later)
    resolved = false
    const warm = await compiler.compile()
    resolved = true
    expect(calls).toHaveLength(2)
    expect(calls[1]!.models.every((m, i) => m === warm.skills[i]!.model)).toBe(true)

    // A folder with an error: the build fails and no d.ts is written, so nothing is said.
    await writeTree(root, { 'bad/manifest.json': { id: 'bad', name: 7, domains: ['bad.example.com'] } })
    resolved = false
    const broken = await compiler.compile()
    resolved = true
    expect(broken.errors).toBeGreaterThan(0)
    expect(calls).toHaveLength(2)
    await rm(join(root, 'bad'), { recursive: true })
  })
})

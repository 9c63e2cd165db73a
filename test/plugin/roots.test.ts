import { join } from 'node:path'
import { rolldown } from 'rolldown'
import { rollup } from 'rollup'
import { build as vite } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rolldownPlugin, rollupPlugin, vitePlugin } from '../helpers/bundlers'
import { makeTempDir, writeTree } from '../helpers/tmp'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
/** Two apps, each with its own `learnings/` of one skill: `alpha-skill` and `beta-skill`. */
const apps: Record<'alpha' | 'beta', string> = { alpha: '', beta: '' }
beforeAll(async () => {
  tmp = await makeTempDir('roots-')
  for (const name of ['alpha', 'beta'] as const) {
    apps[name] = join(tmp.dir, name)
    const id = `${name}-skill`
    await writeTree(apps[name], {
      [`learnings/${id}/manifest.json`]: { id, name: id, domains: [`${name}.example.com`] },
      'main.js': "import { skills } from 'virtual:site-skills'\nexport const ids = skills.map((s) => s.id)\n",
    })
  }
})
afterAll(() => tmp.cleanup())

/** Runs `build` with the working directory set to `dir` (the default `learnings` resolves against it). */
async function inDir<T>(dir: string, build: () => Promise<T>): Promise<T> {
  const before = process.cwd()
  process.chdir(dir)
  try {
    return await build()
  } finally {
    process.chdir(before)
  }
}

/** The code a Rollup-shaped build generated for `main.js` of an app, as one string. */
async function generate(bundle: { generate: (o: { format: 'es' }) => Promise<{ output: unknown[] }> }) {
  const { output } = await bundle.generate({ format: 'es' })
  return output.map((chunk) => (chunk as { code?: string }).code ?? '').join('\n')
}

describe('relative options resolve against the bundler’s root, once per root', () => {
  // Made before the working directory changes, used in two builds of two apps: a context per root.
  it.each([
    ['rollup', () => rollupPlugin({ dts: false }), rollup],
    ['rolldown', () => rolldownPlugin({ dts: false }), rolldown],
  ] as const)('%s: the working directory when each build starts', async (_, makePlugin, bundler) => {
    const plugin = makePlugin()
    for (const name of ['alpha', 'beta'] as const) {
      const code = await inDir(apps[name], async () => {
        const bundle = await (bundler as typeof rollup)({
          input: 'main.js',
          plugins: [plugin as never],
          logLevel: 'silent',
        })
        try {
          return await generate(bundle)
        } finally {
          await bundle.close()
        }
      })
      const other = name === 'alpha' ? 'beta' : 'alpha'
      expect(code).toContain(`"${name}-skill"`)
      expect(code).not.toContain(`"${other}-skill"`)
    }
  })

  it("vite: each build's root", async () => {
    const plugin = vitePlugin({ dts: false })
    for (const name of ['alpha', 'beta'] as const) {
      const out = (await vite({
        root: apps[name],
        configFile: false,
        logLevel: 'silent',
        plugins: [plugin],
        build: { write: false, minify: false, ssr: join(apps[name], 'main.js') },
      })) as { output: { code?: string }[] }
      const code = out.output.map((chunk) => chunk.code ?? '').join('\n')
      expect(code).toContain(`"${name}-skill"`)
      expect(code).not.toContain(`"${name === 'alpha' ? 'beta' : 'alpha'}-skill"`)
    }
  })
})

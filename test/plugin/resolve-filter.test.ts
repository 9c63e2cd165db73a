import { join } from 'node:path'
import { rolldown } from 'rolldown'
import { rollup } from 'rollup'
import { build as vite } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { APP, rolldownPlugin, rollupPlugin, vitePlugin } from '../helpers/bundlers'
import { makeTempDir, writeTree } from '../helpers/tmp'

const MODULES = 200
/** The ids the plugin answers: its generated modules and the runtime they import. */
const OURS_RE = /^(?:\0?virtual:site-skills(?:\/|$)|unplugin-site-skills\/runtime$)/

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let app: string
beforeAll(async () => {
  tmp = await makeTempDir('resolve-filter-')
  app = tmp.dir
  // An app of many modules that have nothing to do with the skills, and one import of them.
  const files: Record<string, string> = {}
  const imports: string[] = []
  for (let i = 0; i < MODULES; i++) {
    files[`lib/m${i}.js`] = `import { sep } from 'node:path'\nexport const m${i} = () => sep + ${i}\n`
    imports.push(`import { m${i} } from './lib/m${i}.js'`)
  }
  const sum = Array.from({ length: MODULES }, (_, i) => `m${i}()`).join(' + ')
  files['main.js'] = [
    ...imports,
    "import { skills } from 'virtual:site-skills'",
    `export const main = () => [skills.length, ${sum}]`,
    '',
  ].join('\n')
  await writeTree(app, files)
})
afterAll(() => tmp.cleanup())

type ResolveHook = (this: unknown, id: string, ...rest: unknown[]) => unknown
interface PluginWithResolve {
  resolveId?: ResolveHook | { handler: ResolveHook }
}

/** Counts the ids the plugin's own `resolveId` code is called with (after any filter the bundler applies). */
function countResolveCalls<P>(plugin: P): { plugin: P; ids: string[] } {
  const ids: string[] = []
  const target = plugin as PluginWithResolve
  const hook = target.resolveId
  const counted = (handler: ResolveHook): ResolveHook =>
    function (this: unknown, id, ...rest) {
      ids.push(id)
      return handler.call(this, id, ...rest)
    }
  if (typeof hook === 'function') target.resolveId = counted(hook)
  else if (hook) hook.handler = counted(hook.handler)
  return { plugin, ids }
}

const options = { roots: join(APP, 'learnings'), dts: false } as const

describe('resolveId runs only for the plugin’s ids, in a build of many other modules', () => {
  it.each([
    [
      'vite',
      async () => {
        const { plugin, ids } = countResolveCalls(vitePlugin(options))
        const build = { outDir: join(app, 'out-vite'), ssr: join(app, 'main.js'), minify: false }
        await vite({ root: app, configFile: false, logLevel: 'silent', plugins: [plugin], build })
        return ids
      },
    ],
    [
      'rolldown',
      async () => {
        const { plugin, ids } = countResolveCalls(rolldownPlugin(options))
        const bundle = await rolldown({ input: join(app, 'main.js'), platform: 'node', plugins: [plugin] })
        await bundle.generate({ format: 'esm' })
        await bundle.close()
        return ids
      },
    ],
    [
      'rollup',
      async () => {
        const { plugin, ids } = countResolveCalls(rollupPlugin(options))
        const bundle = await rollup({ input: join(app, 'main.js'), plugins: [plugin], logLevel: 'silent' })
        await bundle.generate({ format: 'esm' })
        await bundle.close()
        return ids
      },
    ],
  ] as const)('%s', async (_, run) => {
    const ids = await run()
    expect(ids.filter((id) => !OURS_RE.test(id))).toEqual([])
    // The main module, the chunks of the fixture's two skills and the runtime they import: a few calls, not 200.
    expect(ids.length).toBeGreaterThan(0)
    expect(ids.length).toBeLessThan(20)
  })
})

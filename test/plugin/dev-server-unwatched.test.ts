import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type Plugin, type ViteDevServer, createServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import siteSkills from '../../src/vite'
import { makeTempDir, writeTree } from '../helpers/tmp'

// Vite's dev server with `server.watch: null`: no watcher tells the plugin of an edit, so a load
// after the module was invalidated must look at the learnings itself.
let tmp: Awaited<ReturnType<typeof makeTempDir>>
let server: ViteDevServer
let root: string
let compiles: () => number

type Module = import('../../runtime/typed-skills').LooseSiteSkills

const MANIFEST = (returns: string) =>
  JSON.stringify({
    id: 'shop',
    name: 'Shop',
    domains: ['shop.example.com'],
    nodeTools: {
      hello: {
        description: 'Says hello.',
        path: 'tools/hello.js',
        callable: 'hello',
        args: {},
        returns: { type: returns, description: 'Greeting.' },
      },
    },
  })

beforeAll(async () => {
  tmp = await makeTempDir('dev-unwatched-')
  root = join(tmp.dir, 'learnings')
  await writeTree(root, {
    'shop/manifest.json': MANIFEST('text'),
    'shop/tools/hello.js': 'export const hello = () => "hello"\n',
  })
  const plugin = siteSkills({ roots: root, dts: false }) as Plugin
  ;({ compiles } = plugin.api as { compiles: () => number })
  server = await createServer({
    root: tmp.dir,
    configFile: false,
    logLevel: 'silent',
    plugins: [plugin],
    server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
  })
})

afterAll(async () => {
  await server?.close()
  await tmp?.cleanup()
})

const load = () => server.ssrLoadModule('virtual:site-skills') as Promise<Module>

/** Invalidates the generated modules as a user's tooling would once it knows of an edit. */
function invalidate(): void {
  const graph = server.environments.ssr.moduleGraph
  for (const mod of graph.idToModuleMap.values())
    if (mod.id?.includes('site-skills')) graph.invalidateModule(mod, new Set(), Date.now(), true)
}

describe('Vite dev server with server.watch null', () => {
  it('serves the fixed skill once the module is invalidated, not the old error', async () => {
    await expect(load()).rejects.toThrow(/1 error in 1 skill/)
    await writeFile(join(root, 'shop/manifest.json'), MANIFEST('string'))
    invalidate()
    const fixed = await load()
    expect(fixed.skills.map((s) => s.id)).toEqual(['shop'])
    expect(await fixed.runTool('shop', 'hello', {})).toBe('hello')
  })

  it('compiles no more while nothing changed', async () => {
    const before = compiles()
    invalidate()
    await load()
    expect(compiles() - before).toBeLessThanOrEqual(1)
    // The same state, nothing revalidated.
    invalidate()
    await load()
  })
})

import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type HotPayload, type Plugin, type ViteDevServer, createServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { CompileResult } from '../../src/compiler/compile'
import siteSkills from '../../src/vite'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let server: ViteDevServer
let root: string
let dts: string
let lastResult: () => CompileResult | undefined
let compiles: () => number
const sent: HotPayload[] = []

type Module = import('../../runtime/typed-skills').LooseSiteSkills

/** What `read` gives once `ok` holds of it (a read that throws is "not yet"); fails after `timeoutMs`. */
function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const check = async () => {
    const value = await read()
    if (!ok(value)) throw new Error(`waiting for ${what}; last: ${JSON.stringify(value)}`)
    return value
  }
  return vi.waitFor(check, { timeout: timeoutMs, interval: 40 })
}

const load = () => server.ssrLoadModule('virtual:site-skills') as Promise<Module>
const ids = async () => (await load()).skills.map((s) => s.id)
const readDts = () => readFile(dts, 'utf8')

beforeAll(async () => {
  tmp = await makeTempDir('dev-')
  root = join(tmp.dir, 'learnings')
  dts = join(tmp.dir, 'site-skills.d.ts')
  await cp(join(REPO_ROOT, 'test/fixtures/app/learnings'), root, { recursive: true })
  const plugin = siteSkills({ roots: root, dts }) as Plugin
  ;({ lastResult, compiles } = plugin.api as { lastResult: () => CompileResult | undefined; compiles: () => number })
  server = await createServer({
    root: tmp.dir,
    configFile: false,
    logLevel: 'silent',
    plugins: [plugin],
    server: { port: 0, host: '127.0.0.1', hmr: false },
  })
  const hot = server.environments.client.hot
  const send = hot.send.bind(hot)
  hot.send = ((payload: HotPayload) => {
    sent.push(payload)
    send(payload)
  }) as typeof hot.send
  await server.listen()
})

afterAll(async () => {
  await server?.close()
  await tmp?.cleanup()
})

const skill = (id: string, note = '# Notes\n') => ({
  [`${id}/manifest.json`]: {
    id,
    name: `Skill ${id}`,
    domains: [`${id}.example.com`],
    notes: ['notes/a.md'],
    nodeTools: {
      hello: {
        description: 'Says hello.',
        path: 'tools/hello.js',
        callable: 'hello',
        args: { who: { type: 'string', required: true, description: 'Name.' } },
        returns: { type: 'string', description: 'Greeting.' },
      },
    },
  },
  [`${id}/notes/a.md`]: note,
  [`${id}/tools/hello.js`]: 'export const hello = (ctx, args) => `hello ${args.who}`\n',
})

describe('Vite dev server', () => {
  it('serves the module and writes the d.ts at start', async () => {
    expect(await ids()).toEqual(['ext', 'workspace'])
    expect(await readDts()).toContain('"ext": {')
  })

  it('adds a skill: module, chunk and d.ts update, and only that skill is validated', async () => {
    const record = (id: string) => lastResult()!.records.find((r) => r.folder.id === id)
    const [ext, workspace] = [record('ext'), record('workspace')]
    await writeTree(root, skill('added'))
    await until(ids, (list) => list.includes('added'), 'the added skill')
    // The other skills come from the cache: the very same records, not validated again.
    expect(record('ext')).toBe(ext)
    expect(record('workspace')).toBe(workspace)
    expect(await (await load()).runTool('added', 'hello', { who: 'dev' })).toBe('hello dev')
    expect(await until(readDts, (t) => t.includes('"added": {'), 'the d.ts')).toContain('"who": string')
  })

  it('edits a note, a tool and a manifest', async () => {
    await writeFile(join(root, 'added/notes/a.md'), '# Edited notes\n')
    await until(
      async () => (await load()).loadNotes('added'),
      (notes) => notes[0]?.content === '# Edited notes\n',
      'the edited note',
    )
    await writeFile(join(root, 'added/tools/hello.js'), 'export const hello = (ctx, args) => `hi ${args.who}`\n')
    await until(
      async () => (await load()).runTool('added', 'hello', { who: 'x' }),
      (out) => out === 'hi x',
      'the edited tool',
    )
    const manifest = join(root, 'added/manifest.json')
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('"Skill added"', '"Renamed"'))
    await until(
      async () => (await load()).skills.find((s) => s.id === 'added')?.name,
      (name) => name === 'Renamed',
      'the new name',
    )
    expect(await until(readDts, (t) => t.includes(' * Renamed\n'), 'the d.ts')).toContain('"added"')
  })

  it('shows a broken skill in the overlay, stays up, reports it when the module loads, and recovers', async () => {
    const manifest = join(root, 'added/manifest.json')
    const good = await readFile(manifest, 'utf8')
    sent.length = 0
    await writeFile(manifest, good.replace('"Renamed"', '"Renamed",,'))
    const error = await until(
      () =>
        load().then(
          () => undefined,
          (e: Error) => e.message,
        ),
      (m) => typeof m === 'string',
      'the load error',
    )
    expect(error).toMatch(/added\/manifest\.json:3:\d+ {2}error manifest-parse/)
    const overlay = await until(
      async () => sent.find((p) => p.type === 'error'),
      (p) => p !== undefined,
      'the overlay',
    )
    expect(overlay).toMatchObject({
      type: 'error',
      err: { plugin: 'unplugin-site-skills', loc: { file: manifest, line: 3 } },
    })
    expect((await fetch(new URL('/@vite/client', server.resolvedUrls!.local[0]!))).status).toBe(200)
    expect(await readDts()).toContain('"added"')
    await writeFile(manifest, good)
    await until(ids, (list) => list.includes('added'), 'the fix')
  })

  it('removes a skill, and recreates a deleted d.ts', async () => {
    await rm(join(root, 'added'), { recursive: true })
    await until(ids, (list) => !list.includes('added'), 'the removal')
    expect(await until(readDts, (t) => !t.includes('"added"'), 'the d.ts without it')).toContain('"ext"')
    await rm(dts)
    expect(await until(readDts, (t) => t.includes('"workspace"'), 'the recreated d.ts')).toContain('"ext"')
  })

  it('debounces a burst of changes into few compiles', async () => {
    const before = compiles()
    for (let i = 0; i < 8; i++) await writeTree(root, skill(`burst-${i}`))
    await until(ids, (list) => list.filter((id) => id.startsWith('burst-')).length === 8, 'the burst')
    // 32 files written in 8 folders: far fewer compiles than events.
    expect(compiles() - before).toBeLessThanOrEqual(4)
    expect(lastResult()!.skills.length).toBe(10)
  })
})

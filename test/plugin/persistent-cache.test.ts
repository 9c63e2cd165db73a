import { readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHOP_MANIFEST } from '../helpers/shop-skill'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'
import { cleanEnv, runNode, type Exited } from '../helpers/spawn'

const VITE = join(REPO_ROOT, 'node_modules/vite/bin/vite.js')

/** Two skills: `shop` with a note, a Node tool, a bare browser tool and an ES-module one (a local import and a package); `blog` with one tool. */
const SHOP = {
  id: 'shop',
  name: 'Shop',
  domains: ['shop.example.com'],
  notes: ['notes/guide.md'],
  nodeTools: SHOP_MANIFEST.nodeTools,
  browserTools: {
    title: {
      description: 'The title.',
      path: 'browser-tools/title.js',
      args: {},
      returns: { type: 'string', description: 'It.' },
    },
    price: {
      description: 'The price.',
      path: 'browser-tools/price.js',
      args: {},
      returns: { type: 'string', description: 'It.' },
    },
  },
}
const BLOG = {
  id: 'blog',
  name: 'Blog',
  domains: ['blog.example.com'],
  nodeTools: {
    echo: {
      description: 'Echoes s.',
      path: 'tools/echo.js',
      callable: 'echo',
      args: { s: { type: 'string', required: true, description: 'A text.' } },
      returns: { type: 'string', description: 'The same.' },
    },
  },
}

/** Prints what the built agent serves: every piece an input change must reach. */
const AGENT = `import { browserToolSource, loadLearnedContext, runTool, skills } from 'virtual:site-skills'
const context = JSON.stringify(await loadLearnedContext('https://shop.example.com/'))
const title = JSON.stringify(await browserToolSource('shop', 'title'))
const price = JSON.stringify(await browserToolSource('shop', 'price'))
console.log(JSON.stringify({
  description: skills.find((s) => s.id === 'shop').tools.double.description,
  double: await runTool('shop', 'double', { n: 4 }),
  note: context.includes('NOTE-') ? context.match(/NOTE-\\w+/)[0] : 'no note',
  title: title.match(/TITLE-\\w+/)?.[0],
  price: price.match(/(LABEL|TSLABEL)-\\w+/)?.[0] + '+' + price.match(/PKG-\\w+/)?.[0],
  echo: await runTool('blog', 'echo', { s: 'hi' }),
}))
`

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let project: string
let cacheDir: string

function config(options = ''): string {
  return `import siteSkills from 'unplugin-site-skills/vite'\nexport default { logLevel: 'warn', plugins: [siteSkills({ ${options} })] }\n`
}

interface Built extends Exited {
  /** What the built agent printed. */
  served: Record<string, unknown>
  /** Skills reused of all, from the plugin's DEBUG line. */
  reused: [number, number]
  /** The cache file it read. */
  file: string
  /** The cache file's state when read, if the line says (missing, corrupt, ...). */
  miss?: string
  modules?: [kept: number, generated: number]
}

/** A `vite build` in a new process with DEBUG=site-skills, then the built agent run. */
async function build(outDir = 'out'): Promise<Built> {
  const run = await runNode([VITE, 'build', '--ssr', 'agent.js', '--outDir', outDir], {
    cwd: project,
    env: cleanEnv({ DEBUG: 'site-skills' }),
    limitMs: 90_000,
  })
  const output = run.stdout + run.stderr
  expect(run.timedOut, output).toBe(false)
  expect(run.code, output).toBe(0)
  const line = output.match(/cache: (\d+) of (\d+) skills reused from (\S+?);?(?: \(file (\w+)\))?;/)
  expect(line, output).not.toBeNull()
  const modules = output.match(/cache: (\d+) modules reused, (\d+) generated/)
  const agent = await runNode([join(project, outDir, 'agent.js')], { cwd: project })
  expect(agent.code, agent.stderr).toBe(0)
  return {
    ...run,
    served: JSON.parse(agent.stdout) as Record<string, unknown>,
    reused: [Number(line![1]), Number(line![2])],
    file: line![3]!,
    ...(line![4] ? { miss: line![4] } : {}),
    ...(modules ? { modules: [Number(modules[1]), Number(modules[2])] as [number, number] } : {}),
  }
}

/** The cache file of the default options: the one the last build with them read. */
let cacheFile = () => ''

/** Rewrites a file with text of the same length, then gives it its old modification time back. */
function sameSizeEdit(rel: string, from: string, to: string): void {
  expect(to.length).toBe(from.length)
  const path = join(project, rel)
  const before = statSync(path)
  const text = readFileSync(path, 'utf8')
  expect(text).toContain(from)
  writeFileSync(path, text.replace(from, to))
  utimesSync(path, before.atime, before.mtime)
}

beforeAll(async () => {
  tmp = await makeTempDir('cache-')
  project = tmp.dir
  cacheDir = join(project, 'node_modules/.cache/site-skills')
  await writeTree(project, {
    'package.json': '{ "type": "module" }\n',
    'agent.js': AGENT,
    'vite.config.js': config(),
    'node_modules/fake-pkg/package.json':
      '{ "name": "fake-pkg", "version": "1.0.0", "type": "module", "main": "index.js" }\n',
    'node_modules/fake-pkg/index.js': "export const pkgValue = 'PKG-1'\n",
    'learnings/shop/manifest.json': SHOP,
    'learnings/shop/notes/guide.md': '# Guide\n\nNOTE-1 the guide.\n',
    'learnings/shop/tools/double.js': 'export const double = (ctx, args) => args.n * 2\n',
    'learnings/shop/browser-tools/title.js': "() => 'TITLE-1'\n",
    'learnings/shop/browser-tools/price.js':
      "import { label } from './label'\nimport { pkgValue } from 'fake-pkg'\nexport default () => label + pkgValue\n",
    'learnings/shop/browser-tools/label.js': "export const label = 'LABEL-1'\n",
    'learnings/blog/manifest.json': BLOG,
    'learnings/blog/tools/echo.js': 'export const echo = (ctx, args) => args.s\n',
  })
})
afterAll(() => tmp.cleanup())

const FIRST = {
  description: 'Doubles n.',
  double: 8,
  note: 'NOTE-1',
  title: 'TITLE-1',
  price: 'LABEL-1+PKG-1',
  echo: 'hi',
}

// One project, builds in order: each step changes one kind of input and checks the next build
// serves it (never what the cache held) and reuses the skill it did not touch.
describe.sequential('the persistent cache across vite build processes', () => {
  it('a first build writes node_modules/.cache/site-skills; the next reuses every skill and module, with the same output', async () => {
    const first = await build('out-1')
    cacheFile = () => first.file
    expect(first.file.startsWith(cacheDir)).toBe(true)
    expect(first.served).toEqual(FIRST)
    expect(first.reused).toEqual([0, 2])
    expect(first.miss).toBe('missing')
    const written = statSync(cacheFile()).mtimeMs
    const second = await build('out-2')
    expect(second.served).toEqual(FIRST)
    expect(second.reused).toEqual([2, 2])
    expect(second.miss).toBeUndefined()
    expect(second.modules?.[1]).toBe(0)
    expect(second.modules?.[0]).toBeGreaterThan(0)
    expect(readFileSync(join(project, 'out-2/agent.js'), 'utf8')).toBe(
      readFileSync(join(project, 'out-1/agent.js'), 'utf8'),
    )
    // Nothing changed: the file is not written again.
    expect(statSync(cacheFile()).mtimeMs).toBe(written)
  })

  it('a manifest edit is served, and only that skill is compiled again', async () => {
    sameSizeEdit('learnings/shop/manifest.json', 'Doubles n.', 'Twices n.!')
    const built = await build()
    expect(built.served.description).toBe('Twices n.!')
    expect(built.reused).toEqual([1, 2])
  })

  it('a note edited to the same size with its old modification time is served', async () => {
    sameSizeEdit('learnings/shop/notes/guide.md', 'NOTE-1', 'NOTE-2')
    const built = await build()
    expect(built.served.note).toBe('NOTE-2')
    expect(built.reused).toEqual([1, 2])
  })

  it('a Node tool, a bare browser tool and an ES-module import edited the same way are served', async () => {
    sameSizeEdit('learnings/shop/tools/double.js', 'args.n * 2', 'args.n * 3')
    expect((await build()).served.double).toBe(12)
    sameSizeEdit('learnings/shop/browser-tools/title.js', 'TITLE-1', 'TITLE-2')
    expect((await build()).served.title).toBe('TITLE-2')
    sameSizeEdit('learnings/shop/browser-tools/label.js', 'LABEL-1', 'LABEL-2')
    const built = await build()
    expect(built.served.price).toBe('LABEL-2+PKG-1')
    expect(built.reused).toEqual([1, 2])
  })

  it('a file added beside an import that now resolves first (label.ts before label.js) is served', async () => {
    await writeTree(project, { 'learnings/shop/browser-tools/label.ts': "export const label: string = 'TSLABEL-3'\n" })
    const built = await build()
    expect(built.served.price).toBe('TSLABEL-3+PKG-1')
    expect(built.reused).toEqual([1, 2])
    rmSync(join(project, 'learnings/shop/browser-tools/label.ts'))
    expect((await build()).served.price).toBe('LABEL-2+PKG-1')
  })

  it('a new version of an imported package is served', async () => {
    await writeTree(project, {
      'node_modules/fake-pkg/package.json':
        '{ "name": "fake-pkg", "version": "2.0.0", "type": "module", "main": "index.js" }\n',
      'node_modules/fake-pkg/index.js': "export const pkgValue = 'PKG-2'\n",
    })
    const built = await build()
    expect(built.served.price).toBe('LABEL-2+PKG-2')
    expect(built.reused).toEqual([1, 2])
  })

  it('other plugin options use their own cache file: nothing is reused from the first options', async () => {
    await writeTree(project, { 'vite.config.js': config('minify: false') })
    const other = await build()
    expect(other.reused).toEqual([0, 2])
    expect(other.miss).toBe('missing')
    await writeTree(project, { 'vite.config.js': config() })
    expect((await build()).reused).toEqual([2, 2])
  })

  it('a deleted d.ts is written again by a build that reuses everything', async () => {
    const dts = join(project, 'site-skills.d.ts')
    const text = readFileSync(dts, 'utf8')
    rmSync(dts)
    expect((await build()).reused).toEqual([2, 2])
    expect(readFileSync(dts, 'utf8')).toBe(text)
  })

  it('a corrupt or truncated cache file is ignored, the build is right, and the file is written again', async () => {
    const file = cacheFile()
    const whole = readFileSync(file)
    // One byte of a tool's compiled code changed (TITLE-2 to TITLE-9): still JSON, still the same length.
    const at = whole.lastIndexOf('TITLE-2')
    expect(at).toBeGreaterThan(0)
    const flipped = Buffer.from(whole)
    flipped[at + 6] = '9'.charCodeAt(0)
    writeFileSync(file, flipped)
    const corrupt = await build()
    expect(corrupt.miss).toBe('corrupt')
    expect(corrupt.reused).toEqual([0, 2])
    expect(corrupt.served.title).toBe('TITLE-2')
    writeFileSync(file, readFileSync(file).subarray(0, Math.floor(whole.length / 2)))
    const truncated = await build()
    expect(truncated.miss).toBe('corrupt')
    expect(truncated.served.title).toBe('TITLE-2')
    writeFileSync(file, 'not a cache file')
    expect((await build()).miss).toBe('corrupt')
    expect((await build()).reused).toEqual([2, 2])
  })

  it('two builds writing the cache at once both succeed and leave a whole file', async () => {
    rmSync(cacheDir, { recursive: true, force: true })
    const [a, b] = await Promise.all([build('out-a'), build('out-b')])
    for (const built of [a, b]) {
      // Each read the cache before the other wrote it (nothing) or after (a whole file): never a part.
      expect([
        [0, 2],
        [2, 2],
      ]).toContainEqual(built.reused)
      expect(built.miss === undefined || built.miss === 'missing').toBe(true)
      expect(built.served.title).toBe('TITLE-2')
    }
    expect(readdirSync(cacheDir).filter((f) => f.endsWith('.tmp'))).toEqual([])
    const after = await build()
    expect(after.reused).toEqual([2, 2])
    expect(after.served).toEqual({
      ...FIRST,
      description: 'Twices n.!',
      double: 12,
      note: 'NOTE-2',
      title: 'TITLE-2',
      price: 'LABEL-2+PKG-2',
    })
  })

  it('`cache: false` reads and writes nothing', async () => {
    rmSync(cacheDir, { recursive: true, force: true })
    await writeTree(project, { 'vite.config.js': config('cache: false') })
    const run = await runNode([VITE, 'build', '--ssr', 'agent.js', '--outDir', 'out-off'], {
      cwd: project,
      env: cleanEnv({ DEBUG: 'site-skills' }),
      limitMs: 90_000,
    })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout + run.stderr).not.toContain('cache:')
    expect(() => statSync(cacheDir)).toThrow()
    await writeTree(project, { 'vite.config.js': config() })
  })
})

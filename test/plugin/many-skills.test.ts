import { cp, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { APP, BUNDLERS, type BundlerName, buildApp, readOutput, runMain } from '../helpers/bundlers'
import { makeTempDir } from '../helpers/tmp'

/** More skills than get a chunk each: builds put them in a fixed number of group chunks. */
const FILLERS = 90
const GROUPS = 64
const fillerId = (i: number) => `filler-${String(i).padStart(3, '0')}`
const noteOf = (i: number) => `Filler note ${i} body.`

async function writeFiller(root: string, i: number): Promise<void> {
  const dir = join(root, fillerId(i))
  await mkdir(join(dir, 'tools'), { recursive: true })
  await mkdir(join(dir, 'browser-tools'), { recursive: true })
  await mkdir(join(dir, 'notes'), { recursive: true })
  const manifest = {
    id: fillerId(i),
    name: `Filler ${i}`,
    domains: [`filler${i}.example.com`],
    notes: ['notes/n.md'],
    nodeTools: {
      echo: {
        description: 'Echo.',
        path: 'tools/echo.js',
        callable: 'echo',
        args: { text: { type: 'string', required: true, description: 'Text.' } },
        returns: { type: 'string', description: 'The text.' },
      },
    },
    browserTools: {
      title: {
        description: 'Title.',
        path: 'browser-tools/title.js',
        args: {},
        returns: { type: 'string', description: 'The title.' },
      },
    },
  }
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2))
  await writeFile(join(dir, 'notes/n.md'), `# Filler ${i}\n\n${noteOf(i)}\n`)
  await writeFile(
    join(dir, 'tools/echo.js'),
    `export async function echo(ctx, args) {\n  return 'echo-${i}:' + args.text\n}\n`,
  )
  await writeFile(join(dir, 'browser-tools/title.js'), `() => 'filler-title-${i}:' + document.title\n`)
}

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let root: string
beforeAll(async () => {
  tmp = await makeTempDir('many-skills-')
  root = join(tmp.dir, 'learnings')
  await cp(join(APP, 'learnings'), root, { recursive: true })
  await Promise.all(Array.from({ length: FILLERS }, (_, i) => writeFiller(root, i)))
  // The app's entry loads its skills and one filler's.
  await writeFile(
    join(tmp.dir, 'fillers.js'),
    [
      "import { loadLearnedContext, runTool, browserToolSource, skills } from 'virtual:site-skills'",
      'export async function main() {',
      `  const context = await loadLearnedContext('https://filler7.example.com/')`,
      '  return {',
      '    count: skills.length,',
      `    echo: await runTool('${fillerId(7)}', 'echo', { text: 'hi' }),`,
      `    bad: await runTool('${fillerId(8)}', 'echo', { text: 1 }).catch((e) => e.code),`,
      `    source: await browserToolSource('${fillerId(9)}', 'title'),`,
      '    notes: context.knowledge.map((n) => n.content),',
      '  }',
      '}',
      '',
    ].join('\n'),
  )
}, 60_000)
afterAll(() => tmp.cleanup())

describe.each(BUNDLERS)('%s with more skills than chunks', (bundler: BundlerName) => {
  let out: string
  let entry: string
  beforeAll(async () => {
    out = join(tmp.dir, bundler)
    entry = await buildApp(bundler, { outDir: out, options: { roots: root, dts: false } })
  }, 120_000)

  it("runs every kind of tool from the output, each skill's own", async () => {
    const result = (await runMain(entry)) as Record<string, unknown>
    expect(result.skills).toHaveLength(FILLERS + 2)
    expect(result.search).toEqual(['q'])
    expect(result.product).toBe('https://docs.example.org/d/1')
    expect(result.badArgs).toMatch(/^invalid-args: ext -> search/)
  })

  it('puts skill data in at most one chunk per group, none of it in the main module', async () => {
    const files = Object.entries(await readOutput(out))
    const main = files.find(([name]) => join(out, name) === entry)![1]
    const withNotes = files.filter(([, text]) => /Filler note \d+ body/.test(text))
    expect(withNotes.length).toBeGreaterThan(1)
    expect(withNotes.length).toBeLessThanOrEqual(GROUPS)
    expect(main).not.toMatch(/Filler note \d+ body/)
    for (let i = 0; i < FILLERS; i++) expect(withNotes.filter(([, t]) => t.includes(noteOf(i)))).toHaveLength(1)
  })
})

describe('a filler skill loaded from its group', () => {
  it.each(BUNDLERS)(
    '%s: notes, Node tool, argument check and browser tool of that skill only',
    async (bundler) => {
      const out = join(tmp.dir, `${bundler}-fillers`)
      const built = await buildApp(bundler, {
        outDir: out,
        entry: join(tmp.dir, 'fillers.js'),
        options: { roots: root, dts: false },
        app: tmp.dir,
      })
      expect(await runMain(built)).toEqual({
        count: FILLERS + 2,
        echo: 'echo-7:hi',
        bad: 'invalid-args',
        source: expect.stringContaining('filler-title-9:'),
        notes: [`# Filler 7\n\n${noteOf(7)}\n`],
      })
    },
    120_000,
  )
})

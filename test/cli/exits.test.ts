import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { type Exited, runBin } from '../helpers/spawn'

const N = { n: { type: 'integer', required: true, description: 'A number.' } }
const tool = (path: string, callable: string) => ({
  description: `Runs ${callable}.`,
  path,
  callable,
  args: N,
  returns: { type: 'integer', description: 'A number.' },
})
const STRING = { type: 'string', description: 'Title.' }
const TITLE = { description: 'Reads the title.', path: 'browser-tools/title.js', args: {}, returns: STRING }

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('cli-exits-')
  await writeTree(tmp.dir, {
    'package.json': '{ "type": "module" }\n',
    'learnings/shop/manifest.json': {
      id: 'shop',
      name: 'Shop',
      domains: ['shop.example.com'],
      notes: ['notes/overview.md'],
      nodeTools: {
        double: tool('tools/double.js', 'double'),
        triple: tool('tools/triple.ts', 'triple'),
        broken: tool('tools/double.js', 'broken'),
      },
      browserTools: { title: TITLE },
    },
    'learnings/shop/notes/overview.md': '# Shop\n\nThe search box is `#q`.\n',
    'learnings/shop/tools/double.js': [
      'export const double = (ctx, args) => args.n * 2',
      'export function broken() { throw new Error("no stock") }',
      '',
    ].join('\n'),
    'learnings/shop/tools/triple.ts': 'export const triple = (_: unknown, args: { n: number }): number => args.n * 3\n',
    'learnings/shop/browser-tools/title.js': 'async function () { return document.title }\n',
  })
})
afterAll(() => tmp.cleanup())

const bin = (...argv: string[]) => runBin([...argv, '--root', 'learnings'], { cwd: tmp.dir })

/** The process ended by itself (not killed at the time limit) with this exit code. */
function expectExit(run: Exited, code: number): void {
  const why = `killed after ${Math.round(run.ms)} ms; stdout: ${run.stdout} stderr: ${run.stderr}`
  expect(run.timedOut, why).toBe(false)
  expect(run.code, run.stderr).toBe(code)
}

describe('one-shot commands exit on their own', () => {
  it('match, in text and JSON', async () => {
    const text = await bin('match', 'https://shop.example.com/a', 'https://other.example.net/')
    expectExit(text, 0)
    expect(text.stdout).toContain('https://shop.example.com/a  ->  shop')
    const json = await bin('match', '--json', 'https://shop.example.com/a')
    expectExit(json, 0)
    expect(JSON.parse(json.stdout)).toEqual({ 'https://shop.example.com/a': ['shop'] })
  })

  it('context, in text and JSON, with and without a matching skill', async () => {
    const json = await bin('context', '--json', 'https://shop.example.com/')
    expectExit(json, 0)
    expect(JSON.parse(json.stdout)).toMatchObject({ exists: true, siteId: 'shop' })
    const text = await bin('context', 'https://shop.example.com/')
    expectExit(text, 0)
    expect(text.stdout).toContain('The search box is `#q`.')
    const none = await bin('context', 'https://nothing.example.net/')
    expectExit(none, 0)
    expect(none.stdout).toContain('no site skill matches')
  })

  it('run of a JavaScript and a TypeScript Node tool', async () => {
    const js = await bin('run', 'shop', 'double', '--json', '--args', '{"n":21}')
    expectExit(js, 0)
    expect(js.stdout.trim()).toBe('42')
    const ts = await bin('run', 'shop', 'triple', '--json', '--args', '{"n":5}')
    expectExit(ts, 0)
    expect(ts.stdout.trim()).toBe('15')
  })

  it('run failures exit 1: unknown tool, invalid args, a tool that throws', async () => {
    const unknownTool = await bin('run', 'shop', 'nope')
    expectExit(unknownTool, 1)
    expect(unknownTool.stderr).toContain('tool-not-found')
    const args = await bin('run', 'shop', 'double', '--args', '{"n":"x"}')
    expectExit(args, 1)
    expect(args.stderr).toContain('invalid-args')
    const thrown = await bin('run', 'shop', 'broken', '--args', '{"n":1}')
    expectExit(thrown, 1)
    expect(thrown.stderr).toContain('no stock')
  })

  it('bad usage exits 2: an unknown site, malformed --args, a browser tool without --cdp, match without a URL', async () => {
    const site = await bin('run', 'nope', 'double', '--args', '{"n":1}')
    expectExit(site, 2)
    expect(site.stderr).toContain('no skill "nope" in the roots (known: shop)')
    const json = await bin('run', 'shop', 'double', '--args', '{oops')
    expectExit(json, 2)
    expect(json.stderr).toContain('--args is not valid JSON')
    expectExit(await bin('run', 'shop', 'title'), 2)
    expectExit(await bin('match'), 2)
    expectExit(await bin('context'), 2)
  })
})

describe('a large tree', () => {
  /** Skills whose tool files V8 checks a few hundred at a time: the syntax worker thread starts. */
  function largeTree(count: number, broken: number): Record<string, string | object> {
    const tree: Record<string, string | object> = {}
    for (let i = 0; i < count; i++) {
      const id = `site-${String(i).padStart(3, '0')}`
      tree[`many/${id}/manifest.json`] = {
        id,
        name: `Site ${i}`,
        domains: [`site${i}.example.com`],
        nodeTools: { double: tool('tools/double.js', 'double') },
        browserTools: {
          title: TITLE,
          count: { description: 'Counts rows.', path: 'browser-tools/count.js', args: {}, returns: STRING },
        },
      }
      tree[`many/${id}/tools/double.js`] =
        i === broken
          ? 'export const double = (ctx, args) => args.n *\n'
          : `export const double = (ctx, args) => args.n * ${i}\n`
      tree[`many/${id}/browser-tools/title.js`] =
        i === broken ? 'async function () { return document.title }\n  .trim()\n' : TITLE_SOURCE(i)
      tree[`many/${id}/browser-tools/count.js`] = `(args) => String(document.querySelectorAll('li').length + ${i})\n`
    }
    return tree
  }
  const TITLE_SOURCE = (i: number) => `async function () { return document.title + ${i} }\n`

  it('validate reports exactly its broken tools, at their lines, and exits', async () => {
    await writeTree(tmp.dir, largeTree(150, 137))
    // Killed well before the test's own time limit, so a hang fails here and leaves no process behind.
    const run = await runBin(['validate', '--json', 'many'], { cwd: tmp.dir, limitMs: 30_000 })
    expectExit(run, 1)
    const out = JSON.parse(run.stdout) as {
      skills: number
      diagnostics: { file: string; line: number; code: string }[]
    }
    expect(out.skills).toBe(150)
    expect(out.diagnostics.map(({ file, line, code }) => ({ file, line, code }))).toEqual([
      { file: 'site-137/browser-tools/title.js', line: 1, code: 'tool-parse' },
      { file: 'site-137/tools/double.js', line: 2, code: 'tool-parse' },
    ])
  })
})

import { join, relative } from 'node:path'
import { domainToASCII } from 'node:url'
import { type RollupLog, rollup } from 'rollup'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BuildError } from '../../src/plugin/build-error'
import { rollupPlugin } from '../helpers/bundlers'
import { makeTempDir, writeTree } from '../helpers/tmp'

/**
 * Two roots hold a skill of the same id, `shop`, each with a warning of its own at another line;
 * the second is a `duplicate-id` error. Every finding must name the file of its own root.
 */
const manifest = (domain: string, extra: Record<string, unknown>) =>
  `${JSON.stringify({ id: 'shop', name: 'Shop', ...extra, domains: ['shop.example.com', domain] }, null, 2)}\n`
const TREE = {
  'first/shop/manifest.json': manifest('bücher.de', {}),
  'second/shop/manifest.json': manifest('münchen.de', { notes: [], nodeTools: {} }),
  'main.js': "import { skills } from 'virtual:site-skills'\nexport const ids = skills.map((s) => s.id)\n",
}

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('same-id-')
  await writeTree(tmp.dir, TREE)
})
afterAll(() => tmp.cleanup())

/** Where a line of a manifest of TREE is (1-based), and the column of its first non-blank character. */
function lineOf(path: keyof typeof TREE, text: string): string {
  const lines = TREE[path].split('\n')
  const index = lines.findIndex((line) => line.includes(text))
  return `${index + 1}:${lines[index]!.search(/\S/) + 1}`
}

describe('two roots holding the same skill id', () => {
  it('a Rollup build puts each warning and the error on the file of its own root', async () => {
    const warned: RollupLog[] = []
    const roots = [join(tmp.dir, 'first'), join(tmp.dir, 'second')]
    let failure: unknown
    try {
      const bundle = await rollup({
        input: join(tmp.dir, 'main.js'),
        plugins: [rollupPlugin({ dts: false, roots })],
        onwarn: (log) => void warned.push(log),
      })
      await bundle.close()
    } catch (error) {
      failure = error
    }
    // Rollup shows files relative to the working directory.
    const shown = (root: string) => `${relative(process.cwd(), join(tmp.dir, root))}/shop/manifest.json`
    const unicode = (path: keyof typeof TREE, root: string, domain: string) =>
      `[site-skills] ${shown(root)}:${lineOf(path, domain)}  warning domain-unicode  ` +
      `domain ${JSON.stringify(domain)} is matched as ${JSON.stringify(domainToASCII(domain))}`
    const ours = warned.map((log) => log.message).filter((message) => message.includes('[site-skills]'))
    expect(ours.map((message) => message.slice(message.indexOf('[site-skills]')))).toEqual([
      unicode('first/shop/manifest.json', 'first', 'bücher.de'),
      unicode('second/shop/manifest.json', 'second', 'münchen.de'),
    ])
    // The plugin comes from dist/: its error is not of this BuildError class, but has its shape.
    expect(failure).toMatchObject({ name: 'SiteSkillsError', plugin: 'unplugin-site-skills' })
    const error = failure as BuildError
    const second = join(tmp.dir, 'second', 'shop', 'manifest.json')
    expect(error.located.map(({ diagnostic, file }) => [diagnostic.code, file])).toEqual([['duplicate-id', second]])
    expect(error.id).toBe(second)
    expect(error.message).toContain(
      `${shown('second')}:${lineOf('second/shop/manifest.json', '"id"')}  error duplicate-id`,
    )
    // Each diagnostic of the build keeps its root, whatever its id (sorted by file, then position).
    expect(error.diagnostics.map((d) => [d.code, d.siteId, d.root])).toEqual([
      ['duplicate-id', 'shop', roots[1]],
      ['domain-unicode', 'shop', roots[0]],
      ['domain-unicode', 'shop', roots[1]],
    ])
  })
})

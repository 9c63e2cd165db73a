import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  closeSiteSkills,
  isSiteToolError,
  listSiteSkills,
  loadBrowserToolSource,
  runBrowserSiteTool,
  validateSiteSkills,
  wrapBrowserTool,
} from '../../src/index'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { caught } from '../helpers/caught'

const tool = (path: string) => ({
  description: 'A tool.',
  path,
  args: {},
  returns: { type: 'string', description: 'A word.' },
})

const manifest = {
  id: 'lazy',
  name: 'Lazy',
  domains: ['lazy.example.com'],
  notes: [],
  nodeTools: {},
  browserTools: {
    good: tool('browser-tools/good.js'),
    broken: tool('browser-tools/broken.js'),
    bare: tool('browser-tools/bare.js'),
  },
}

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let root: string
beforeAll(async () => {
  tmp = await makeTempDir('nobuild-lazy-')
  root = join(tmp.dir, 'learnings')
  await writeTree(root, {
    'lazy/manifest.json': manifest,
    'lazy/browser-tools/good.js': "import { word } from './word.js'\nexport default async () => word()\n",
    'lazy/browser-tools/word.js': "export const word = () => 'first'\n",
    'lazy/browser-tools/broken.js': "import { gone } from './gone.js'\nexport default async () => gone()\n",
    'lazy/browser-tools/bare.js': "async () => 'bare'\n",
  })
})
afterAll(async () => {
  closeSiteSkills()
  await tmp.cleanup()
})

/** Runs a tool's source as the original's wrapper would in a page. */
async function runSource(source: string): Promise<unknown> {
  return (new Function(`return ${wrapBrowserTool(source)}`) as () => Promise<unknown>)()
}

describe('no-build browser tools, compiled when called', () => {
  it('lists a skill whose unused tool does not bundle, and runs its other tools', async () => {
    const [skill] = await listSiteSkills({ root })
    expect(skill?.id).toBe('lazy')
    expect(Object.keys(skill!.tools)).toEqual(['good', 'broken', 'bare'])
    expect(await runSource(await loadBrowserToolSource('lazy', 'good', { root }))).toBe('first')
    expect(await runSource(await loadBrowserToolSource('lazy', 'bare', { root }))).toBe('bare')
  })

  it("reports a tool's bundling error when that tool is called, with its file and line", async () => {
    const source = await caught(loadBrowserToolSource('lazy', 'broken', { root }))
    expect(isSiteToolError(source, 'skill-invalid') && source.message).toMatch(
      /site skill is invalid: lazy\/browser-tools\/broken\.js:1:\d+ browser tool "broken": .*gone\.js/,
    )
    // The error comes from the compile, before any connection to the (unreachable) target.
    const run = await caught(runBrowserSiteTool('lazy', 'broken', {}, 'ws://127.0.0.1:9/devtools/page/x', { root }))
    expect(isSiteToolError(run, 'skill-invalid') && run.message).toContain('lazy/browser-tools/broken.js:1:')
  })

  it('still reports the bundling error when validating', async () => {
    const errors = await validateSiteSkills(root)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^lazy: .*gone\.js/)
  })

  it('sees an edit to a file the tool imports on the next call', async () => {
    await writeFile(join(root, 'lazy/browser-tools/word.js'), "export const word = () => 'second'\n")
    expect(await runSource(await loadBrowserToolSource('lazy', 'good', { root }))).toBe('second')
  })
})

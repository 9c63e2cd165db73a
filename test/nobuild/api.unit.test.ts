import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  closeSiteSkills,
  dispatchToolCall,
  isSiteToolError,
  loadBrowserToolSource,
  loadLearnedContext,
  runNodeSiteTool,
  siteSkillsForUrl,
  siteSkillsRoot,
  toolDefinitionsForUrl,
  validateSiteSkills,
  wrapBrowserTool,
} from '../../src/index'
import { readAllPages } from '../helpers/pages'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'
import { caught } from '../helpers/caught'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let root: string
beforeAll(async () => {
  tmp = await makeTempDir('nobuild-')
  root = join(tmp.dir, 'learnings')
  await cp(join(REPO_ROOT, 'test/fixtures/app/learnings'), root, { recursive: true })
  await writeFile(join(tmp.dir, 'package.json'), '{ "type": "module" }\n')
})
afterAll(async () => {
  closeSiteSkills()
  await tmp.cleanup()
})

describe('the original API, built on the compiler', () => {
  it('siteSkillsForUrl returns LearningEntry objects in directory order', async () => {
    const [entry] = await siteSkillsForUrl('https://ext.example.com/page', { root })
    expect(entry).toMatchObject({
      id: 'ext',
      name: 'Ext',
      path: join(root, 'ext'),
      notes: [join(root, 'ext/notes/overview.md')],
    })
    expect(Object.keys(entry!.nodeTools)).toEqual(['search', 'typed', 'mjs', 'reexported'])
    expect(entry!.nodeTools.search).toMatchObject({ path: 'tools/search.js', callable: 'search', timeoutMs: 5000 })
    expect(await siteSkillsForUrl('https://nothing.example.net/', { root })).toEqual([])
  })

  it('loadLearnedContext has the original shape and example strings', async () => {
    const context = await loadLearnedContext('https://EXT.example.com./x', { root })
    expect(context).toMatchObject({ exists: true, siteId: 'ext', siteName: 'Ext', domain: 'ext.example.com' })
    expect(context.knowledge).toEqual([
      {
        siteId: 'ext',
        fileName: 'overview.md',
        content: '# ext\n\nThe search box is `input[name=q]`.\n',
      },
    ])
    // Calls of this API: there is no `site` object here.
    expect(context.tools.map((t) => t.example)).toContain('await runNodeSiteTool("ext", "search", { ... }, ctx)')
    expect(context.tools.map((t) => t.example)).toContain('await runBrowserSiteTool("ext", "read", { ... }, target)')
    expect(context.tools.findIndex((t) => t.toolType === 'browser')).toBe(4)
    expect(context.toolDefinitions.anthropic.map((t) => t.name)).toContain('ext__search')
    const none = await loadLearnedContext('about:blank', { root })
    expect(none).toMatchObject({ exists: false, siteId: null, siteName: null, domain: '', knowledge: [], tools: [] })
  })

  it('runNodeSiteTool checks args, runs JS and TS tools, and reports typed errors', async () => {
    expect(await runNodeSiteTool('ext', 'search', { query: 'q' }, {}, { root })).toEqual(['q'])
    expect(await runNodeSiteTool('ext', 'typed', {}, {}, { root })).toBe(1)
    expect(await runNodeSiteTool('workspace', 'docs_open', { url: 'u' }, {}, { root })).toBe('u')
    const bad = await caught(runNodeSiteTool('ext', 'search', { query: 'q', category: 'films' }, {}, { root }))
    expect(isSiteToolError(bad, 'invalid-args') && bad.message).toBe(
      'ext -> search: argument "category" must be one of "books", "music" (got "films")',
    )
    const missing = await caught(runNodeSiteTool('nope', 'x', {}, {}, { root }))
    expect(isSiteToolError(missing, 'skill-not-found') && missing.message).toContain('site skill not found: "nope"')
    const browser = await caught(runNodeSiteTool('ext', 'read', {}, {}, { root }))
    expect(isSiteToolError(browser, 'tool-not-found') && browser.message).toBe(
      'ext -> read: Node tool "read" is not declared by site skill "ext"',
    )
  })

  it('loadBrowserToolSource gives one function that wrapBrowserTool can call', async () => {
    const source = await loadBrowserToolSource('ext', 'module', { root })
    const expression = wrapBrowserTool(source, { a: 1 })
    expect(expression.startsWith('(async () => { const __egoBrowserTool = async function(){')).toBe(true)
    const document = { querySelector: () => ({ textContent: '  Title ' }) }
    const run = new Function('document', `return ${expression}`) as (d: unknown) => Promise<unknown>
    expect(await run(document)).toEqual({ title: 'Title' })
    expect(wrapBrowserTool('async (a) => a', null)).toBe(
      '(async () => { const __egoBrowserTool = async (a) => a; return await __egoBrowserTool({}); })()',
    )
  })

  it('validateSiteSkills returns the original strings', async () => {
    expect(await validateSiteSkills(root)).toEqual([])
    const errors = await validateSiteSkills(join(REPO_ROOT, 'test/fixtures/rules/id-mismatch'))
    expect(errors).toEqual([
      'folder-name: manifest id must match directory name',
      'no-id: manifest id must match directory name',
    ])
  })

  it('tool definitions map back to the site tool through the dispatcher', async () => {
    const defs = await toolDefinitionsForUrl('https://ext.example.com/', { root })
    const search = defs.openai.find((d) => d.function.name === 'ext__search')!
    expect(search.function.strict).toBe(true)
    // Strict mode: every argument required, the optional ones nullable; the runtime's `cursor` is one of them.
    expect(search.function.parameters).toMatchObject({
      additionalProperties: false,
      required: ['query', 'category', 'tags', 'range', 'cursor'],
      properties: { cursor: { type: ['string', 'null'] } },
    })
    expect(defs.names.ext__search).toEqual({ siteId: 'ext', tool: 'search' })
    const nulls = { category: null, tags: null, range: null, cursor: null }
    expect(await dispatchToolCall('ext__search', { query: 'z', ...nulls }, {}, { root })).toEqual(['z'])
  })

  it("pages a model's call over the tool's result budget; the Node tool itself returns the whole value", async () => {
    const query = 'words '.repeat(8000)
    expect(await runNodeSiteTool('ext', 'search', { query }, {}, { root })).toEqual([query])
    const { value, pages } = await readAllPages((cursor) =>
      dispatchToolCall('ext__search', cursor ? { query, cursor } : { query }, {}, { root }),
    )
    expect(value).toEqual([query])
    expect(pages[0]).toMatchObject({ pageInfo: { total: 1, offset: 0, count: 1 } })
    expect(pages.length).toBeGreaterThan(2)
  })
})

describe('live changes without a restart', () => {
  it('sees an edited tool, a new skill, a broken one and its fix', async () => {
    expect(await runNodeSiteTool('ext', 'mjs', {}, {}, { root })).toBe(2)
    await writeFile(join(root, 'ext/tools/other.mjs'), 'export function other() { return 20 }\n')
    expect(await runNodeSiteTool('ext', 'mjs', {}, {}, { root })).toBe(20)

    await writeTree(root, {
      'fresh/manifest.json': {
        id: 'fresh',
        name: 'Fresh',
        domains: ['fresh.example.com'],
        nodeTools: {
          hello: {
            description: 'Says hello.',
            path: 'tools/hello.js',
            callable: 'hello',
            args: {},
            returns: { type: 'string', description: 'Greeting.' },
          },
        },
      },
      'fresh/tools/hello.js': 'export const hello = () => "hi"\n',
    })
    expect((await siteSkillsForUrl('https://fresh.example.com/', { root })).map((s) => s.id)).toEqual(['fresh'])
    expect(await runNodeSiteTool('fresh', 'hello', {}, {}, { root })).toBe('hi')

    await mkdir(join(root, 'stray'))
    const manifest = join(root, 'fresh/manifest.json')
    const good = await readFile(manifest, 'utf8')
    await writeFile(manifest, good.replace('"Fresh"', '"Fresh",'))
    const broken = await caught(runNodeSiteTool('fresh', 'hello', {}, {}, { root }))
    expect(isSiteToolError(broken, 'skill-invalid') && broken.message).toContain('fresh/manifest.json:3:')
    expect(await runNodeSiteTool('ext', 'search', { query: 'still' }, {}, { root })).toEqual(['still'])

    await writeFile(manifest, good)
    await rm(join(root, 'stray'), { recursive: true })
    expect(await runNodeSiteTool('fresh', 'hello', {}, {}, { root })).toBe('hi')
  })
})

describe('roots', () => {
  const broken = join(REPO_ROOT, 'test/fixtures/rules/id-mismatch')
  const nowhere = join(REPO_ROOT, 'test/.tmp/no-such-learnings-folder')

  it('validateSiteSkills takes the root as a path or as { root } / { roots }, with the same findings', async () => {
    const expected = [
      'folder-name: manifest id must match directory name',
      'no-id: manifest id must match directory name',
    ]
    expect(await validateSiteSkills(broken)).toEqual(expected)
    expect(await validateSiteSkills({ root: broken })).toEqual(expected)
    expect(await validateSiteSkills({ roots: [broken] })).toEqual(expected)
  })

  it('a root that does not exist is a root-missing error from every function, never an empty answer', async () => {
    const calls: [string, () => Promise<unknown>][] = [
      ['validateSiteSkills(path)', () => validateSiteSkills(nowhere)],
      ['validateSiteSkills({ root })', () => validateSiteSkills({ root: nowhere })],
      ['siteSkillsForUrl', () => siteSkillsForUrl('https://ext.example.com/', { root: nowhere })],
      ['siteSkillsForUrl(url, path)', () => siteSkillsForUrl('https://ext.example.com/', nowhere)],
      ['loadLearnedContext', () => loadLearnedContext('https://ext.example.com/', { root: nowhere })],
      ['toolDefinitionsForUrl', () => toolDefinitionsForUrl('https://ext.example.com/', { root: nowhere })],
      ['runNodeSiteTool', () => runNodeSiteTool('ext', 'search', { query: 'q' }, {}, { root: nowhere })],
      ['loadBrowserToolSource', () => loadBrowserToolSource('ext', 'read', nowhere)],
      ['dispatchToolCall', () => dispatchToolCall('ext__search', { query: 'q' }, {}, { roots: [root, nowhere] })],
    ]
    for (const [name, call] of calls) {
      const error = await caught(call())
      expect(isSiteToolError(error, 'root-missing'), name).toBe(true)
      expect((error as Error).message, name).toBe(`no learnings folder at ${JSON.stringify(nowhere)}`)
    }
  })

  it('every function takes the root as a path string as well as { root }', async () => {
    expect((await siteSkillsForUrl('https://ext.example.com/', root)).map((s) => s.id)).toEqual(['ext'])
    expect((await loadLearnedContext('https://ext.example.com/', root)).siteId).toBe('ext')
    expect(await runNodeSiteTool('ext', 'search', { query: 'q' }, {}, root)).toEqual(['q'])
    expect((await toolDefinitionsForUrl('https://ext.example.com/', root)).names.ext__search).toBeDefined()
    expect(await dispatchToolCall('ext__search', { query: 'z' }, {}, root)).toEqual(['z'])
    expect(await loadBrowserToolSource('ext', 'module', root)).toBe(
      await loadBrowserToolSource('ext', 'module', { root }),
    )
  })

  it('siteSkillsRoot reads the workspace like the original, with ~ expanded properly', () => {
    expect(siteSkillsRoot('/ws')).toBe('/ws/learnings')
    expect(siteSkillsRoot('~/ws')).toBe(join(process.env.HOME!, 'ws/learnings'))
  })
})

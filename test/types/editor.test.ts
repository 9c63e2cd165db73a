import { existsSync, readFileSync } from 'node:fs'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join, relative } from 'node:path'
import ts from 'typescript'
import ts5 from 'typescript-5'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEditor, markPositions } from '../helpers/editor'
import { runBin } from '../helpers/spawn'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'

interface ToolEntry {
  description: string
  path: string
  urls?: string[]
  args: Record<string, { description: string }>
  returns: { description: string }
}
interface Manifest {
  name: string
  domains: string[]
  nodeTools?: Record<string, ToolEntry>
  browserTools?: Record<string, ToolEntry>
}

const HN: Manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'learnings/hacker-news/manifest.json'), 'utf8'))
const NODE_TOOLS = Object.keys(HN.nodeTools ?? {})
const BROWSER_TOOLS = Object.keys(HN.browserTools ?? {})
const SITES = ['demo-shop', 'github', 'google-workspace', 'hacker-news', 'mdn', 'wikipedia', 'odd-site']

// A second root whose texts could break a JSDoc comment or a property name.
const ODD = {
  'odd-site/manifest.json': {
    id: 'odd-site',
    name: 'Odd */ site',
    domains: ['odd.example'],
    notes: [],
    nodeTools: {
      look_up: {
        description: 'Finds `things` */ and more.\nSecond line.',
        path: 'tools/look.js',
        callable: 'lookUp',
        args: { 'odd-name': { type: 'string', required: true, description: 'Ends a comment */ here.' } },
        // A description that starts as a JSDoc type would (`@returns {...}`).
        returns: { type: 'object', description: '{ echo }: what it found.' },
      },
    },
  },
  'odd-site/tools/look.js': 'export async function lookUp(_ctx, args) { return { echo: args["odd-name"] } }\n',
}

// ⟨name⟩ marks where the editor is asked: the cursor sits just after the marker.
const CONSUMER = markPositions(`import { runTool, runBrowserTool, browserToolSource, sites } from 'virtual:site-skills'
void sites['⟨siteKey⟩hacker-news']
void sites['hacker-news'].⟨toolMember⟩get_item
void ⟨runToolName⟩runTool('⟨siteArg⟩hacker-news', '⟨toolArg⟩get_item', { id: 1 })
void runBrowserTool('hacker-news', '⟨browserArg⟩read_stories', {}, 'localhost:9222')
void browserToolSource('hacker-news', '⟨sourceArg⟩read_stories')
void sites['odd-site'].⟨oddTool⟩look_up({ 'odd-name': 'x' })
void runTool('hacker-news', 'get_item', { ⟨runToolArgs⟩id: 2 })
void sites['hacker-news'].get_item({ ⟨stubArgs⟩id: 3 })
`)

// Calls the plugin must leave alone: a function of the user's own named runTool, and any other string union.
const OTHERS = markPositions(`declare function runTool(site: 'hacker-news', tool: 'get_item' | 'search'): void
declare function pick(key: 'get_item' | 'other'): void
runTool('hacker-news', '⟨ownTool⟩get_item')
pick('⟨pickArg⟩get_item')
`)

// Names of Object's and Function's own members: no site or tool has them, so the plugin has nothing to say.
const PROTOS = markPositions(`import { runTool } from 'virtual:site-skills'
// @ts-expect-error: no such site
void runTool('⟨ctorSite⟩constructor', '⟨ctorTool⟩toString')
// @ts-expect-error: no such tool
void runTool('hacker-news', '⟨hnTool⟩toString')
// @ts-expect-error: no such tool
void runTool('hacker-news', '⟨hnProto⟩__proto__')
`)

const MISTAKES = `import { runTool, runBrowserTool, loadNotes } from 'virtual:site-skills'
void runTool('hacker-news', 'serach', { query: 'x' })
void runTool('hacker-nwes', 'search', { query: 'x' })
void runBrowserTool('hacker-news', 'get_item', { id: 1 }, 'localhost:9222')
void loadNotes('nope')
`

/** The literal members of the union a diagnostic names as the parameter type, or undefined if it names another type. */
function unionIn(message: string): string[] | undefined {
  const type = /parameter of type '(.*)'\.$/.exec(message)?.[1]
  if (!type || !/^"[^"]*"( \| "[^"]*")*$/.test(type)) return undefined
  return type.split(' | ').map((t) => JSON.parse(t) as string)
}

type Editor = ReturnType<typeof createEditor>
let tmp: Awaited<ReturnType<typeof makeTempDir>>
/** TypeScript 6's language service without the plugin, and with it. */
let editor: Editor
let plugged: Editor
beforeAll(async () => {
  tmp = await makeTempDir('editor-')
  await mkdir(join(tmp.dir, 'node_modules'))
  await symlink(REPO_ROOT, join(tmp.dir, 'node_modules/unplugin-site-skills'))
  await writeTree(join(tmp.dir, 'odd'), ODD)
  const roots = ['--root', join(REPO_ROOT, 'learnings'), '--root', join(tmp.dir, 'odd')]
  const run = await runBin(['types', ...roots, '--out', 'site-skills.d.ts'], { cwd: tmp.dir })
  expect(run.stdout + run.stderr).toContain('7 skills')
  expect(run.code).toBe(0)
  expect(run.ms).toBeLessThan(10_000)
  await writeFile(join(tmp.dir, 'use.ts'), CONSUMER.text)
  await writeFile(join(tmp.dir, 'mistakes.ts'), MISTAKES)
  await writeFile(join(tmp.dir, 'others.ts'), OTHERS.text)
  await writeFile(join(tmp.dir, 'protos.ts'), PROTOS.text)
  editor = createEditor(tmp.dir, ['site-skills.d.ts', 'use.ts', 'mistakes.ts'])
  // The built plugin, loaded as tsserver loads it: `require`, then its factory, then `create` over the service.
  const init = createRequire(import.meta.url)(join(REPO_ROOT, 'dist/ts-plugin.cjs')) as ts.server.PluginModuleFactory
  const logger = { info: () => undefined }
  const info = (service: ts.LanguageService) =>
    ({ languageService: service, project: { projectService: { logger } } }) as unknown as ts.server.PluginCreateInfo
  plugged = createEditor(tmp.dir, ['site-skills.d.ts', 'use.ts', 'others.ts', 'protos.ts'], (service) =>
    init({ typescript: ts }).create(info(service)),
  )
})
afterAll(() => tmp.cleanup())

const at = (name: string) => CONSUMER.at[name]!

const getItem = HN.nodeTools!.get_item!
const link = (path: string) => relative(tmp.dir, join(REPO_ROOT, 'learnings/hacker-news', path))
/** The documentation of hacker-news get_item: its description, then its kind and file as a link. */
const getItemDoc = () => `${getItem.description}\n\nNode tool: [\`hacker-news/${getItem.path}\`](${link(getItem.path)})`
/** Its tags: each argument's description under `@param args`, and the result's under `@returns`. */
/** The paragraph a tool scoped to pages (`urls`) adds to its documentation. */
const pagesOf = (tool: ToolEntry) => (tool.urls ? `\n\nPages: ${tool.urls.map((u) => `\`${u}\``).join(', ')}` : '')
const getItemTags = () => {
  const args = Object.entries(getItem.args).map(([name, f]) => `- \`${name}\`: ${f.description}`)
  return [`@param args ${args.join('\n')}`, `@returns ${getItem.returns.description}`]
}

// What an editor shows from the d.ts alone, on TypeScript 5 and 6 (TypeScript 7's language server: editor-ts7.test.ts).
describe.each([
  ['5', ts5 as unknown as typeof ts],
  ['6', ts],
])('an editor over the generated types, no plugin (TypeScript %s)', (major, typescript) => {
  let editor: Editor
  beforeAll(() => {
    expect(typescript.versionMajorMinor.split('.')[0]).toBe(major)
    editor = createEditor(tmp.dir, ['site-skills.d.ts', 'use.ts', 'mistakes.ts'], undefined, typescript)
  })

  it('loads the package types from dist/ without an error, and the consumer has none', () => {
    const files = editor.service
      .getProgram()!
      .getSourceFiles()
      .map((f) => f.fileName)
    expect(files).toContain(join(REPO_ROOT, 'client.d.ts'))
    expect(files.some((f) => f.startsWith(join(REPO_ROOT, 'dist/')) && f.endsWith('runtime.d.ts'))).toBe(true)
    // client.d.ts imports SiteSkillsModule from the built unplugin-site-skills/runtime.
    expect(editor.service.getSemanticDiagnostics(join(REPO_ROOT, 'client.d.ts'))).toEqual([])
    expect(editor.diagnostics('site-skills.d.ts')).toEqual([])
    expect(editor.diagnostics('use.ts')).toEqual([])
  })

  it("sites['|: each site id completes and hovers with the skill's name and domains", () => {
    expect(editor.completions('use.ts', at('siteKey'))).toEqual([...SITES].sort())
    const details = editor.details('use.ts', at('siteKey'), 'hacker-news')
    expect(details?.documentation).toBe(`${HN.name}\n\nDomains: \`${HN.domains.join('`, `')}\``)
    expect(editor.hover('use.ts', at('siteKey'))?.documentation).toBe(details?.documentation)
  })

  it("sites['x'].|: each tool completes and hovers with its description, kind and file", () => {
    expect(editor.completions('use.ts', at('toolMember'))).toEqual([...NODE_TOOLS, ...BROWSER_TOOLS].sort())
    const getItem = HN.nodeTools!.get_item!
    // The file is a Markdown link relative to the d.ts: the editor opens the tool from the hover.
    const link = relative(tmp.dir, join(REPO_ROOT, 'learnings/hacker-news', getItem.path))
    expect(existsSync(join(tmp.dir, link))).toBe(true)
    const expected = `${getItem.description}\n\nNode tool: [\`hacker-news/${getItem.path}\`](${link})`
    const details = editor.details('use.ts', at('toolMember'), 'get_item')
    expect(details?.documentation).toBe(expected)
    // Generic in the cursor a call passes: with one, the call returns a page of the result.
    expect(details?.text).toMatch(
      /^\(method\) "get_item"<C extends string \| undefined = undefined>\(args: \{\n\s+id: number;[\s\S]*\} & PageArgs<C>, ctx\?: SiteSkillsHost \| undefined\): Promise<ResultOrPage<C, \{/,
    )
    expect(editor.hover('use.ts', at('toolMember'))?.documentation).toBe(expected)
    const read = HN.browserTools!.read_stories!
    expect(editor.details('use.ts', at('toolMember'), 'read_stories')?.documentation).toBe(
      `${read.description}\n\nBrowser tool (runs in the page): [\`hacker-news/${read.path}\`](${relative(tmp.dir, join(REPO_ROOT, 'learnings/hacker-news', read.path))})${pagesOf(read)}`,
    )
  })

  it("runTool('x', '|'): the site's tools complete, browser-only calls offer browser tools only", () => {
    expect(editor.completions('use.ts', at('siteArg'))).toEqual(SITES)
    expect(editor.completions('use.ts', at('toolArg'))).toEqual([...NODE_TOOLS, ...BROWSER_TOOLS])
    expect(editor.details('use.ts', at('toolArg'), 'get_item')?.text).toBe('get_item')
    expect(editor.completions('use.ts', at('browserArg'))).toEqual(BROWSER_TOOLS)
    expect(editor.completions('use.ts', at('sourceArg'))).toEqual(BROWSER_TOOLS)
  })

  it("a runTool call hovers with the tool's own description, file, arguments and result", () => {
    const hover = editor.hover('use.ts', at('runToolName'))
    expect(hover?.text).toContain('runTool<"hacker-news", "get_item">(siteId: "hacker-news", tool: "get_item", args: {')
    expect(hover?.text).toContain('maxComments?: number;')
    expect(hover?.text).toContain('"replies"?: Array<')
    expect(hover?.documentation).toBe(getItemDoc())
    expect(editor.tags('use.ts', at('runToolName'))).toEqual(getItemTags())
  })

  it("signature help in runTool(...) and sites[...](...) shows the tool's description and its arguments'", () => {
    for (const position of [at('runToolArgs'), at('stubArgs')]) {
      const help = editor.signature('use.ts', position)
      expect(help?.text).toContain('args: { id: number; depth?: number; maxComments?: number; }')
      expect(help?.documentation).toBe([getItemDoc(), ...getItemTags()].join('\n'))
    }
    // A stub has one signature; runTool lists its first signature and one per tool, the call's selected.
    expect(editor.signature('use.ts', at('stubArgs'))?.count).toBe(1)
  })

  it('texts that could end a comment stay inside it; a result that starts with { is shown whole', () => {
    expect(editor.tags('use.ts', at('oddTool'))).toEqual([
      '@param args - `odd-name`: Ends a comment *\\/ here.',
      '@returns { echo }: what it found.',
    ])
    const site = editor.details('use.ts', at('siteKey'), 'odd-site')
    expect(site?.documentation).toBe('Odd *\\/ site\n\nDomains: `odd.example`')
    expect(editor.hover('use.ts', at('oddTool'))).toEqual({
      text:
        // The tool's own arguments, and the runtime's `cursor` of a paged result (PageArgs): none is passed, so the
        // call returns the result, not a page.
        '(method) "look_up"<undefined>(args: {\n    "odd-name": string;\n} & PageArgs<undefined>, ctx?: SiteSkillsHost | undefined): ' +
        'Promise<Record<string, unknown>>',
      documentation:
        'Finds `things` *\\/ and more. Second line.\n\nNode tool: [`odd-site/tools/look.js`](./odd/odd-site/tools/look.js)',
    })
  })

  it('a misspelled tool or site id is reported with the valid names, never an internal type', () => {
    const errors = editor.diagnostics('mistakes.ts')
    expect(errors).toHaveLength(4)
    const [tool, site, kind, notes] = errors.map((e) => e.replace(/^\d+: /, ''))
    expect(tool).toMatch(/^Argument of type '"serach"' is not assignable to parameter of type '"/)
    expect(unionIn(tool!)?.sort()).toEqual([...NODE_TOOLS, ...BROWSER_TOOLS].sort())
    expect(unionIn(site!)?.sort()).toEqual([...SITES].sort())
    expect(kind).toContain(`Argument of type '"get_item"'`)
    expect(unionIn(kind!)?.sort()).toEqual([...BROWSER_TOOLS].sort())
    expect(unionIn(notes!)?.sort()).toEqual([...SITES].sort())
  })
})

describe('an editor with the plugin unplugin-site-skills/ts-plugin', () => {
  const read = HN.browserTools!.read_stories!
  const readDoc = () =>
    `${read.description}\n\nBrowser tool (runs in the page): [\`hacker-news/${read.path}\`](${link(read.path)})${pagesOf(read)}`

  it("runTool('x', '|'): each completion entry's details carry the tool's description, kind and file", () => {
    // The order is TypeScript's (a union's members by when each literal type was made); an editor sorts them.
    expect(plugged.completions('use.ts', at('toolArg')).sort()).toEqual([...NODE_TOOLS, ...BROWSER_TOOLS].sort())
    expect(plugged.details('use.ts', at('toolArg'), 'get_item')).toEqual({
      text: 'get_item',
      documentation: getItemDoc(),
    })
    expect(plugged.details('use.ts', at('toolArg'), 'read_stories')?.documentation).toBe(readDoc())
    expect(plugged.details('use.ts', at('browserArg'), 'read_stories')?.documentation).toBe(readDoc())
    expect(plugged.details('use.ts', at('sourceArg'), 'read_stories')?.documentation).toBe(readDoc())
  })

  it("runTool('|'): each site id's details carry the skill's name and domains", () => {
    expect(plugged.details('use.ts', at('siteArg'), 'hacker-news')?.documentation).toBe(
      `${HN.name}\n\nDomains: \`${HN.domains.join('`, `')}\``,
    )
  })

  it("hovering the tool name in runTool('x', 'tool') shows the tool's type and description", () => {
    const hover = plugged.hover('use.ts', at('toolArg') + 2)
    expect(hover?.documentation).toBe(getItemDoc())
    expect(hover?.text).toMatch(
      /^\(tool\) "get_item": <C extends string \| undefined = undefined>\(args: \{ id: number; depth\?: number; maxComments\?: number; \} & PageArgs<C>, ctx\?: SiteSkillsHost/,
    )
    expect(plugged.hover('use.ts', at('siteArg') + 2)?.text).toBe('(site) "hacker-news"')
  })

  it('leaves what it did not make alone: member completions, other functions and other string unions', () => {
    expect(plugged.details('use.ts', at('toolMember'), 'get_item')).toEqual(
      editor.details('use.ts', at('toolMember'), 'get_item'),
    )
    const own = OTHERS.at.ownTool!
    expect(plugged.completions('others.ts', own).sort()).toEqual(['get_item', 'search'])
    expect(plugged.details('others.ts', own, 'get_item')).toEqual({ text: 'get_item', documentation: '' })
    expect(plugged.details('others.ts', OTHERS.at.pickArg!, 'get_item')).toEqual({
      text: 'get_item',
      documentation: '',
    })
    expect(plugged.diagnostics('others.ts')).toEqual([])
  })

  it("runTool('constructor', 'toString'): only the generated sites and tools count, not Object's members (issue 24.14)", () => {
    for (const name of ['ctorSite', 'ctorTool', 'hnTool', 'hnProto']) {
      const position = PROTOS.at[name]! + 2
      const hover = plugged.hover('protos.ts', position)
      expect(hover?.text ?? '', name).not.toMatch(/^\((?:site|tool)\)/)
      expect(hover?.documentation ?? '', name).toBe('')
    }
    for (const [marker, entry] of [
      ['ctorSite', 'constructor'],
      ['ctorTool', 'toString'],
      ['hnTool', 'toString'],
      ['hnTool', 'hasOwnProperty'],
    ] as const) {
      const details = plugged.details('protos.ts', PROTOS.at[marker]!, entry)
      expect(details?.documentation ?? '', `${marker} ${entry}`).toBe('')
    }
    // The same service still documents the real ones.
    expect(plugged.hover('use.ts', at('toolArg') + 2)?.documentation).toBe(getItemDoc())
    expect(plugged.diagnostics('protos.ts')).toEqual([])
  })
})

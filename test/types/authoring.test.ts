import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeSiteSkills, loadBrowserToolSource } from '../../src/nobuild/api'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { runBin } from '../helpers/spawn'

const ARGS = {
  query: { type: 'string', required: true, description: 'Words.' },
  limit: { type: 'integer', required: false, description: 'At most this many.' },
  sort: { type: 'string', required: false, description: 'Order.', enum: ['price', 'name'] },
}
const ITEM = {
  type: 'object',
  description: 'A product.',
  properties: { id: { type: 'string', required: true }, price: { type: 'number', required: true } },
}

/** A skill whose manifest the tools below are checked against. */
const SHOP = {
  'shop/manifest.json': {
    id: 'shop',
    name: 'Shop',
    domains: ['shop.example'],
    notes: [],
    nodeTools: {
      search: {
        description: 'Search.',
        path: 'tools/search.js',
        callable: 'search',
        args: ARGS,
        returns: { type: 'array', description: 'Products.', items: ITEM },
      },
    },
    browserTools: {
      read_page: {
        description: 'Read the page.',
        path: 'browser-tools/read.js',
        args: { full: { type: 'boolean', required: false, description: 'Everything.' } },
        returns: {
          type: 'object',
          description: 'The page.',
          properties: {
            title: { type: 'string', required: true },
            links: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
  },
  'shop/tools/search.js': 'export async function search(ctx, args) { return [] }\n',
  'shop/browser-tools/read.js': 'async function (args) { return { title: document.title } }\n',
  'shop/browser-tools/helper.ts': `import { defineBrowserTool } from 'unplugin-site-skills/tool'
export default defineBrowserTool('shop', 'read_helped', async (args) => ({ title: args.full ? document.title : 'short' }))
`,
}
const HELPED = {
  description: 'Read with the helper.',
  path: 'browser-tools/helper.ts',
  args: { full: { type: 'boolean', required: false, description: 'Everything.' } },
  returns: { type: 'object', description: 'The page.', properties: { title: { type: 'string', required: true } } },
}
Object.assign((SHOP['shop/manifest.json'] as { browserTools: object }).browserTools, { read_helped: HELPED })

// Every mistake a tool author can make, each marked; the clean tools around them must pass.
const TOOLS = `import { defineBrowserTool, defineNodeTool } from 'unplugin-site-skills/tool'
import type { NodeTool, SiteToolArgs, SiteToolResult } from 'unplugin-site-skills/tool'
import { runTool, sites } from 'virtual:site-skills'

declare module 'unplugin-site-skills/tool' {
  interface SiteSkillsHost {
    fetch: typeof fetch
    baseUrl: string
  }
}

export const search = defineNodeTool('shop', 'search', async (ctx, args) => {
  const response = await ctx.fetch(\`\${ctx.baseUrl}/search?q=\${args.query}&n=\${args.limit ?? 10}\`)
  void response
  const order: 'price' | 'name' | undefined = args.sort
  void order
  return [{ id: 'a', price: 1 }]
})
export const readPage = defineBrowserTool('shop', 'read_page', (args) => ({
  title: document.title,
  links: args.full ? [...document.links].map((a) => a.href) : undefined,
}))
export const annotated: NodeTool<'shop', 'search'> = (_ctx, args) => [{ id: args.query, price: 0 }]
const someArgs: SiteToolArgs<'shop', 'search'> = { query: 'lamp', sort: 'price' }
const someResult: SiteToolResult<'shop', 'read_page'> = { title: 'Shop' }
void someArgs
void someResult

defineNodeTool('shop', 'search', async (_ctx, args) => {
  // @ts-expect-error wrong argument name
  void args.qurey
  return []
})
defineNodeTool('shop', 'search', async (_ctx, args) => {
  // @ts-expect-error wrong argument type: query is a string
  const n: number = args.query
  return [{ id: String(n), price: n }]
})
defineNodeTool('shop', 'search', async (_ctx, args) => {
  // @ts-expect-error an optional argument read as always defined
  return [{ id: 'a', price: args.limit * 2 }]
})
// @ts-expect-error wrong return shape: id is a string
defineNodeTool('shop', 'search', async () => [{ id: 1, price: 2 }])
// @ts-expect-error the parameter's declared type disagrees with the manifest
defineNodeTool('shop', 'search', async (_ctx, args: { query: number }) => [{ id: 'a', price: args.query }])
defineNodeTool('shop', 'search', async (ctx) => {
  // @ts-expect-error wrong ctx member: the host has no page
  void ctx.page
  return []
})
// @ts-expect-error read_page is a browser tool, not a Node tool
defineNodeTool('shop', 'read_page', async () => ({ title: '' }))
// @ts-expect-error unknown tool name
defineBrowserTool('shop', 'read_pgae', () => ({ title: '' }))
// @ts-expect-error wrong return shape: title is required
defineBrowserTool('shop', 'read_page', () => ({ links: [] }))

void sites.shop.search({ query: 'x' }, { fetch, baseUrl: 'https://shop.example' })
// @ts-expect-error a Node tool call needs the host's ctx
void sites.shop.search({ query: 'x' })
// @ts-expect-error the ctx lacks a member of the host
void runTool('shop', 'search', { query: 'x' }, { fetch })
`

// The JSDoc forms, for JavaScript tools under // @ts-check.
const JS_TOOLS = `// @ts-check
/** @type {import('unplugin-site-skills/tool').BrowserTool<'shop', 'read_page'>} */
export default async function readPage(args) {
  // @ts-expect-error wrong argument name
  void args.fulll
  return { title: document.title, links: args.full ? [] : undefined }
}

/**
 * @param {import('unplugin-site-skills/tool').SiteSkillsHost} ctx
 * @param {import('unplugin-site-skills/tool').SiteToolArgs<'shop', 'search'>} args
 * @returns {Promise<import('unplugin-site-skills/tool').SiteToolResult<'shop', 'search'>>}
 */
export async function search(ctx, args) {
  void ctx
  // @ts-expect-error wrong return shape: price is a number
  return [{ id: args.query, price: 'free' }]
}
`

function typeErrors(dir: string, files: string[]): { line: number; file: string; text: string }[] {
  const program = ts.createProgram(
    files.map((f) => join(dir, f)),
    {
      strict: true,
      noEmit: true,
      allowJs: true,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      types: [],
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    },
  )
  return ts.getPreEmitDiagnostics(program).map((d) => ({
    file: d.file ? d.file.fileName.slice(dir.length + 1) : '',
    line: d.file ? d.file.getLineAndCharacterOfPosition(d.start!).line + 1 : 0,
    text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  }))
}

/** The line after each `@ts-expect-error`: where its error must be. */
function expectedLines(source: string): number[] {
  return source.split('\n').flatMap((line, i) => (line.includes('@ts-expect-error') ? [i + 2] : []))
}

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('authoring-')
  await writeTree(join(tmp.dir, 'learnings'), SHOP)
  const run = await runBin(['types', '--root', 'learnings'], { cwd: tmp.dir })
  expect(run.code).toBe(0)
  await writeFile(join(tmp.dir, 'tools.ts'), TOOLS)
  await writeFile(join(tmp.dir, 'tools.js'), JS_TOOLS)
})
afterAll(async () => {
  closeSiteSkills()
  await tmp.cleanup()
})

describe('typed tool authoring', () => {
  it('checks tool signatures against the manifest: every marked mistake is an error, the rest passes', () => {
    // An unused @ts-expect-error is itself an error, so each one is needed.
    expect(typeErrors(tmp.dir, ['site-skills.d.ts', 'tools.ts', 'tools.js'])).toEqual([])
  })

  it('each mistake is reported at its own line', async () => {
    await writeFile(join(tmp.dir, 'bare.ts'), TOOLS.replaceAll('// @ts-expect-error', '//'))
    await writeFile(join(tmp.dir, 'bare.js'), JS_TOOLS.replaceAll('// @ts-expect-error', '//'))
    const errors = typeErrors(tmp.dir, ['site-skills.d.ts', 'bare.ts', 'bare.js'])
    const lines = (file: string) => [...new Set(errors.filter((e) => e.file === file).map((e) => e.line))]
    expect(lines('bare.ts')).toEqual(expectedLines(TOOLS))
    expect(lines('bare.js')).toEqual(expectedLines(JS_TOOLS))
    const messages = errors.map((e) => e.text).join('\n')
    expect(messages).toContain("Property 'qurey' does not exist")
    expect(messages).toContain("Did you mean 'query'?")
    expect(messages).toContain("'args.limit' is possibly 'undefined'")
    expect(messages).toContain("Property 'page' does not exist on type 'SiteSkillsHost'")
    expect(messages).toContain(`Argument of type '"read_page"' is not assignable to parameter of type '"search"'`)
    expect(messages).toContain("Property 'baseUrl' is missing")
  })

  it('a browser tool written with defineBrowserTool compiles to one self-contained function', async () => {
    const source = await loadBrowserToolSource('shop', 'read_helped', { root: join(tmp.dir, 'learnings') })
    expect(source).not.toMatch(/\bimport\b|require\(/)
    const tool = new Function(`return (${source})`)() as (args: object) => Promise<unknown>
    expect(await tool({ full: false })).toEqual({ title: 'short' })
  })
})

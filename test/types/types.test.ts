import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONSUMER_OPTIONS } from '../helpers/editor'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'
import { tscOf } from '../helpers/typescript'
import { runNode, runBin } from '../helpers/spawn'

const APP = join(REPO_ROOT, 'test/fixtures/app')

const USAGE = `import { runTool, runBrowserTool, sites, browserToolSource, skills } from 'virtual:site-skills'
import type { ResultPage } from 'unplugin-site-skills/runtime'
const found: Promise<unknown[]> = runTool('ext', 'search', { query: 'x', category: 'books', tags: ['a'], range: { min: 1 } })
// @ts-expect-error unknown site id
runTool('nope', 'search', { query: 'x' })
// @ts-expect-error unknown tool name
runTool('ext', 'nope', {})
// @ts-expect-error wrong argument type
runTool('ext', 'search', { query: 1 })
// @ts-expect-error value outside the enum
runTool('ext', 'search', { query: 'x', category: 'films' })
// @ts-expect-error undeclared argument
runTool('ext', 'search', { query: 'x', extra: 1 })
// @ts-expect-error a required argument is missing
sites.ext.search({})
// @ts-expect-error nested property type
runTool('ext', 'search', { query: 'x', range: { min: 'low' } })
// @ts-expect-error a Node tool is not a browser tool
runBrowserTool('ext', 'search', { query: 'x' }, 'localhost:9222')
// @ts-expect-error browserToolSource takes browser tools only
browserToolSource('ext', 'typed')
// @ts-expect-error a browser tool needs a CDP target
sites.ext.read({})
// @ts-expect-error a cursor is a string
sites.ext.search({ query: 'x', cursor: 1 })
// A stub given a cursor returns that page of the result; without one (or with undefined), the result.
const next: Promise<ResultPage<unknown[]>> = sites.ext.search({ query: 'x', cursor: 'eyJ' })
const first: Promise<unknown[]> = sites.ext.search({ query: 'x', cursor: undefined })
// @ts-expect-error a page is not the result
const notWhole: Promise<unknown[]> = sites.ext.search({ query: 'x', cursor: 'eyJ' })
// @ts-expect-error the result is not a page
const notPage: Promise<ResultPage<unknown[]>> = sites.ext.search({ query: 'x' })
const page: Promise<Record<string, unknown>> = runBrowserTool('ext', 'read', {}, 'localhost:9222')
const viaStub: Promise<Record<string, unknown>> = sites.ext.read({}, { send: async () => ({}) })
const optional: Promise<unknown[]> = sites.ext.typed()
const product: Promise<unknown[]> = sites.workspace.docs_open({ url: 'https://docs.example.org/d/1' })
const ids: string[] = skills.map((s) => s.id)
void found; void page; void viaStub; void optional; void product; void ids; void next; void first; void notWhole; void notPage
`

/** `tsc --pretty false` errors of bare.ts: place, code, message (with its indented chain). */
function errorsOf(stdout: string): { place: string; code: string; message: string }[] {
  return [...stdout.matchAll(/^bare\.ts(\(\d+,\d+\)): error (TS\d+): (.*(?:\n {2}.*)*)/gm)].map((m) => ({
    place: m[1]!,
    code: m[2]!,
    message: m[3]!,
  }))
}

/** A message with each union of string literals in alphabetical order. */
const sortUnions = (message: string) =>
  message.replace(/'("[^"]*"(?: \| "[^"]*")+)'/g, (_, union: string) => `'${union.split(' | ').sort().join(' | ')}'`)

/** CONSUMER_OPTIONS as a tsconfig says them. */
const TSCONFIG_OPTIONS = {
  strict: true,
  noEmit: true,
  module: 'esnext',
  moduleResolution: 'bundler',
  target: 'es2022',
  types: [],
  lib: ['es2023', 'dom'],
}

const LOOSE = `import { runTool, sites } from 'virtual:site-skills'
const anything: Promise<unknown> = runTool('any-site', 'any_tool', { any: 1 })
const stub = sites['x']?.['y']
void anything; void stub
`

function typeErrors(dir: string, files: string[]): string[] {
  const program = ts.createProgram(
    files.map((f) => join(dir, f)),
    CONSUMER_OPTIONS,
  )
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start!).line + 1}` : ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    )
}

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('types-')
  // As installed in a user's project.
  await mkdir(join(tmp.dir, 'node_modules'))
  await symlink(REPO_ROOT, join(tmp.dir, 'node_modules/unplugin-site-skills'))
})
afterAll(() => tmp.cleanup())

describe('generated types', () => {
  it('`site-skills types` writes a d.ts that makes every misuse a tsc error', async () => {
    const run = await runBin(['types', '--root', join(APP, 'learnings'), '--out', join(tmp.dir, 'site-skills.d.ts')], {
      cwd: tmp.dir,
    })
    expect(run.code).toBe(0)
    await writeFile(join(tmp.dir, 'use.ts'), USAGE)
    // Every @ts-expect-error above must be needed: an unused one is itself an error.
    expect(typeErrors(tmp.dir, ['site-skills.d.ts', 'use.ts'])).toEqual([])
  })

  it('the expected errors are real: without the directives tsc reports each of them', async () => {
    await writeFile(join(tmp.dir, 'bare.ts'), USAGE.replaceAll('// @ts-expect-error', '//'))
    const errors = typeErrors(tmp.dir, ['site-skills.d.ts', 'bare.ts'])
    expect(errors.length).toBe((USAGE.match(/@ts-expect-error/g) ?? []).length)
  })

  it('TypeScript 7 reports the errors of 6 at the same places: wrong site, tool, argument, enum value, kind', async () => {
    // bare.ts (the uses without their directives) as the previous test wrote it, checked by each major's tsc.
    const config = { compilerOptions: TSCONFIG_OPTIONS, files: ['site-skills.d.ts', 'bare.ts'] }
    await writeFile(join(tmp.dir, 'tsconfig.json'), JSON.stringify(config))
    const tsc = (major: 6 | 7) =>
      runNode([tscOf(major), '-p', tmp.dir, '--pretty', 'false'], { cwd: tmp.dir, limitMs: 120_000 })
    const [six, seven] = [errorsOf((await tsc(6)).stdout), errorsOf((await tsc(7)).stdout)]
    expect(six).toHaveLength((USAGE.match(/@ts-expect-error/g) ?? []).length)
    expect(six.map((e) => e.code)).toEqual([
      'TS2345', // unknown site id
      'TS2345', // unknown tool name
      'TS2322', // wrong argument type
      'TS2322', // value outside the enum
      'TS2353', // undeclared argument
      'TS2345', // a required argument is missing
      'TS2322', // nested property type
      'TS2345', // a Node tool is not a browser tool
      'TS2345', // browserToolSource takes browser tools only
      'TS2554', // a browser tool needs a CDP target
      'TS2322', // a cursor is a string
      'TS2322', // a page is not the result
      'TS2322', // the result is not a page
    ])
    expect(seven.map((e) => e.place)).toEqual(six.map((e) => e.place))
    // One difference of TypeScript 7's own: it lists a union's members in another order. (A missing
    // argument is reported alike, TS2345 and then the reason: the stub's parameter type is the
    // tool's arguments with the runtime's `cursor`, an intersection, which 7 reports as 6 does.)
    const missing = six.findIndex((e) => e.message.startsWith("Argument of type '{}'"))
    expect(six[missing]!.message).toContain("Property '\"query\"' is missing in type '{}'")
    const same = (list: typeof six) => list.map((e) => ({ ...e, message: sortUnions(e.message) }))
    expect(same(seven)).toEqual(same(six))
  })

  it('above 200 tools, runTool keeps one generic signature (sites stay documented) and checks as before', async () => {
    const dir = join(tmp.dir, 'many')
    const tool = (i: number) => ({
      description: `Tool ${i}.`,
      path: 'tools/t.js',
      callable: 't',
      args: { q: { type: 'string', required: true, description: 'Words.' } },
      returns: { type: 'string', description: 'Text.' },
    })
    const files: Record<string, unknown> = {}
    for (let k = 0; k < 41; k++) {
      const nodeTools = Object.fromEntries([0, 1, 2, 3, 4].map((i) => [`tool_${i}`, tool(i)]))
      files[`learnings/s${k}/manifest.json`] = {
        id: `s${k}`,
        name: `S ${k}`,
        domains: [`s${k}.example`],
        notes: [],
        nodeTools,
      }
      files[`learnings/s${k}/tools/t.js`] = 'export const t = (ctx, args) => args.q\n'
    }
    await writeTree(dir, files)
    await mkdir(join(dir, 'node_modules'))
    await symlink(REPO_ROOT, join(dir, 'node_modules/unplugin-site-skills'))
    expect(
      (await runBin(['types', '--root', join(dir, 'learnings'), '--out', join(dir, 'site-skills.d.ts')], { cwd: dir }))
        .code,
    ).toBe(0)
    const dts = await readFile(join(dir, 'site-skills.d.ts'), 'utf8')
    expect(dts).toContain('export interface SiteSkillRunTool extends RunToolSignature<R, H> {\n  }')
    expect(dts).not.toContain('ToolOverload<R, H, S, T,')
    expect(dts).toContain(
      '"tool_4"<C extends string | undefined = undefined>(...rest: ToolParams<R["s40"]["tool_4"], H, C>): Promise<ResultOrPage<C, string>>',
    )
    await writeFile(
      join(dir, 'use.ts'),
      [
        "import { runTool, sites } from 'virtual:site-skills'",
        "const a: Promise<string> = runTool('s3', 'tool_2', { q: 'x' })",
        "const b: Promise<string> = sites.s40.tool_4({ q: 'y' })",
        "const c: Promise<{ pageInfo: object; result: string }> = sites.s40.tool_4({ q: 'y', cursor: 'eyJ' })",
        "void runTool('s3', 'tool_9', { q: 'x' })",
        'void a; void b; void c',
        '',
      ].join('\n'),
    )
    const errors = typeErrors(dir, ['site-skills.d.ts', 'use.ts'])
    expect(errors).toEqual([
      `use.ts:5 Argument of type '"tool_9"' is not assignable to parameter of type '"tool_0" | "tool_1" | "tool_2" | "tool_3" | "tool_4"'.`,
    ])
  })

  it('is written only when its content changes', async () => {
    const again = await runBin(
      ['types', '--root', join(APP, 'learnings'), '--out', join(tmp.dir, 'site-skills.d.ts')],
      { cwd: tmp.dir },
    )
    expect(again.stdout).toContain('is up to date')
  })

  it('before the first build, the fallback client types accept loose calls', async () => {
    const dir = join(tmp.dir, 'fresh')
    await mkdir(dir)
    await writeFile(join(dir, 'env.d.ts'), '/// <reference types="unplugin-site-skills/client" />\n')
    await writeFile(join(dir, 'loose.ts'), LOOSE)
    await mkdir(join(dir, 'node_modules'))
    await symlink(REPO_ROOT, join(dir, 'node_modules/unplugin-site-skills'))
    expect(typeErrors(dir, ['env.d.ts', 'loose.ts'])).toEqual([])
  })
})

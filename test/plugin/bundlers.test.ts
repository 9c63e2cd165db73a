import { existsSync } from 'node:fs'
import { readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { join, posix } from 'node:path'
import type { Message } from 'esbuild'
import { type Plugin as RollupPlugin, rollup, watch as rollupWatch } from 'rollup'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  APP,
  APP_ENTRY,
  BROWSER_ENTRY,
  BUNDLERS,
  type BundlerName,
  buildApp,
  readOutput,
  rollupPlugin,
  runMain,
} from '../helpers/bundlers'
import { RULES } from '../helpers/compile'
import { REPO_ROOT, makeTempDir } from '../helpers/tmp'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('bundlers-')
})
afterAll(() => tmp.cleanup())

const caught = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as Record<string, unknown> & Error,
  )

/** Text that only the fixture's Node tools hold (their callables and bodies, kept by unminified builds). */
const NODE_TOOL_CODE = ['fromHelper', 'args.url', '[args.query]']
/** Bodies of compiled browser tools (`read`, `typed_page`). */
const BROWSER_TOOL_CODE = ['document.title', 'document.links.length']
const NOTE_TEXT = 'The search box is'

/** What the app's `main()` returns when every kind of tool made it into the bundle. */
const APP_RESULT = {
  skills: ['ext', 'workspace'],
  match: ['workspace'],
  search: ['q'],
  typed: 1,
  product: 'https://docs.example.org/d/1',
  reexported: 3,
  source: expect.stringMatching(/^async function\(\)\{/),
  notes: ['overview.md'],
  badArgs: expect.stringMatching(/^invalid-args: ext -> search: argument "query" must be a string/),
}

/** Every error of `rules/tool-parse` (see the validator's snapshot), as `file:line:col`. */
const TOOL_PARSE_ERRORS = [
  'bad/browser-tools/badimport.js:1:25',
  'bad/browser-tools/nodefault.js:1:1',
  'bad/browser-tools/notfn.js:1:16',
  'bad/browser-tools/object.js:1:2',
  'bad/browser-tools/syntax.js:2:13',
  'bad/browser-tools/trailing.js:4:1',
  'bad/browser-tools/tssyntax.ts:3:1',
  'bad/tools/search.js:3:1',
].map((at) => `tool-parse/${at}`)
const TOOL_PARSE = join(RULES, 'tool-parse')
/** Two of them with the line of their own frame (the others are checked by the spawned builds' test). */
const TOOL_PARSE_FRAMES = [
  ['tool-parse/bad/browser-tools/badimport.js:1:25', "> 1 | import { nothing } from './missing-helper.js'"],
  ['tool-parse/bad/browser-tools/syntax.js:2:13', '> 2 |   const x = ;'],
] as const

/** An output file and every file it imports statically (`from './x.js'`), by their text. */
function staticText(files: Record<string, string>, name: string, seen = new Set<string>()): string {
  if (seen.has(name) || files[name] === undefined) return ''
  seen.add(name)
  const text = files[name]!
  const imported = [...text.matchAll(/(?:^|[;\s])(?:import|export)[^'"();]*?from\s*['"]\.\/([^'"]+)['"]/g)]
  return [
    text,
    ...imported.map((m) => staticText(files, posix.normalize(posix.join(posix.dirname(name), m[1]!)), seen)),
  ].join('\n')
}

describe.each(BUNDLERS)('%s', (bundler: BundlerName) => {
  let dir: string
  let entry: string
  beforeAll(async () => {
    dir = join(tmp.dir, bundler)
    entry = await buildApp(bundler, { outDir: join(dir, 'node'), options: { dts: join(dir, 'site-skills.d.ts') } })
  })

  it('bundles the app for Node: every kind of tool runs from the output', async () => {
    expect(await runMain(entry)).toEqual(APP_RESULT)
  })

  // Written while the bundler bundles: still there when the build has resolved.
  it('has written the d.ts by the time the build resolved', async () => {
    expect(await readFile(join(dir, 'site-skills.d.ts'), 'utf8')).toContain('docs_open')
  })

  it('keeps notes and tool code out of the main module, and machine paths out of everything', async () => {
    const files = await readOutput(join(dir, 'node'))
    const all = Object.values(files).join('\n')
    // The entry and the chunks it imports statically (Rollup may make the entry a facade of one).
    const main = staticText(files, entry.slice(join(dir, 'node').length + 1))
    expect(main).toContain('notes/overview.md')
    for (const text of [NOTE_TEXT, ...NODE_TOOL_CODE, ...BROWSER_TOOL_CODE]) {
      expect(main).not.toContain(text)
      expect(all).toContain(text)
    }
    expect(all).not.toContain(REPO_ROOT)
  })

  it('writes the same bytes when it builds the same input again', async () => {
    await buildApp(bundler, { outDir: join(dir, 'again'), options: { dts: false } })
    expect(await readOutput(join(dir, 'again'))).toEqual(await readOutput(join(dir, 'node')))
  })

  it('fails the build on an invalid root, naming every error as file:line:col with its own frame', async () => {
    const error = await caught(
      buildApp(bundler, { outDir: join(dir, 'invalid'), options: { roots: [TOOL_PARSE], dts: false } }),
    )
    expect(error).toBeInstanceOf(Error)
    const reports = reportsOf(error!)
    // esbuild shows each diagnostic as a message of its own; the others one report.
    if (bundler !== 'esbuild') expect(error!.message).toContain('[site-skills] 8 errors in 1 skill')
    for (const at of TOOL_PARSE_ERRORS) expect(reports.join('\n')).toContain(at)
    for (const [at, frame] of TOOL_PARSE_FRAMES) {
      expect(
        reports.some((report) => sectionOf(report, at).includes(frame)),
        at,
      ).toBe(true)
    }
    expect(existsSync(join(dir, 'invalid', 'entry.js'))).toBe(false)
  })
})

/** A failed build's text: from esbuild a message per diagnostic (with its frame's line), from others one report. */
function reportsOf(error: Error & Record<string, unknown>): string[] {
  const messages = error.errors as Partial<Message>[] | undefined
  if (!messages?.[0]?.location) return [error.message]
  return messages.map(
    ({ text, location: at }) => `${at!.file}:${at!.line}:${at!.column + 1}  ${text}\n> ${at!.line} | ${at!.lineText}`,
  )
}

/** A report's part about the diagnostic at `at`: up to the next blank line. */
function sectionOf(report: string, at: string): string {
  const start = report.indexOf(`${at} `)
  if (start < 0) return ''
  const end = report.indexOf('\n\n', start)
  return report.slice(start, end < 0 ? undefined : end)
}

describe('the error of a failed build points at the first problem, with a 1-based column as its diagnostic', () => {
  const FIRST = join(TOOL_PARSE, 'bad/browser-tools/badimport.js')

  /** Rollup throws the plugin's error; Vite and Rolldown wrap it as `errors[0]`. */
  it.each(['vite', 'rollup', 'rolldown'] as const)('%s', async (bundler) => {
    const error = await caught(
      buildApp(bundler, { outDir: join(tmp.dir, `loc-${bundler}`), options: { roots: TOOL_PARSE, dts: false } }),
    )
    const located = (error?.loc ? error : (error?.errors as Record<string, unknown>[] | undefined)?.[0]) ?? {}
    const loc = { file: FIRST, line: 1, column: 25 }
    expect(located).toMatchObject({ id: FIRST, loc, plugin: 'unplugin-site-skills', stack: '' })
    // Every frame is in the message, each after its diagnostic; a `frame` would be printed once, after all of them.
    expect(located.frame).toBeUndefined()
  })
})

describe('browser builds leave Node tools out', () => {
  const BROWSER_RESULT = {
    skills: ['ext', 'workspace'],
    read: expect.stringMatching(/^async function\(\)\{[\s\S]*document\.title/),
    typed: expect.stringMatching(/^async function\(\)\{[\s\S]*document\.links\.length/),
    nodeTool: 'unavailable',
  }

  it.each([
    ['vite (client environment)', 'vite', {}],
    ['esbuild (platform: browser)', 'esbuild', {}],
    ['webpack (target: web)', 'webpack', {}],
    ['rollup (nodeTools: false)', 'rollup', { nodeTools: false }],
  ] as const)('%s', async (_, bundler, options) => {
    const outDir = join(tmp.dir, `browser-${bundler}`)
    const entry = await buildApp(bundler, {
      outDir,
      entry: BROWSER_ENTRY,
      browser: true,
      options: { ...options, dts: false },
    })
    const all = Object.values(await readOutput(outDir)).join('\n')
    for (const code of NODE_TOOL_CODE) expect(all).not.toContain(code)
    for (const code of BROWSER_TOOL_CODE) expect(all).toContain(code)
    expect(await runMain(entry)).toEqual(BROWSER_RESULT)
  })
})

describe("the bundler's watch list", () => {
  /** The files Rollup watches beyond the modules it bundled (Node tools are modules), seen at the end of the build. */
  const watchProbe = (seen: string[][]): RollupPlugin => ({
    name: 'watch-probe',
    buildEnd() {
      const modules = new Set(this.getModuleIds())
      seen.push(this.getWatchFiles().filter((f) => !modules.has(f)))
    },
  })
  const manifest = join(APP, 'learnings/workspace/manifest.json')

  it('gets every file of the skills in watch mode, and none in a one-off build', async () => {
    const seen: string[][] = []
    const plugins = () => [rollupPlugin({ roots: join(APP, 'learnings'), dts: false }), watchProbe(seen)]
    await (await rollup({ input: APP_ENTRY, plugins: plugins() })).close()
    expect(seen[0]).toEqual([])

    const watcher = rollupWatch({ input: APP_ENTRY, plugins: plugins(), output: { dir: join(tmp.dir, 'watch-list') } })
    try {
      await new Promise<void>((resolve, reject) =>
        watcher.on('event', (event) => {
          if (event.code === 'ERROR') reject(event.error)
          if (event.code === 'BUNDLE_END') void event.result.close().then(resolve, reject)
        }),
      )
    } finally {
      await watcher.close()
    }
    expect(seen[1]).toContain(manifest)
    expect(seen[1]).toContain(join(APP, 'learnings/workspace'))
  })
})

describe('the d.ts file', () => {
  it('is written, left alone while unchanged, and recreated when deleted', async () => {
    const dts = join(tmp.dir, 'types/site-skills.d.ts')
    // One plugin instance, as in watch mode, where a cache could skip the write.
    const plugin = rollupPlugin({ roots: join(APP, 'learnings'), dts })
    const build = async () => (await rollup({ input: APP_ENTRY, plugins: [plugin] })).close()

    await build()
    const written = await readFile(dts, 'utf8')
    expect(written).toMatch(/^\/\/ Generated by unplugin-site-skills/)
    expect(written).toContain('docs_open')
    const past = new Date('2020-01-01T00:00:00Z')
    await utimes(dts, past, past)

    await build()
    expect((await stat(dts)).mtimeMs).toBe(past.getTime())

    await rm(dts)
    await build()
    expect(await readFile(dts, 'utf8')).toBe(written)
  })

  it('fails the build when it cannot be written', async () => {
    const blocker = join(tmp.dir, 'not-a-folder')
    await writeFile(blocker, 'a file where the d.ts folder should be')
    const plugin = rollupPlugin({ roots: join(APP, 'learnings'), dts: join(blocker, 'site-skills.d.ts') })
    await expect(rollup({ input: APP_ENTRY, plugins: [plugin] })).rejects.toThrow(/ENOTDIR|EEXIST/)
  })
})

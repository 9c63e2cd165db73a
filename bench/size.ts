import { stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { type Metafile, build } from 'esbuild'
import { generateMainModule, generateSkillChunk } from '../src/codegen/module'
import { type CompiledSkill, createCompiler } from '../src/compiler/compile'
import { notesOf } from '../src/compiler/notes'
import { BUILD_SKILLS } from './build'
import { NOTE_MARKER, TOOL_MARKER, generateSkills } from './generate'
import { summarize } from './stats'
import { type Figure, formatValue } from './table'

const REPO = join(import.meta.dirname, '..')
const RUNTIME_BUDGET = 8 * 1024
/** Packages the runtime must never pull in: they belong to the build-time half. */
const COMPILER_DEPS_RE =
  /node_modules\/(?:esbuild|ajv|unplugin|acorn|jsonc-parser|tldts|vite|rollup|rolldown|webpack)\//

const one = (value: number) => summarize([value])
const bytes = (text: string) => Buffer.byteLength(text)
const sizeOf = (path: string) =>
  stat(path).then(
    (s) => s.size,
    () => 0,
  )

/** Compiled vs source bytes of every browser tool; the sources are the files its source map lists. */
async function toolBytes(
  root: string,
  skills: readonly CompiledSkill[],
): Promise<{ tools: number; minified: number; source: number }> {
  let minified = 0
  let source = 0
  let tools = 0
  for (const { model, browser } of skills) {
    for (const tool of model.tools) {
      const code = browser[tool.name]
      if (!code) continue
      tools++
      minified += bytes(code.source)
      const files = code.map ? code.map.sources.map((f) => join(root, f)) : [tool.absPath]
      for (const file of files) source += await sizeOf(file)
    }
  }
  return { tools, minified, source }
}

async function toolFigure(label: string, root: string, skills: readonly CompiledSkill[]): Promise<Figure> {
  const t = await toolBytes(root, skills)
  return {
    bench: 'size',
    name: `browser tools, ${label}: minified vs source`,
    subject: { label: 'minified', unit: 'bytes', value: one(t.minified) },
    baseline: { label: 'source', unit: 'bytes', value: one(t.source) },
    ratio: one(t.minified / t.source),
    ratioText: 'the source',
    notes: [
      `${t.tools} tools; minified = the function source sent to the page (source maps kept apart); source = the tool files and the local files they import`,
    ],
  }
}

async function mainModuleFigure(skills: readonly CompiledSkill[]): Promise<Figure> {
  const main = generateMainModule(skills)
  const manifests = (await Promise.all(skills.map((s) => sizeOf(join(s.model.dir, 'manifest.json'))))).reduce(
    (a, b) => a + b,
    0,
  )
  const clean = !main.includes(NOTE_MARKER) && !main.includes(TOOL_MARKER)
  const sample = skills.slice(0, 50)
  const chunks = sample.map((s) => bytes(generateSkillChunk(s, { nodeTools: true, notes: notesOf(s.model) })))
  const n = skills.length.toLocaleString('en-US')
  return {
    bench: 'size',
    name: `main virtual module, ${n} skills vs their manifests`,
    subject: { label: 'module', unit: 'bytes', value: one(bytes(main)) },
    baseline: { label: 'manifests', unit: 'bytes', value: one(manifests) },
    ratio: one(bytes(main) / manifests),
    ratioText: 'the manifests',
    goal: { text: 'holds no notes and no tool code', met: clean },
    notes: [
      `${formatValue(bytes(main) / skills.length, 'bytes')} per skill, ${formatValue(gzipSync(main).length, 'bytes')} gzipped; ` +
        `a per-skill chunk (notes, compiled tools with source maps) averages ${formatValue(summarize(chunks).median, 'bytes')}`,
    ],
  }
}

/** Output files of a split build that importing `entry` loads: it and its static imports, transitively. */
function firstLoad(outputs: Metafile['outputs'], entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen
  seen.add(entry)
  for (const i of outputs[entry]!.imports)
    if (i.kind === 'import-statement' && !i.external) firstLoad(outputs, i.path, seen)
  return seen
}

/**
 * The runtime as an agent's bundler ships it: esbuild with code splitting, so the parts it imports
 * with `import()` (the browser tool call, the error catalog, the failure decoder, connecting by
 * address, the Node tool runner, the argument and result checks, the learned context and model tool
 * calls, paging, the page URL checks, WebMCP) are chunks of their own, loaded when first needed. The figure is what importing the
 * runtime loads: the entry and every chunk it imports statically, each gzipped on its own.
 */
async function runtimeFigure(): Promise<Figure> {
  const out = await build({
    entryPoints: [join(REPO, 'runtime/index.ts')],
    bundle: true,
    minify: true,
    splitting: true,
    absWorkingDir: REPO,
    outdir: join(REPO, 'node_modules/.cache/bench-runtime'),
    format: 'esm',
    platform: 'neutral',
    write: false,
    metafile: true,
    // The polyfill is its own lazy chunk, loaded only where URLPattern is missing and a skill has urls.
    external: ['chrome-remote-interface', 'urlpattern-polyfill/*'],
    logLevel: 'silent',
  })
  const outputs = out.metafile.outputs
  const code = new Map(out.outputFiles.map((f) => [relative(REPO, f.path), f.contents]))
  // The runtime's own output: the chunks of `import()` targets name an entry point too.
  const entry = Object.keys(outputs).find((k) => outputs[k]!.entryPoint === 'runtime/index.ts')!
  const loaded = firstLoad(outputs, entry)
  const gz = (file: string) => gzipSync(code.get(file)!, { level: 9 }).length
  const sum = (files: string[], size: (f: string) => number) => files.reduce((n, f) => n + size(f), 0)
  const first = [...loaded]
  const lazy = Object.keys(outputs).filter((f) => !loaded.has(f))
  const gzip = sum(first, gz)
  const together = gzipSync(Buffer.concat(first.map((f) => code.get(f)!)), { level: 9 }).length
  const minified = sum(first, (f) => code.get(f)!.length)
  const polyfill = await build({
    entryPoints: [join(REPO, 'node_modules/urlpattern-polyfill/dist/urlpattern.js')],
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
  })
  const polyfillGzip = gzipSync(polyfill.outputFiles[0]!.contents, { level: 9 }).length
  const inputs = Object.keys(out.metafile.inputs)
  const parts = first.flatMap((f) => Object.entries(outputs[f]!.inputs))
  const biggest = parts
    .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
    .slice(0, 5)
    .map(([file, info]) => `${file.replace(/^.*runtime\//, '')} ${info.bytesInOutput.toLocaleString('en-US')} B`)
  const lazyParts = lazy.map((f) => {
    const names = Object.keys(outputs[f]!.inputs).map((i) => i.replace(/^.*runtime\//, ''))
    return `${names.join(' + ')} ${gz(f).toLocaleString('en-US')} B`
  })
  const leaked = inputs.filter((f) => COMPILER_DEPS_RE.test(f))
  return {
    bench: 'size',
    name: 'runtime (runtime/index.ts) as imported, min+gzip vs 8 KiB budget',
    subject: { label: 'min+gz', unit: 'bytes', value: one(gzip) },
    baseline: { label: 'budget', unit: 'bytes', value: one(RUNTIME_BUDGET) },
    ratio: one(gzip / RUNTIME_BUDGET),
    ratioText: 'the budget',
    goal: {
      text: 'under 8 KiB min+gzip, without chrome-remote-interface',
      met: gzip < RUNTIME_BUDGET && leaked.length === 0,
    },
    notes: [
      `${first.length} files, ${minified.toLocaleString('en-US')} B minified (esbuild, splitting, platform neutral, chrome-remote-interface external), each gzipped at level 9; ${together.toLocaleString('en-US')} B gzipped as one file`,
      `largest parts: ${biggest.join(', ')}; compiler packages bundled: ${leaked.length ? leaked.join(', ') : 'none'}`,
      `loaded when first needed (gzipped): ${lazyParts.join('; ')}`,
      `not counted: urlpattern-polyfill, ${polyfillGzip.toLocaleString('en-US')} B min+gzip, a chunk of its own imported only where a skill has urls and the platform has no URLPattern (Node < 23.8)`,
    ],
  }
}

/** Figure 5: sizes of compiled browser tools, of the main virtual module, and of the runtime. */
export async function runSizeBench(): Promise<Figure[]> {
  const root = await generateSkills(BUILD_SKILLS)
  const generated = await createCompiler({ roots: [root] }).compile()
  const learnings = join(REPO, 'learnings')
  const real = await createCompiler({ roots: [learnings] }).compile()
  return [
    await toolFigure(`${BUILD_SKILLS.toLocaleString('en-US')} generated skills`, root, generated.skills),
    await toolFigure('learnings/ (real skills)', learnings, real.skills),
    await mainModuleFigure(generated.skills),
    await runtimeFigure(),
  ]
}

import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { type Metafile, type OutputFile, build } from 'esbuild'
import { beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/tmp'

/** Runtime modules that importing the runtime must not load: each is an `import()` of its own. */
const LAZY = [
  'browser.ts',
  'page-code.ts',
  'error-catalog.ts',
  'browser-errors.ts',
  'sourcemap.ts',
  'connect.ts',
  'socket.ts',
  'upgrade.ts',
  'node.ts',
  'value-problems.ts',
  'results.ts',
  'for-models.ts',
  'page-url.ts',
  'pages.ts',
  'compact.ts',
  'cursor.ts',
  'webmcp.ts',
  'webmcp-page.generated.ts',
]

let outputs: Metafile['outputs']
let files: OutputFile[]
/** Issue 39: the runtime as imported stays within 8 KiB min+gzip (bench/size.ts measures it too). */
const FIRST_LOAD_MAX_GZIP = 8 * 1024

/** Output files that importing `entry` loads: it and its static imports, transitively. */
function firstLoad(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen
  seen.add(entry)
  for (const i of outputs[entry]!.imports) if (i.kind === 'import-statement' && !i.external) firstLoad(i.path, seen)
  return seen
}

const runtimeFile = (input: string) => input.replace(/^runtime\//, '')

beforeAll(async () => {
  // As bench/size.ts builds it: an agent's bundler splitting the runtime's `import()`s into chunks.
  const out = await build({
    entryPoints: [join(REPO_ROOT, 'runtime/index.ts')],
    bundle: true,
    minify: true,
    splitting: true,
    absWorkingDir: REPO_ROOT,
    outdir: join(REPO_ROOT, 'node_modules/.cache/first-load-test'),
    format: 'esm',
    platform: 'neutral',
    write: false,
    metafile: true,
    external: ['chrome-remote-interface', 'urlpattern-polyfill/*'],
    logLevel: 'silent',
  })
  outputs = out.metafile.outputs
  files = out.outputFiles
})

describe("the runtime's first load (esbuild with code splitting)", () => {
  it('holds the registry and the errors, and none of the parts each loaded with its first use', () => {
    const entry = Object.keys(outputs).find((k) => outputs[k]!.entryPoint === 'runtime/index.ts')!
    const loaded = [...firstLoad(entry)]
    const inputs = loaded.flatMap((f) => Object.keys(outputs[f]!.inputs).map(runtimeFile))
    expect(inputs).toContain('registry.ts')
    expect(inputs).toContain('errors.ts')
    for (const lazy of LAZY) expect(inputs, lazy).not.toContain(lazy)
  })

  it('is within 8 KiB min+gzip, each file it loads counted (the size the chunking files used to keep)', () => {
    const entry = Object.keys(outputs).find((k) => outputs[k]!.entryPoint === 'runtime/index.ts')!
    const loaded = firstLoad(entry)
    const mine = files.filter((f) => loaded.has(relative(REPO_ROOT, f.path).split('\\').join('/')))
    expect(mine).toHaveLength(loaded.size)
    const bytes = mine.reduce((sum, f) => sum + gzipSync(f.contents).length, 0)
    expect(bytes).toBeGreaterThan(1024)
    expect(bytes).toBeLessThanOrEqual(FIRST_LOAD_MAX_GZIP)
  })

  it('sees the lazy parts as chunks of their own (the check cannot pass by building nothing)', () => {
    const all = Object.values(outputs).flatMap((o) => Object.keys(o.inputs).map(runtimeFile))
    for (const lazy of LAZY) expect(all, lazy).toContain(lazy)
  })
})

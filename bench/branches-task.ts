/**
 * One measurement of bench/branches.ts, in a fresh process (`node --import tsx`), so that what a
 * module decides when it loads (the platform, whether a worker thread can be had) is decided anew:
 * `node --import tsx bench/branches-task.ts <variant> <root>` prints `{ "ms": ... }`.
 *
 * - `compile`: a cold in-process compile of the root, as on Linux (the `lstat` fast path, the
 *   syntax worker);
 * - `compile-portable-paths`: the same with `process.platform` set to `darwin` before the compiler
 *   loads: every path of a skill through `realpath`, as on macOS and Windows;
 * - `compile-no-worker`: the same with no worker thread to be had: every syntax check here;
 * - `expressions-batched` / `expressions-alone`: the root's bare browser tools compiled by
 *   `compileExpressions` 100 to a transform (as the bundler sends them) or each in its own.
 */
import { readFile, readdir } from 'node:fs/promises'
import { createRequire, syncBuiltinESMExports } from 'node:module'
import { join } from 'node:path'

const [variant = 'compile', root = ''] = process.argv.slice(2)

async function compile(): Promise<number> {
  // Only while the compiler loads (src/compiler/fs/paths.ts reads it then): esbuild reads it later
  // to find its binary.
  const platform = Object.getOwnPropertyDescriptor(process, 'platform')!
  if (variant === 'compile-portable-paths') Object.defineProperty(process, 'platform', { ...platform, value: 'darwin' })
  if (variant === 'compile-no-worker') {
    const threads = createRequire(import.meta.url)('node:worker_threads') as { Worker: unknown }
    threads.Worker = class {
      constructor() {
        throw new Error('no threads here')
      }
    }
    syncBuiltinESMExports()
  }
  const { createCompiler } = await import('../src/compiler/compile')
  Object.defineProperty(process, 'platform', platform)
  const { plainPathInside } = await import('../src/compiler/fs/paths')
  const fast = plainPathInside(root, 'a/b') !== undefined
  if (fast === (variant === 'compile-portable-paths'))
    throw new Error(`${variant}: the fast path is ${fast ? 'on' : 'off'}`)
  const start = performance.now()
  const result = await createCompiler({ roots: [root] }).compile()
  const ms = performance.now() - start
  if (result.skills.length === 0) throw new Error(`no skill compiled in ${root}`)
  return ms
}

async function expressions(): Promise<number> {
  const { compileExpressions } = await import('../src/compiler/bundle/expressions')
  const inputs: { text: string; file: string }[] = []
  for (const id of await readdir(root)) {
    const dir = join(root, id, 'browser-tools')
    const files = await readdir(dir).catch(() => [])
    for (const f of files.filter((name) => name.endsWith('.js')))
      inputs.push({ text: (await readFile(join(dir, f), 'utf8')).trim(), file: `${id}/browser-tools/${f}` })
  }
  const options = { minify: true, sourcemap: true, typescript: false }
  const size = variant === 'expressions-batched' ? 100 : 1
  const groups = Array.from({ length: Math.ceil(inputs.length / size) }, (_, i) =>
    inputs.slice(i * size, (i + 1) * size),
  )
  const start = performance.now()
  // As the bundler does: a few transforms in flight at a time.
  const inFlight = 8
  for (let i = 0; i < groups.length; i += inFlight)
    await Promise.all(groups.slice(i, i + inFlight).map((group) => compileExpressions(group, options)))
  const ms = performance.now() - start
  if (inputs.length === 0) throw new Error(`no bare browser tool in ${root}`)
  return ms
}

const ms = variant.startsWith('expressions') ? await expressions() : await compile()
console.log(JSON.stringify({ ms }))

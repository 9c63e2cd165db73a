import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Plugin } from 'vite'
import { type HookTimes, timeHooks } from './hooks'
import { cpuMs } from './proc'
import { captureModules, servedAliases } from './served'

export interface SmallBuildArgs {
  /** With the plugin over `learnings`, or Vite alone on the modules written to `dir`. */
  mode: 'plugin' | 'alone'
  playground: string
  learnings: string
  outDir: string
  /** Where the plugin writes its .d.ts (as it does by default, but outside the repository). */
  dts: string
  /** Plugin mode: also write the generated modules there. */
  captureDir?: string
  /** Alone mode: the generated modules. */
  dir?: string
  /** Plugin mode: the persistent cache's folder (none when absent, as `cache: false`). */
  cache?: string
}

export interface SmallBuildResult {
  /** From the start of this process to the end of the build: what `vite build` takes to a user. */
  ms: number
  /** Of which the build() call, and in it the plugin's buildStart (compiling the skills). */
  buildMs: number
  compileMs: number
  /** CPU time of the whole process (and esbuild's service). */
  cpuMs: number
  /** Size of what was written. */
  bytes: number
}

async function sizeOf(dir: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size
  return total
}

/**
 * The playground agent built the way `npm start` builds it (`vite build --ssr agent.ts`), in a
 * fresh process that loads only what its mode needs: Vite, and the plugin in plugin mode.
 */
export async function smallBuildTask(args: SmallBuildArgs): Promise<SmallBuildResult> {
  const { build } = await import('vite')
  const plugins: Plugin[] = []
  let times: HookTimes | undefined
  if (args.mode === 'plugin') {
    const timed = timeHooks(
      (await import('../src/vite')).default({
        roots: args.learnings,
        dts: args.dts,
        cache: args.cache ?? false,
      }) as Plugin,
    )
    if (args.captureDir) captureModules(timed.plugin, args.captureDir)
    plugins.push(timed.plugin)
    times = timed.times
  }
  const start = performance.now()
  await build({
    root: args.playground,
    configFile: false,
    logLevel: 'silent',
    plugins,
    ...(args.mode === 'alone' ? { resolve: { alias: servedAliases(args.dir ?? '') } } : {}),
    build: { ssr: 'agent.ts', outDir: args.outDir, emptyOutDir: true },
  })
  const end = performance.now()
  return {
    ms: end,
    buildMs: end - start,
    compileMs: times?.buildStart ?? 0,
    cpuMs: await cpuMs(),
    bytes: await sizeOf(args.outDir),
  }
}

import { mkdirSync, writeFileSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Alias, Plugin } from 'vite'
import { RESOLVED_ID, RUNTIME_ID_RE, VIRTUAL_ID } from '../src/ids'
import { resolveRuntimeEntry } from '../src/plugin/runtime-entry'
import { viteConfig, writeApp } from './app'
import { onLoaded } from './hooks'

/**
 * The file a generated module is written to: `m.js` for `virtual:site-skills`, `m/skill/x.js` for
 * `virtual:site-skills/skill/x` (the alias below maps the ids the same way).
 */
const fileOf = (dir: string, suffix: string) => join(dir, `m${suffix}.js`)

/**
 * Writes every module the plugin's load hook returns to `dir`, as it is returned (synchronously,
 * so no copy is held). The build that follows can then run without the plugin, on the same code.
 */
export function captureModules(plugin: Plugin, dir: string): { modules: number; bytes: number } {
  const written = { modules: 0, bytes: 0 }
  onLoaded(plugin, (id, code) => {
    if (!id.startsWith(RESOLVED_ID)) return
    const file = fileOf(dir, id.slice(RESOLVED_ID.length))
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, code)
    written.modules++
    written.bytes += Buffer.byteLength(code)
  })
  return written
}

/**
 * Vite's own aliases in place of the plugin: the generated modules' ids point at the files
 * `captureModules` wrote, and the runtime at the file the plugin resolves it to.
 */
export function servedAliases(dir: string): Alias[] {
  const prefix = VIRTUAL_ID.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  return [
    { find: new RegExp(`^${prefix}(.*)$`), replacement: `${fileOf(dir, '$1')}` },
    { find: RUNTIME_ID_RE, replacement: resolveRuntimeEntry() },
  ]
}

/**
 * Vite alone building the same app on the modules a plugin build generated (written by
 * `captureModules`), with aliases instead of the plugin: what any build of that code needs.
 */
export async function viteAloneTask(args: {
  app: string
  outDir: string
  dir: string
}): Promise<{ ms: number; outputFiles: number }> {
  const { build } = await import('vite')
  await writeApp(args.app)
  const config = viteConfig(args.app, args.outDir)
  const start = performance.now()
  await build({ ...config, resolve: { alias: servedAliases(args.dir) } })
  return { ms: performance.now() - start, outputFiles: (await readdir(args.outDir)).length }
}

import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { InlineConfig, Plugin } from 'vite'

/** The app that is built: one module that re-exports the generated API. */
export async function writeApp(app: string): Promise<string> {
  await mkdir(app, { recursive: true })
  const entry = join(app, 'entry.js')
  await writeFile(entry, "import api from 'virtual:site-skills'\nexport default api\n")
  return entry
}

/** A client (library-mode) build of the app: Vite's defaults otherwise, output written to disk. */
export function viteConfig(app: string, outDir: string, plugin?: Plugin, watch = false): InlineConfig {
  return {
    root: app,
    configFile: false,
    logLevel: 'silent',
    plugins: plugin ? [plugin] : [],
    build: {
      outDir,
      emptyOutDir: true,
      lib: { entry: 'entry.js', formats: ['es'], fileName: 'entry' },
      ...(watch ? { watch: {} } : {}),
    },
  }
}

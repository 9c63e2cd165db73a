import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { LOG_PREFIX } from '../ids'

/**
 * The runtime file that generated code imports: the one shipped next to this plugin (dist), or
 * the source when running from a checkout, so compiler and runtime always match. Looked up at each
 * resolve of the runtime's id (a stat or two, once per build and module graph): nothing is kept.
 */
export function resolveRuntimeEntry(): string {
  const candidates = ['./runtime.js', '../../runtime/index.ts']
  for (const candidate of candidates) {
    const path = fileURLToPath(new URL(candidate, import.meta.url))
    if (existsSync(path)) return path
  }
  throw new Error(`${LOG_PREFIX} cannot find the runtime next to the plugin; reinstall unplugin-site-skills`)
}

import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { LOG_PREFIX } from '../ids'

let found: string | undefined

/**
 * The runtime file that generated code imports: the one shipped next to this plugin (dist), or
 * the source when running from a checkout, so compiler and runtime always match. Looked up once.
 */
export function resolveRuntimeEntry(): string {
  found ??= findRuntimeEntry()
  return found
}

function findRuntimeEntry(): string {
  const candidates = ['./runtime.js', '../../runtime/index.ts']
  for (const candidate of candidates) {
    const path = fileURLToPath(new URL(candidate, import.meta.url))
    if (existsSync(path)) return path
  }
  throw new Error(`${LOG_PREFIX} cannot find the runtime next to the plugin; reinstall unplugin-site-skills`)
}

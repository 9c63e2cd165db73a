import type { UnpluginOptions } from 'unplugin'
import { TS_FILE_RE } from '../compiler/fs/paths'
import type { PluginContexts } from './plugin-contexts'

/** Compiles TypeScript skill files for bundlers that cannot (Rollup, webpack); others leave this out. */
export function typeScriptTransform(contexts: PluginContexts): UnpluginOptions['transform'] {
  return {
    filter: { id: TS_FILE_RE },
    handler: (code, id) => (contexts.current.isWatched(id) ? compileTypeScript(code, id) : undefined),
  }
}

async function compileTypeScript(code: string, id: string) {
  // Loaded with the first TypeScript file: the plugin's import does not load esbuild.
  const { transform } = await import('esbuild')
  const out = await transform(code, { loader: 'ts', format: 'esm', target: 'es2022', sourcemap: true, sourcefile: id })
  return { code: out.code, map: out.map }
}

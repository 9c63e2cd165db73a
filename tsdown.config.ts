import { defineConfig } from 'tsdown'
import type { Plugin } from 'rolldown'

const FACADE = '\0facade:'

/**
 * Each module the runtime imports with `import()` is loaded through a facade of its own
 * (`export * from` it). Without one, a module that host-side code also imports statically sits in a
 * shared chunk whose exports have short names, and rolldown hands it out through its runtime
 * helpers' chunk, which imports `node:module`: a browser build of the runtime could not load that.
 */
const runtimeFacades: Plugin = {
  name: 'runtime-facades',
  async resolveId(source, importer, extra) {
    if (extra.kind !== 'dynamic-import' || !importer?.includes('/runtime/') || !source.startsWith('./')) return null
    const resolved = await this.resolve(source, importer, { skipSelf: true })
    return resolved && `${FACADE}${resolved.id}`
  },
  load(id) {
    return id.startsWith(FACADE) ? `export * from ${JSON.stringify(id.slice(FACADE.length))}` : null
  },
}

const library = defineConfig({
  entry: {
    index: 'src/index.ts',
    vite: 'src/vite.ts',
    rollup: 'src/rollup.ts',
    rolldown: 'src/rolldown.ts',
    esbuild: 'src/esbuild.ts',
    webpack: 'src/webpack.ts',
    cli: 'src/cli/index.ts',
    runtime: 'runtime/index.ts',
    launch: 'runtime/launch.ts',
    tool: 'runtime/tool.ts',
    // The child process of a sandboxed example run (src/mcp/author/sandbox/run-sandboxed.ts starts it by its path).
    sandbox: 'src/mcp/author/sandbox/child.ts',
  },
  format: 'esm',
  fixedExtension: false,
  platform: 'node',
  target: 'node20.19',
  dts: true,
  clean: true,
  sourcemap: false,
  // Bundlers and the browser are the user's: never bundled, in code or in types.
  deps: {
    neverBundle: [
      /^vite/,
      /^rollup/,
      /^rolldown/,
      /^webpack/,
      /^esbuild/,
      /^@sparticuz\//,
      /^chrome-/,
      /^devtools-protocol/,
      /^unplugin/,
    ],
  },
  checks: { pluginTimings: false },
  plugins: [runtimeFacades],
})

// tsserver loads a language service plugin with `require` and wants its factory as `module.exports`.
const editorPlugin = defineConfig({
  entry: { 'ts-plugin': 'src/editor/ts-plugin.ts' },
  format: 'cjs',
  platform: 'node',
  target: 'node20.19',
  dts: false,
  clean: false,
  sourcemap: false,
  outputOptions: { exports: 'default' },
  // CommonJS on purpose: tsserver `require`s plugins (see the comment above).
  checks: { pluginTimings: false, legacyCjs: false },
})

export default [library, editorPlugin]

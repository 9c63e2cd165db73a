import { defineConfig } from 'tsdown'

export default defineConfig({
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
})

/**
 * What `check` compiles with, as a tsconfig's `compilerOptions` (the one form every TypeScript major
 * reads): strict, the page's and Node's globals, no output. `nodeTypes`: the project has `@types/node`.
 */
export function checkCompilerOptions(nodeTypes: boolean): Record<string, unknown> {
  return {
    strict: true,
    noEmit: true,
    allowJs: true,
    // Only JavaScript files that opt in with `// @ts-check` are reported.
    checkJs: false,
    skipLibCheck: true,
    resolveJsonModule: true,
    allowImportingTsExtensions: true,
    // Bare-function browser tools are scripts: as modules, their names cannot clash.
    moduleDetection: 'force',
    module: 'esnext',
    moduleResolution: 'bundler',
    target: 'es2022',
    lib: ['es2023', 'dom', 'dom.iterable'],
    // Named rather than left to the default, which differs by major (every @types package on 5, none on 6 and 7).
    types: nodeTypes ? ['node'] : [],
  }
}

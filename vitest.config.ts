import { defineConfig } from 'vitest/config'

/**
 * Unit tests: the compiler, codegen, runtime and no-build API called in this process, on real files
 * in test/.tmp. None spawns a process, runs a bundler's build, launches Chromium or reads the built
 * dist/, so they need no global setup and have a short time limit. Every other test file is
 * end-to-end: a new file is end-to-end until it is listed here.
 */
const UNIT = [
  'test/cdp/link.test.ts',
  'test/cli/drift.test.ts',
  'test/cli/match-patterns.test.ts',
  'test/cli/peers.test.ts',
  'test/codegen/codegen.test.ts',
  'test/codegen/nullable-dts.test.ts',
  'test/codegen/value-type.test.ts',
  'test/examples/junit-bound.test.ts',
  'test/examples/schedule.test.ts',
  'test/mcp/pages.test.ts',
  'test/mcp/tab-pool.test.ts',
  'test/mcp/tools.test.ts',
  'test/nobuild/api.test.ts',
  'test/nobuild/barrier.test.ts',
  'test/nobuild/changes.test.ts',
  'test/nobuild/lazy-browser.test.ts',
  'test/package/codes.test.ts',
  'test/package/file-guard.test.ts',
  'test/package/manifest-validator.test.ts',
  'test/package/regex-bound.test.ts',
  'test/package/registry-page.test.ts',
  'test/package/server-json.test.ts',
  'test/plugin/dev-server-recheck.test.ts',
  'test/runtime/budgets.test.ts',
  'test/runtime/checks.test.ts',
  'test/runtime/compact.test.ts',
  'test/runtime/match.test.ts',
  'test/runtime/page-code.test.ts',
  'test/runtime/pages.test.ts',
  'test/runtime/registry.test.ts',
  'test/runtime/results.test.ts',
  'test/runtime/socket.test.ts',
  'test/runtime/sourcemap.test.ts',
  'test/runtime/webmcp-where.test.ts',
  'test/runtime/validator-fuzz.test.ts',
  'test/tokens/pieces.test.ts',
  'test/validate/compiler.test.ts',
  'test/validate/examples.test.ts',
  'test/validate/expressions.test.ts',
  'test/validate/hostile.test.ts',
  'test/validate/limit.test.ts',
  'test/validate/parse.test.ts',
  'test/validate/paths.test.ts',
  'test/validate/platform-paths.test.ts',
  'test/validate/quick-exports.test.ts',
  'test/validate/quick-shape.test.ts',
  'test/validate/roots.test.ts',
  'test/validate/rules.test.ts',
  'test/validate/settle.test.ts',
  'test/validate/v8-syntax.test.ts',
  'test/validate/unreadable.test.ts',
  'test/validate/url-shapes.test.ts',
]

export default defineConfig({
  test: {
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: UNIT, testTimeout: 20_000, hookTimeout: 30_000 },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'test/.tmp/**', ...UNIT],
          // Bundler, binary and package tests use the built package, as users do: built once per run.
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
})

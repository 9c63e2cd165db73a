import { defineConfig } from 'vitest/config'

/**
 * Two projects, told apart by a file's name:
 * - `*.unit.test.ts` (and the type tests `*.test-d.ts`): the compiler, codegen, runtime and no-build API
 *   called in this process, on real files in test/.tmp. None spawns a process, runs a bundler's build,
 *   launches Chromium or reads the built dist/, so they need no global setup and have a short time limit.
 * - every other `*.test.ts` is end-to-end: a new file is end-to-end unless its name says unit.
 */
const UNIT = ['test/**/*.unit.test.ts']
const TYPES = ['test/**/*.test-d.ts']

export default defineConfig({
  test: {
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT,
          typecheck: { enabled: true, include: TYPES, tsconfig: './test/types/tsconfig.test-d.json' },
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
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

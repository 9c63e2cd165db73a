import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { closeSiteSkills, loadLearnedContext } from '../../src/nobuild/api'
import { runCli } from '../helpers/cli'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'
import { BIN, type Exited, cleanEnv, runNode } from '../helpers/spawn'

// In this process: every fs.watch call of the code under test is counted (and still made).
const watched = vi.hoisted(() => ({ calls: 0 }))
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>()
  const watch = ((...args: Parameters<typeof fs.watch>) => {
    watched.calls++
    return fs.watch(...args)
  }) as typeof fs.watch
  return { ...fs, watch, default: { ...fs, watch } }
})

/**
 * In a spawned process: a module loaded before the binary that counts fs.watch calls and prints the
 * count when the process exits. Watchers are unref'd, so only a count can tell that one started.
 */
const COUNT_WATCHERS = `data:text/javascript,${encodeURIComponent(
  [
    'import fs from "node:fs"',
    'import { syncBuiltinESMExports } from "node:module"',
    'const watch = fs.watch',
    'let calls = 0',
    'fs.watch = function (...args) { calls++; return watch.apply(this, args) }',
    'syncBuiltinESMExports()',
    'process.on("exit", () => process.stderr.write(`\\nfs.watch calls: ${calls}\\n`))',
  ].join('\n'),
)}`

const N = { n: { type: 'integer', required: true, description: 'A number.' } }
const RESULT = { type: 'integer', description: 'A number.' }
const TITLE = { description: 'Reads the title.', path: 'browser-tools/title.js', args: {}, returns: RESULT }
const SHOP = 'https://shop.example.com/'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('one-shot-')
  await writeTree(tmp.dir, {
    'package.json': '{ "type": "module" }\n',
    'learnings/shop/manifest.json': {
      id: 'shop',
      name: 'Shop',
      domains: ['shop.example.com'],
      notes: ['notes/overview.md'],
      nodeTools: {
        double: { description: 'Doubles.', path: 'tools/double.js', callable: 'double', args: N, returns: RESULT },
      },
      browserTools: { title: TITLE },
    },
    'learnings/shop/notes/overview.md': '# Shop\n',
    'learnings/shop/tools/double.js': 'export const double = (ctx, args) => args.n * 2\n',
    'learnings/shop/browser-tools/title.js': 'async function () { return document.title.length }\n',
  })
})
afterAll(async () => {
  closeSiteSkills()
  await tmp.cleanup()
})
beforeEach(() => {
  watched.calls = 0
})

/** Every one-shot command, with the exit code it must end with. */
const COMMANDS: [argv: string[], code: number][] = [
  [['validate'], 0],
  [['validate', '--json'], 0],
  [['types', '--out', 'types/site-skills.d.ts'], 0],
  [['match', SHOP], 0],
  [['context', '--json', SHOP], 0],
  [['run', 'shop', 'double', '--args', '{"n":21}'], 0],
  [['run', 'shop', 'nope'], 1],
  // The skill has no examples: test says so and exits 1 (no example ran).
  [['test'], 1],
  [['check'], 0],
]

const withRoot = (argv: string[]) => [...argv, '--root', 'learnings']

function watchCalls(run: Exited): number {
  const count = /fs\.watch calls: (\d+)/.exec(run.stderr)?.[1]
  expect(count, `no count in stderr: ${run.stderr}`).toBeDefined()
  return Number(count)
}

describe('one-shot commands never start a watcher', () => {
  it.each(COMMANDS)('the real binary: %j exits on its own, with no fs.watch call', async (argv, code) => {
    const run = await runNode(['--import', COUNT_WATCHERS, BIN, ...withRoot(argv)], {
      cwd: tmp.dir,
      env: cleanEnv(),
      limitMs: 20_000,
    })
    expect(run.timedOut, `killed after ${run.ms} ms: ${run.stderr}`).toBe(false)
    expect(run.code, run.stderr).toBe(code)
    expect(watchCalls(run)).toBe(0)
  })

  it('the count sees a watcher: the no-build API watches by default, in a spawned process too', async () => {
    const script = [
      `const api = await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist/index.js')).href)})`,
      `const context = await api.loadLearnedContext(${JSON.stringify(SHOP)}, { root: 'learnings' })`,
      'if (!context.exists) process.exitCode = 3',
    ].join('\n')
    const run = await runNode(['--import', COUNT_WATCHERS, '--input-type=module', '-e', script], {
      cwd: tmp.dir,
      env: cleanEnv(),
    })
    expect(run.code, run.stderr).toBe(0)
    expect(watchCalls(run)).toBeGreaterThan(0)
  })

  it('in-process: the sessions the commands build create no fs watcher, where the default session does', async () => {
    for (const [argv, code] of COMMANDS) {
      const run = await runCli(withRoot(argv), tmp.dir)
      expect(run.code, `${argv.join(' ')}: ${run.stderr}`).toBe(code)
      expect(watched.calls, argv.join(' ')).toBe(0)
    }
    const context = await loadLearnedContext(SHOP, { root: join(tmp.dir, 'learnings') })
    expect(context.exists).toBe(true)
    expect(watched.calls).toBeGreaterThan(0)
  })
})

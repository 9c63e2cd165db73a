import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/tmp'
import { runNode } from '../helpers/spawn'

// The process's own checker in a process of its own: it must never keep that process alive.
describe('V8 syntax checks on a worker thread, in a process of their own', () => {
  it.each([
    ['after answering', 50],
    ['when started but never sent a batch', 0],
  ])('never keeps a process alive: one whose worker ran %s exits by itself', async (_, rounds) => {
    const module = join(REPO_ROOT, 'src/compiler/validate/v8-syntax.ts')
    const script = [
      `const { compiles, syntaxCheckCounts } = await import(${JSON.stringify(module)})`,
      'const codes = Array.from({ length: 300 }, (_, i) => i % 2 ? `({m(a){return a+${i}}\\n})` : `({m(a){return a+}\\n})`)',
      // The first large batch starts the worker and is checked here.
      'let ok = (await Promise.all(codes.map(compiles))).filter(Boolean).length',
      `for (let round = 0; round < ${rounds} && syntaxCheckCounts().worker === 0; round++) {`,
      '  await new Promise((resolve) => setTimeout(resolve, 20))',
      '  ok = (await Promise.all(codes.map(compiles))).filter(Boolean).length',
      '}',
      'console.log(JSON.stringify({ ok, worker: syntaxCheckCounts().worker > 0 }))',
    ].join('\n')
    const run = await runNode(['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      limitMs: 30_000,
    })
    expect(run.timedOut).toBe(false)
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout.trim())).toEqual({ ok: 150, worker: rounds > 0 })
  })
})

describe('V8 syntax checks when the worker fails', () => {
  // The process's own Worker replaced before the module loads (syncBuiltinESMExports carries the
  // change to `import { Worker } from 'node:worker_threads'`).
  const FAKES = {
    'cannot be created': 'class { constructor() { throw new Error("no threads here") } }',
    'fails once online': [
      'class extends Real {',
      '  constructor(...args) { super(...args); this.once("online", () => this.emit("error", new Error("gone"))) }',
      '}',
    ].join('\n'),
    'exits while it owes answers': ['class extends Real {', '  postMessage(value) { void this.terminate() }', '}'].join(
      '\n',
    ),
  }

  it.each(Object.entries(FAKES))('checks here when the worker %s, and the process exits', async (_, fake) => {
    const module = join(REPO_ROOT, 'src/compiler/validate/v8-syntax.ts')
    const script = [
      "import { createRequire, syncBuiltinESMExports } from 'node:module'",
      "const threads = createRequire(import.meta.url)('node:worker_threads')",
      'const Real = threads.Worker',
      `threads.Worker = ${fake}`,
      'syncBuiltinESMExports()',
      `const { compiles, compilesHere, syntaxCheckCounts } = await import(${JSON.stringify(module)})`,
      'const codes = Array.from({ length: 300 }, (_, i) => i % 2 ? `({m(a){return a+${i}}\\n})` : `({m(a){return a+}\\n})`)',
      'const expected = JSON.stringify(codes.map(compilesHere))',
      'let same = true',
      'for (let round = 0; round < 20; round++) {',
      '  same &&= JSON.stringify(await Promise.all(codes.map(compiles))) === expected',
      '  await new Promise((resolve) => setTimeout(resolve, 20))',
      '}',
      'console.log(JSON.stringify({ same, worker: syntaxCheckCounts().worker }))',
    ].join('\n')
    const run = await runNode(['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      limitMs: 30_000,
    })
    expect(run.timedOut, run.stderr).toBe(false)
    expect(run.code, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout.trim())).toEqual({ same: true, worker: 0 })
  })
})

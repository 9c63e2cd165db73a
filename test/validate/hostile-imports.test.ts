import { execFileSync } from 'node:child_process'
import { mkdir, rm, symlink, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createServer } from 'vite'
import { BUNDLERS, buildApp, vitePlugin } from '../helpers/bundlers'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'
import { runBin, runNode } from '../helpers/spawn'

/*
 * Issue 24.2, 24.4 and 24.12: what an ES-module browser tool imports is read by esbuild, which
 * would wait forever on a named pipe and read a symlink to /dev/zero until memory runs out. Every
 * such file goes through the rules of the tool's own file first.
 */

/** A run that hangs is killed here; the assertions ask for far less. */
const KILL_AFTER_MS = 30_000
const WITHIN_MS = 10_000
const RETURNS = { type: 'object', description: 'The result.' }

/** A skill with one ES-module browser tool whose text is `code`, plus `files` (paths below the skill). */
function skill(id: string, code: string, files: Record<string, unknown> = {}): Record<string, unknown> {
  const tree: Record<string, unknown> = {
    [`${id}/manifest.json`]: {
      id,
      name: `Skill ${id}`,
      domains: [`${id}.example.com`],
      browserTools: { read: { description: 'Reads.', path: 'browser-tools/read.js', args: {}, returns: RETURNS } },
    },
    [`${id}/browser-tools/read.js`]: code,
  }
  for (const [path, content] of Object.entries(files)) tree[`${id}/${path}`] = content
  return tree
}

const importing = (spec: string) =>
  `import data from ${JSON.stringify(spec)}\nexport default async function () {\n  return { data }\n}\n`
const mkfifo = (path: string) => execFileSync('mkfifo', [path])

let tmp: Awaited<ReturnType<typeof makeTempDir>>
/** A project: its own node_modules, a root of skills inside it, and a folder outside both. */
let project: string
let root: string
let outside: string

beforeAll(async () => {
  tmp = await makeTempDir('hostile-imports-')
  project = join(tmp.dir, 'project')
  root = join(project, 'learnings')
  outside = join(tmp.dir, 'outside')
  await writeTree(tmp.dir, {
    'outside/node_modules/secret/secret.txt': 'TOP SECRET\n',
    'project/node_modules/fine-pkg/package.json': { name: 'fine-pkg', version: '1.0.0', main: 'index.js' },
    'project/node_modules/fine-pkg/index.js': 'export const shout = (s) => s.toUpperCase()\n',
    'project/learnings/node_modules/leak-pkg/package.json': { name: 'leak-pkg', version: '1.0.0', main: 'index.js' },
    'project/learnings/node_modules/leak-pkg/index.js': 'export default "from the root, not the project"\n',
  })
  await writeTree(root, {
    ...skill('fifo', importing('./data.txt')),
    ...skill('zero', importing('./data.txt')),
    ...skill('big', importing('./big.txt'), { 'browser-tools/big.txt': '' }),
    ...skill('pkgjson', importing('./lib/x.js'), { 'browser-tools/lib/x.js': 'export default 1\n' }),
    ...skill('libpkg', importing('./lib/x.js'), { 'browser-tools/lib/x.js': 'export default 1\n' }),
    ...skill('tsconfig', importing('./x.js'), { 'browser-tools/x.js': 'export default 2\n' }),
    ...skill('relative', importing('../../../../outside/node_modules/secret/secret.txt')),
    ...skill('absolute', importing(join(outside, 'node_modules/secret/secret.txt'))),
    ...skill('dotted', importing('fine-pkg/../../../outside/node_modules/secret/secret.txt')),
    ...skill('rootpkg', importing('leak-pkg')),
    // Another skill's file: inside the build, not inside this skill.
    ...skill('cross', importing('../../tsconfig/browser-tools/x.js')),
    ...skill('ownpkg', importing('own-pkg'), {
      'node_modules/own-pkg/package.json': { name: 'own-pkg', version: '1.0.0', main: 'index.js' },
      'node_modules/own-pkg/index.js': 'export default "own"\n',
    }),
    ...skill(
      'projpkg',
      "import { shout } from 'fine-pkg'\nexport default async function () {\n  return { s: shout('a') }\n}\n",
    ),
    'nodets/manifest.json': {
      id: 'nodets',
      name: 'Node TS',
      domains: ['nodets.example.com'],
      nodeTools: {
        run: { description: 'Runs.', path: 'tools/run.ts', callable: 'run', args: {}, returns: RETURNS },
      },
    },
    'nodets/tools/run.ts':
      "import data from './data.txt'\nexport async function run(): Promise<object> {\n  return { data }\n}\n",
    ...skill(
      'meta',
      "import { where } from './lib/where.ts'\nexport default async function () {\n  return { at: import.meta.url, where }\n}\n",
      {
        'browser-tools/lib/where.ts': 'export const where: string = String(import.meta.url)\n',
      },
    ),
  })
  mkfifo(join(root, 'fifo/browser-tools/data.txt'))
  // A Node tool's imports are Node's business, but a TypeScript one is compiled by esbuild first.
  mkfifo(join(root, 'nodets/tools/data.txt'))
  await symlink('/dev/zero', join(root, 'zero/browser-tools/data.txt'))
  await truncate(join(root, 'big/browser-tools/big.txt'), 5 * 1024 * 1024)
  mkfifo(join(root, 'pkgjson/browser-tools/package.json'))
  mkfifo(join(root, 'libpkg/browser-tools/lib/package.json'))
  // esbuild compiles browser tools without reading any tsconfig.json: this one is never opened.
  mkfifo(join(root, 'tsconfig/browser-tools/tsconfig.json'))
  await writeTree(join(tmp.dir, 'only-note'), {
    'note/manifest.json': { id: 'note', name: 'Note', domains: ['note.example.com'], notes: ['notes/a.md'] },
  })
  await mkdir(join(tmp.dir, 'only-note/note/notes'))
  mkfifo(join(tmp.dir, 'only-note/note/notes/a.md'))
  // One root per hostile skill, for the builds.
  for (const id of ['fifo', 'zero']) {
    await mkdir(join(tmp.dir, `only-${id}`))
    await symlink(join(root, id), join(tmp.dir, `only-${id}`, id))
  }
})
afterAll(() => tmp.cleanup())

interface Report {
  ok: boolean
  skills: number
  diagnostics: { code: string; file: string; line: number; column: number; message: string; hint: string }[]
}

const at = (report: Report) => report.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}: ${d.message}`)

describe('files an ES-module browser tool imports (issue 24.2, 24.4, 24.12)', () => {
  it('`site-skills validate` reports each at the import, within seconds, and accepts the good ones', async () => {
    const run = await runBin(['validate', '--json', root], { cwd: project, limitMs: KILL_AFTER_MS })
    expect(run.timedOut).toBe(false)
    expect(run.ms).toBeLessThan(WITHIN_MS)
    expect(run.code).toBe(1)
    const report = JSON.parse(run.stdout) as Report
    expect(at(report).sort()).toEqual([
      'absolute/browser-tools/read.js:1:18 path-escape: browser tool "read" imports "../../outside/node_modules/secret/secret.txt", which is outside the skill folder',
      'big/browser-tools/read.js:1:18 file-too-large: "big/browser-tools/big.txt", imported by browser tool "read", is 5242880 bytes; the limit is 4194304 bytes (4 MiB)',
      'cross/browser-tools/read.js:1:18 path-escape: browser tool "read" imports "tsconfig/browser-tools/x.js", which is outside the skill folder',
      'dotted/browser-tools/read.js:1:18 path-escape: browser tool "read" imports "fine-pkg/../../../outside/node_modules/secret/secret.txt", which is outside the skill folder',
      'fifo/browser-tools/read.js:1:18 file-not-regular: "fifo/browser-tools/data.txt", imported by browser tool "read", is a named pipe (FIFO), not a regular file',
      'libpkg/browser-tools/lib/package.json:1:1 file-not-regular: "libpkg/browser-tools/lib/package.json", which esbuild reads to resolve the imports of browser tool "read", is a named pipe (FIFO), not a regular file',
      'meta/browser-tools/lib/where.ts:1:37 tool-parse: browser tool "read" uses import.meta, which only a module has: a browser tool runs as a function in the page',
      'meta/browser-tools/read.js:3:16 tool-parse: browser tool "read" uses import.meta, which only a module has: a browser tool runs as a function in the page',
      'pkgjson/browser-tools/package.json:1:1 file-not-regular: "pkgjson/browser-tools/package.json", which esbuild reads to resolve the imports of browser tool "read", is a named pipe (FIFO), not a regular file',
      'relative/browser-tools/read.js:1:18 path-escape: browser tool "read" imports "../../outside/node_modules/secret/secret.txt", which is outside the skill folder',
      'rootpkg/browser-tools/read.js:1:18 path-escape: browser tool "read" imports "node_modules/leak-pkg/index.js", which is outside the skill folder',
      'zero/browser-tools/read.js:1:18 path-escape: browser tool "read" imports "/dev/zero", which is outside the skill folder',
    ])
    const leaving = report.diagnostics.find((d) => d.file.startsWith('relative/'))!
    expect(leaving.hint).toContain("packages by name (installed in the project's node_modules")
    expect(report.diagnostics.find((d) => d.file.startsWith('meta/'))!.hint).toContain('location.href')
    // tsconfig, ownpkg, projpkg and nodets are valid; 15 skills in all.
    expect(report.skills).toBe(15)
  })

  // The FIFO note is validation's own finding; the build must also not hand it to esbuild to watch.
  const BUILD_CASES = [
    ['fifo', 'file-not-regular', 'fifo/browser-tools/read.js'],
    ['zero', 'path-escape', 'zero/browser-tools/read.js'],
    ['note', 'file-not-regular', 'note/notes/a.md'],
  ] as const

  it.each(BUNDLERS)(
    'a real %s build fails at a FIFO import, a /dev/zero link or a FIFO note within seconds',
    async (bundler) => {
      for (const [id, code, file] of BUILD_CASES) {
        const started = Date.now()
        const error = await buildApp(bundler, {
          app: project,
          entry: join(REPO_ROOT, 'test/fixtures/app/browser.js'),
          outDir: join(tmp.dir, `out-${bundler}-${id}`),
          options: { roots: join(tmp.dir, `only-${id}`), dts: false },
          browser: true,
        }).then(
          () => undefined,
          (e: Error) => e,
        )
        expect(Date.now() - started, id).toBeLessThan(WITHIN_MS)
        expect(error?.message, id).toContain(code)
        expect(error?.message, id).toContain(file)
      }
    },
  )

  it('the no-build API answers a call of such a tool with the diagnostic, within seconds', async () => {
    const script = [
      `import { loadBrowserToolSource, runNodeSiteTool } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist/index.js')).href)}`,
      `const root = ${JSON.stringify(root)}`,
      "for (const id of ['fifo', 'zero', 'ownpkg']) {",
      "  const out = await loadBrowserToolSource(id, 'read', { root }).then((s) => 'compiled ' + s.length, (e) => e.message)",
      "  console.log(id + ': ' + out.split('\\n')[0])",
      '}',
      "const ran = await runNodeSiteTool('nodets', 'run', {}, {}, { root }).then(JSON.stringify, (e) => e.code + ' ' + e.message)",
      "console.log('nodets: ' + ran)",
    ].join('\n')
    const run = await runNode(['--input-type=module', '-e', script], { cwd: project, limitMs: KILL_AFTER_MS })
    expect(run.timedOut).toBe(false)
    expect(run.ms).toBeLessThan(WITHIN_MS)
    expect(run.stderr).toBe('')
    const lines = run.stdout.trim().split('\n')
    expect(lines[0]).toBe(
      'fifo: fifo: site skill is invalid: fifo/browser-tools/read.js:1:18 "fifo/browser-tools/data.txt", imported by browser tool "read", is a named pipe (FIFO), not a regular file',
    )
    expect(lines[1]).toBe(
      'zero: zero: site skill is invalid: zero/browser-tools/read.js:1:18 browser tool "read" imports "/dev/zero", which is outside the skill folder',
    )
    expect(lines[2]).toMatch(/^ownpkg: compiled \d+/)
    expect(lines[3]).toMatch(
      /^nodets: unavailable Node tool ".*run\.ts" cannot be compiled: .*is a named pipe \(FIFO\)/,
    )
  })

  it('the Vite dev server reports a FIFO import within seconds, and serves the tool once it is a file', async () => {
    const devRoot = join(tmp.dir, 'dev-root')
    await writeTree(devRoot, skill('fifo', importing('./data.txt')))
    mkfifo(join(devRoot, 'fifo/browser-tools/data.txt'))
    const server = await createServer({
      root: project,
      configFile: false,
      logLevel: 'silent',
      plugins: [vitePlugin({ roots: devRoot, dts: false })],
      server: { port: 0, host: '127.0.0.1', hmr: false },
    })
    try {
      await server.listen()
      const started = Date.now()
      const error = await server.ssrLoadModule('virtual:site-skills').then(
        () => undefined,
        (e: Error) => e,
      )
      expect(Date.now() - started).toBeLessThan(WITHIN_MS)
      expect(error?.message).toContain('file-not-regular')
      expect(error?.message).toContain('fifo/browser-tools/read.js:1:18')
      // The pipe replaced by a file: the next load compiles the tool (the pipe was among its inputs).
      await rm(join(devRoot, 'fifo/browser-tools/data.txt'))
      await writeFile(join(devRoot, 'fifo/browser-tools/data.txt'), 'now a file\n')
      const loadSource = async () => {
        const loaded = (await server.ssrLoadModule('virtual:site-skills')) as {
          browserToolSource: (s: string, t: string) => Promise<string>
        }
        const source = await loaded.browserToolSource('fifo', 'read')
        expect(source).not.toBe('')
        return source
      }
      const source = await vi.waitFor(loadSource, { timeout: WITHIN_MS, interval: 50 })
      expect(source).toContain('now a file')
    } finally {
      await server.close()
    }
  })
})

import { readFileSync } from 'node:fs'
import { mkdir, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { REPO_ROOT } from './tmp'

/**
 * The TypeScript majors this repository installs: 6 as `typescript` (what it builds with), 5 and 7
 * under npm aliases (devDependencies `typescript-5`, `typescript-7`).
 */
export const TYPESCRIPTS = [
  { major: 5, dir: join(REPO_ROOT, 'node_modules/typescript-5') },
  { major: 6, dir: join(REPO_ROOT, 'node_modules/typescript') },
  { major: 7, dir: join(REPO_ROOT, 'node_modules/typescript-7') },
] as const

export type Major = (typeof TYPESCRIPTS)[number]['major']

/** The installed version of a major (`7.0.2`), read from its package. */
export function versionOf(major: Major): string {
  const { dir } = TYPESCRIPTS.find((t) => t.major === major)!
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version
}

/** A major's `tsc` (TypeScript 7's starts the native compiler). */
export const tscOf = (major: Major) => join(TYPESCRIPTS.find((t) => t.major === major)!.dir, 'bin/tsc')

/**
 * Makes `dir` a project whose `node_modules/typescript` is TypeScript `major`, with this package and
 * Node's types installed (symlinks, as npm links a local package).
 */
export async function linkProject(dir: string, major: Major | undefined): Promise<void> {
  await mkdir(join(dir, 'node_modules/@types'), { recursive: true })
  await symlink(REPO_ROOT, join(dir, 'node_modules/unplugin-site-skills'))
  await symlink(join(REPO_ROOT, 'node_modules/@types/node'), join(dir, 'node_modules/@types/node'))
  const ts = TYPESCRIPTS.find((t) => t.major === major)
  if (ts) await symlink(ts.dir, join(dir, 'node_modules/typescript'))
}

/**
 * Loaded before the binary: says on stderr, as the process exits, which TypeScript ran: the compiler
 * API files it loaded (5, 6) and the compiler processes it started (7).
 */
export const WHICH_TYPESCRIPT = `data:text/javascript,${encodeURIComponent(
  [
    'import cp from "node:child_process"',
    'import { createRequire, syncBuiltinESMExports } from "node:module"',
    'const spawned = []',
    'const spawn = cp.spawn',
    'cp.spawn = function (file, ...rest) { spawned.push(String(file)); return spawn.call(this, file, ...rest) }',
    'syncBuiltinESMExports()',
    'const cache = createRequire(process.cwd() + "/").cache',
    'process.on("exit", () => {',
    '  const loaded = Object.keys(cache).filter((f) => /typescript/.test(f))',
    '  process.stderr.write(`\\nran typescript: ${JSON.stringify({ loaded, spawned })}\\n`)',
    '})',
  ].join('\n'),
)}`

/** What WHICH_TYPESCRIPT reported, and the stderr without its line. */
export function whichTypeScript(stderr: string): { loaded: string[]; spawned: string[]; rest: string } {
  const match = /\nran typescript: (.*)\n$/.exec(stderr)
  if (!match) throw new Error(`no report of the TypeScript that ran in: ${stderr}`)
  const found = JSON.parse(match[1]!) as { loaded: string[]; spawned: string[] }
  return { ...found, rest: stderr.slice(0, match.index) }
}

/** The part of a path after the repository's node_modules (`typescript-5/lib/typescript.js`). */
export const inNodeModules = (path: string) => path.replace(/^.*?\/node_modules\//, '')

const RETURNS = {
  type: 'object',
  description: 'The page.',
  properties: { title: { type: 'string', required: true }, count: { type: 'integer' } },
}

/** A skill with a TypeScript Node tool and two bare browser tools, one under `// @ts-check`. */
const CHECK_MANIFEST = {
  id: 'shop',
  name: 'Shop',
  domains: ['shop.example'],
  notes: [],
  nodeTools: {
    search: {
      description: 'Search.',
      path: 'tools/search.ts',
      callable: 'search',
      args: { query: { type: 'string', required: true, description: 'Words.' } },
      returns: { type: 'array', description: 'Ids.', items: { type: 'string' } },
    },
  },
  browserTools: {
    read_page: { description: 'Read the page.', path: 'browser-tools/read.js', args: {}, returns: RETURNS },
    plain: { description: 'Not type-checked.', path: 'browser-tools/plain.js', args: {}, returns: RETURNS },
  },
}

// search.ts line 2: the declared return type disagrees with the manifest (ids are strings).
export const BAD_SEARCH = `// A Node tool with no helper: still checked against its manifest.
export async function search(_ctx: unknown, args: { query: string }): Promise<number[]> {
  return [args.query.length]
}
`
export const GOOD_SEARCH = BAD_SEARCH.replace('Promise<number[]>', 'Promise<string[]>').replace(
  'args.query.length',
  'args.query',
)
// read.js line 5: a bare function tool under @ts-check returns a count that is a string.
export const BAD_READ = `// @ts-check
/** @type {import('unplugin-site-skills/tool').BrowserTool<'shop', 'read_page'>} */
async function (args) {
  void args
  return { title: document.title, count: 'many' }
}
`
export const GOOD_READ = BAD_READ.replace("'many'", '2')

/** The skill's files under `shop/`, with the given Node tool and @ts-check browser tool. */
export const validateFolder = (search: string, read: string) => ({
  'shop/manifest.json': CHECK_MANIFEST,
  'shop/tools/search.ts': search,
  'shop/browser-tools/read.js': read,
  // No @ts-check: its wrong return is not reported.
  'shop/browser-tools/plain.js': 'async function () { return 42 }\n',
})

import { readFileSync, readdirSync } from 'node:fs'
import { join, posix } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/tmp'

// Issue 35: one file guard for every file access. Every file a stage reads, hashes or writes goes
// through src/compiler/fs/ (regular files only, size limits, no link out of its folder, no FIFO,
// loop detection; writes replace a file whole, never through a link). This test keeps it so: a
// module of src/ or runtime/ that touches node:fs outside src/compiler/fs/ must be listed below,
// with the functions it uses and why that is no read or write the guard should make. A new reader
// or writer beside the guard fails here; so does an entry that no longer says what its module does.

/** The guard itself: every function of node:fs is its to use. */
const GUARD = 'src/compiler/fs/'

/** Module -> the node:fs functions it may use, and why that needs no guard. */
const ALLOWED: Record<string, { uses: string; why: string }> = {
  'src/cli/compile-roots.ts': { uses: 'stat', why: 'whether a --root is a folder: a stat reads nothing' },
  'src/cli/commands/mcp.ts': { uses: 'realpath', why: 'the real path of --allow-write, to compare with the roots' },
  'src/cli/commands/new.ts': {
    uses: 'existsSync lstatSync mkdirSync realpathSync',
    why: 'probes for the schema and an existing folder; makes the new folder (its files go through writeFileInside)',
  },
  'src/cli/commands/run.ts': { uses: 'existsSync', why: 'names the skill folders of the hint line; reads nothing' },
  'src/compiler/bundle/bundle-guard.ts': {
    uses: 'existsSync lstatSync readdirSync realpathSync statSync',
    why: 'the guard of what esbuild reads: inspects each file before esbuild opens it, reads none',
  },
  'src/compiler/cache/inputs.ts': {
    uses: 'readdirSync statSync',
    why: "a cache's stamps of a skill's inputs: stats and names, no content",
  },
  'src/compiler/cache/store.ts': {
    uses: 'mkdirSync',
    why: 'makes the cache folder; the file goes through replaceFile',
  },
  'src/compiler/discover/skill-packages.ts': {
    uses: 'realpathSync statSync',
    why: "finds a skill package's folder; its files are read by the compiler through the guard",
  },
  'src/compiler/discover/roots.ts': { uses: 'existsSync stat', why: 'whether a root exists and is a folder' },
  'src/compiler/discover/skills.ts': { uses: 'readdir', why: "a root's folder names (discovery); no file is read" },
  'src/export/read.ts': {
    uses: 'lstatSync readdir',
    why: 'export --check walks its own output (no link followed: Dirent kinds); each file read by readRegularFile',
  },
  'src/export/write.ts': {
    uses: 'chmod lstat mkdir mkdtemp rename rm writeFile',
    why: "writes new files ('wx') into a folder it just made (mkdtemp), then renames whole folders",
  },
  'src/mcp/author/copy.ts': {
    uses: 'mkdirSync readdirSync realpathSync statSync writeFileSync',
    why: "stages a skill: a bounded walk (entries, depth, bytes), each file read by readRegularFile, written 'wx'",
  },
  'src/mcp/author/skill-place.ts': {
    uses: 'existsSync realpathSync statSync',
    why: 'where a skill folder really is (must stay in the writable root); reads nothing',
  },
  'src/mcp/author/note.ts': { uses: 'existsSync', why: 'whether a note exists before appending (read by the guard)' },
  'src/mcp/author/sandbox/run-sandboxed.ts': { uses: 'existsSync', why: "finds the sandbox's own built script" },
  'src/mcp/author/sandbox/sandboxed-tools.ts': {
    uses: 'existsSync',
    why: 'the node_modules folders a sandbox may read',
  },
  'src/mcp/author/stage-area.ts': {
    uses: 'lstatSync mkdirSync readdirSync rmSync rmdirSync',
    why: 'makes and removes its own stage folders (0700, never through a link)',
  },
  'src/mcp/author/stage.ts': {
    uses: 'existsSync mkdirSync realpathSync renameSync rmSync',
    why: 'moves checked stages into place; every file is written by writeFileInside',
  },
  'src/mcp/author/write-tool.ts': {
    uses: 'readdirSync statSync',
    why: 'the newest fixture by name and time; the fixture is read by readRegularFile',
  },
  'src/session/barrier.ts': {
    uses: 'mkdtempSync rmSync unlinkSync watch writeFileSync',
    why: 'empty marker files in a private folder it made (mkdtemp): an event barrier for watchers',
  },
  'src/session/node-tools.ts': {
    uses: 'lstatSync mkdirSync mkdtempSync rename writeFile',
    why: "compiled Node tools, written 'wx' into a private 0700 folder of this user, then renamed",
  },
  'src/session/folder-watcher.ts': { uses: 'statSync watch', why: 'watches folders for changes; reads no file' },
  'src/pack/write.ts': {
    uses: 'chmodSync existsSync lstatSync mkdirSync mkdtempSync readdirSync renameSync rmSync writeFileSync',
    why: "writes a pack's files 'wx' into a folder it just made (mkdtemp), then renames it into place",
  },
  'src/plugin/bundlers/esbuild.ts': { uses: 'statSync', why: 'which inputs esbuild can watch (files, not folders)' },
  'src/plugin/output-cache.ts': {
    uses: 'lstatSync mkdirSync readdirSync rmSync statSync utimesSync',
    why: 'inspects and prunes its own cache folders; files read by readOwnFile, written by replaceFile',
  },
  'src/plugin/runtime-entry.ts': { uses: 'existsSync', why: "finds the package's own runtime file" },
  'runtime/browsers.ts': { uses: 'existsSync', why: "finds an installed browser's binary" },
  'runtime/launch.ts': {
    uses: 'mkdtemp readFile rm',
    why: "a browser's profile: a private folder it made (mkdtemp), read only for the port file Chromium writes",
  },
  'runtime/profiles.ts': {
    uses: 'constants lstat open readdir rm writeFile',
    why: "the runtime's own guard of profile pid files: opened no-follow and non-blocking, 32 bytes, written 'wx'",
  },
}

const FS_MODULES = new Set(['node:fs', 'fs', 'node:fs/promises', 'fs/promises'])

/** The node:fs functions a module's text uses (`*` for a default or namespace import, or a require/import() of it); types are no use. */
function fsUses(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const used = new Set<string>()
  const isFs = (node: ts.Node | undefined) =>
    node !== undefined && ts.isStringLiteral(node) && FS_MODULES.has(node.text)
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && isFs(node.moduleSpecifier)) {
      const clause = ts.isImportDeclaration(node) ? node.importClause : undefined
      if (ts.isExportDeclaration(node)) used.add('*')
      else if (clause && !clause.isTypeOnly) {
        const bindings = clause.namedBindings
        if (clause.name || (bindings && ts.isNamespaceImport(bindings))) used.add('*')
        if (bindings && ts.isNamedImports(bindings))
          for (const e of bindings.elements) if (!e.isTypeOnly) used.add((e.propertyName ?? e.name).text)
      }
    }
    if (ts.isCallExpression(node) && isFs(node.arguments[0])) {
      const callee = node.expression
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require'))
        used.add('*')
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return [...used].sort()
}

/** Every `.ts` file of src/ and runtime/ outside the guard, with the node:fs functions it uses (those that use some). */
function usesInTree(): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const top of ['src', 'runtime']) {
    for (const rel of readdirSync(join(REPO_ROOT, top), { recursive: true, encoding: 'utf8' })) {
      const file = posix.join(top, rel.split('\\').join('/'))
      if (!file.endsWith('.ts') || file.startsWith(GUARD)) continue
      const uses = fsUses(file, readFileSync(join(REPO_ROOT, file), 'utf8'))
      if (uses.length) found.set(file, uses)
    }
  }
  return found
}

/** What breaks the rule: a use not allowed, and an entry that allows more than its module uses. */
function guardProblems(found: ReadonlyMap<string, string[]>): string[] {
  const problems: string[] = []
  for (const [file, uses] of found) {
    const allowed = new Set(ALLOWED[file]?.uses.split(' ') ?? [])
    const extra = uses.filter((name) => !allowed.has(name))
    if (extra.length)
      problems.push(
        `${file} uses node:fs ${extra.join(', ')} outside the file guard: read and write through src/compiler/fs/ ` +
          '(or, for no read or write of a file, add the function to its entry in ALLOWED with why)',
      )
  }
  for (const [file, entry] of Object.entries(ALLOWED)) {
    const unused = entry.uses.split(' ').filter((name) => !found.get(file)?.includes(name))
    if (unused.length) problems.push(`${file} no longer uses ${unused.join(', ')}: take it out of ALLOWED`)
  }
  return problems
}

describe('one file guard', () => {
  it('no module of src/ or runtime/ uses node:fs outside src/compiler/fs/ but those listed, for their reasons', () => {
    expect(guardProblems(usesInTree())).toEqual([])
  })

  it('every entry says why in one line', () => {
    for (const [file, { why }] of Object.entries(ALLOWED)) {
      expect(why.length, file).toBeGreaterThan(10)
      expect(why, file).not.toContain('\n')
    }
  })

  it('sees every way a module reaches node:fs, and not its types', () => {
    const text = [
      "import { readFileSync, type Stats } from 'node:fs'",
      "import type { Dirent } from 'fs'",
      "import * as fsp from 'node:fs/promises'",
      "import fs from 'fs'",
      "export { createReadStream } from 'node:fs'",
      "const lazy = await import('fs/promises')",
      "const old = require('fs')",
      "let entries: import('node:fs').Dirent[]",
    ].join('\n')
    expect(fsUses('x.ts', text)).toEqual(['*', 'readFileSync'])
    expect(fsUses('y.ts', "import type { Stats } from 'node:fs'\nlet d: import('node:fs').Dirent")).toEqual([])
  })

  it('reports a new reader beside the guard, a use beyond an entry, and a stale entry', () => {
    const found = new Map(Object.entries(ALLOWED).map(([file, { uses }]) => [file, uses.split(' ')]))
    expect(guardProblems(found)).toEqual([])
    found.set('src/cli/commands/types.ts', ['writeFile'])
    found.set('src/cli/compile-roots.ts', ['stat', 'readFile'])
    found.set('src/plugin/runtime-entry.ts', [])
    const problems = guardProblems(found).sort()
    expect(problems).toHaveLength(3)
    expect(problems[0]).toMatch(/^src\/cli\/commands\/types\.ts uses node:fs writeFile outside the file guard/)
    expect(problems[1]).toMatch(/^src\/cli\/compile-roots\.ts uses node:fs readFile outside/)
    expect(problems[2]).toBe('src/plugin/runtime-entry.ts no longer uses existsSync: take it out of ALLOWED')
  })
})

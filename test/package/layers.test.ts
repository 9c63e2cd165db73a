import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join, posix } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { runNode } from '../helpers/spawn'
import { REPO_ROOT } from '../helpers/tmp'

/** The two runtime files src/ may import: the public module and the host-side plumbing. */
const RUNTIME_DOORS = new Set(['runtime/index.ts', 'runtime/internal.ts'])
/**
 * Packages the runtime may load (never the compiler's: esbuild, ajv, acorn, unplugin, typescript...);
 * urlpattern-polyfill only where the platform has no URLPattern (runtime/urls.ts); ws only when
 * connecting by address (runtime/upgrade.ts).
 */
const RUNTIME_PACKAGES_RE =
  /^(?:node:|chrome-remote-interface$|devtools-protocol(?:\/|$)|urlpattern-polyfill\/urlpattern$|ws$)/

/** Every `.ts` file under the given top-level folders, as `folder/.../file.ts` -> text. */
function readTree(folders: string[]): Map<string, string> {
  const files = new Map<string, string>()
  for (const folder of folders) {
    for (const rel of readdirSync(join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })) {
      if (rel.endsWith('.ts')) files.set(posix.join(folder, rel.split('\\').join('/')), '')
    }
  }
  for (const file of files.keys()) files.set(file, readFileSync(join(REPO_ROOT, file), 'utf8'))
  return files
}

/** Static imports, re-exports, `import type` and literal dynamic imports, as written. */
function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName)
}

/** A relative specifier as a repository path with its `.ts` extension. */
function target(file: string, specifier: string): string {
  const path = posix.normalize(posix.join(posix.dirname(file), specifier))
  return path.endsWith('.ts') ? path : `${path}.ts`
}

/** What breaks the layers: src/ reaching past the runtime's two doors, the runtime reaching outside itself. */
function layerProblems(files: ReadonlyMap<string, string>): string[] {
  const problems: string[] = []
  for (const [file, text] of files) {
    for (const specifier of importsOf(text)) {
      const relative = specifier.startsWith('.')
      const to = relative ? target(file, specifier) : specifier
      if (file.startsWith('src/') && relative && to.startsWith('runtime/') && !RUNTIME_DOORS.has(to))
        problems.push(`${file} imports ${to}: import it through runtime/index.ts or runtime/internal.ts`)
      if (file.startsWith('runtime/') && relative && !to.startsWith('runtime/'))
        problems.push(`${file} imports ${to}: the runtime never imports from outside runtime/`)
      if (file.startsWith('src/tokens/') && relative && to.startsWith('src/mcp/'))
        problems.push(`${file} imports ${to}: token counts sit below the MCP server (src/listing/ lists a tool)`)
      if (file.startsWith('runtime/') && !relative && !RUNTIME_PACKAGES_RE.test(specifier))
        problems.push(`${file} imports the package ${specifier}: the runtime never loads the compiler's packages`)
    }
  }
  return problems
}

/** The one file of src/ that makes a compiler: every compile counts the token budgets there. */
const COMPILER_MAKER = 'src/tokens/budget.ts'

/** Files of src/ other than COMPILER_MAKER that call createCompiler (and so could compile without budgets). */
function compilerMakers(files: ReadonlyMap<string, string>): string[] {
  return [...files]
    .filter(([file, text]) => file.startsWith('src/') && file !== COMPILER_MAKER && /\bcreateCompiler\s*\(/.test(text))
    .filter(([file]) => file !== 'src/compiler/compile.ts')
    .map(([file]) => `${file} calls createCompiler: use createBudgetedCompiler (${COMPILER_MAKER})`)
}

describe('layers', () => {
  const tree = readTree(['src', 'runtime'])

  it('src/ imports the runtime only through its two doors, the runtime nothing of src/, token counts nothing of mcp/', () => {
    expect(layerProblems(tree)).toEqual([])
  })

  it('makes every compiler in one place, which counts the token budgets (and sees a second maker)', () => {
    expect(compilerMakers(tree)).toEqual([])
    expect(tree.get(COMPILER_MAKER)).toMatch(/\bcreateCompiler\(/)
    const second = new Map([['src/cli/x.ts', 'const c = createCompiler({ roots })']])
    expect(compilerMakers(second)).toEqual([
      `src/cli/x.ts calls createCompiler: use createBudgetedCompiler (${COMPILER_MAKER})`,
    ])
  })

  it('sees the imports it checks (the check cannot pass by reading nothing)', () => {
    const doors = [...tree].flatMap(([file, text]) =>
      file.startsWith('src/') ? importsOf(text).filter((s) => s.endsWith('/runtime/internal')) : [],
    )
    expect(doors.length).toBeGreaterThanOrEqual(8)
    expect(importsOf(tree.get('src/cli/commands/run.ts')!)).toContain('../../../runtime/index')
    expect(importsOf(tree.get('runtime/cdp.ts')!)).toContain('devtools-protocol/types/protocol-mapping')
  })

  it('reports a deep runtime import, an upward import, token counts on the server and a compiler package in the runtime', () => {
    const broken = new Map([
      [
        'src/cli/commands/x.ts',
        "import { command } from '../../../runtime/cdp'\nimport type { A } from '../../../runtime/index'",
      ],
      ['src/mcp/y.ts', "export { launchBrowser } from '../../runtime/launch'"],
      ['src/tokens/w.ts', "import { listedTool } from '../mcp/listing'"],
      ['runtime/z.ts', "import type { CompileResult } from '../src/compiler/compile'\nconst m = import('esbuild')"],
    ])
    expect(layerProblems(broken)).toEqual([
      'src/cli/commands/x.ts imports runtime/cdp.ts: import it through runtime/index.ts or runtime/internal.ts',
      'src/mcp/y.ts imports runtime/launch.ts: import it through runtime/index.ts or runtime/internal.ts',
      'src/tokens/w.ts imports src/mcp/listing.ts: token counts sit below the MCP server (src/listing/ lists a tool)',
      'runtime/z.ts imports src/compiler/compile.ts: the runtime never imports from outside runtime/',
      "runtime/z.ts imports the package esbuild: the runtime never loads the compiler's packages",
    ])
  })

  it('keeps runtime/internal.ts out of the package: no export names it, and importing it fails for users', async () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { exports: unknown }
    expect(JSON.stringify(pkg.exports)).not.toMatch(/internal/)
    expect(readFileSync(join(REPO_ROOT, 'tsdown.config.ts'), 'utf8')).not.toMatch(/internal/)
    // The built chunk that holds it (dist/internal-*.js, built by the global setup) is private too.
    const chunk = readdirSync(join(REPO_ROOT, 'dist')).find((f) => /^internal.*\.js$/.test(f))
    const specifiers = ['unplugin-site-skills/internal', ...(chunk ? [`unplugin-site-skills/dist/${chunk}`] : [])]
    const script = `for (const s of ${JSON.stringify(specifiers)}) console.log(await import(s).then(() => 'loaded', (e) => e.code))`
    const run = await runNode(['--input-type=module', '-e', script], { cwd: REPO_ROOT })
    expect(run.stdout.trim().split('\n')).toEqual(specifiers.map(() => 'ERR_PACKAGE_PATH_NOT_EXPORTED'))
    expect(existsSync(join(REPO_ROOT, 'dist/runtime.js'))).toBe(true)
  })
})

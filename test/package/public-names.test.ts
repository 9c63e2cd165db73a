import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { beforeAll, describe, expect, it } from 'vitest'
import { SITE_SKILLS_EXPORTS } from '../../runtime/internal'
import { runNode } from '../helpers/spawn'
import { REPO_ROOT } from '../helpers/tmp'
import { PUBLIC_NAMES, specifierOf } from './public-names'
import { DOCS } from './readme'

type Target = string | { types?: string; default?: string }
const EXPORTS = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { exports: Record<string, Target> }
).exports
const sorted = (names: Iterable<string>) => [...names].sort()

/** The run-time names of every JavaScript entry, imported by its package specifier in a fresh Node. */
async function builtValues(): Promise<Record<string, string[]>> {
  const entries = Object.entries(EXPORTS).filter(([, t]) =>
    /\.c?js$/.test(typeof t === 'string' ? t : (t.default ?? '')),
  )
  const script = [
    'const out = {}',
    `for (const [entry, spec] of ${JSON.stringify(entries.map(([e]) => [e, specifierOf(e)]))})`,
    '  out[entry] = Object.keys(await import(spec))',
    'console.log(JSON.stringify(out))',
  ].join('\n')
  const run = await runNode(['--input-type=module', '-e', script], { cwd: REPO_ROOT, limitMs: 30_000 })
  expect(run.stderr).toBe('')
  return JSON.parse(run.stdout) as Record<string, string[]>
}

/** The names each declaration entry exports, as TypeScript sees them, split into values and types. */
function builtDeclarations(): Record<string, { values: string[]; types: string[] }> {
  const files = Object.entries(EXPORTS).flatMap(([entry, t]) =>
    typeof t !== 'string' && t.types ? [[entry, join(REPO_ROOT, t.types)] as const] : [],
  )
  const program = ts.createProgram(
    files.map(([, file]) => file),
    { strict: true, skipLibCheck: true, types: [], noEmit: true },
  )
  const checker = program.getTypeChecker()
  const out: Record<string, { values: string[]; types: string[] }> = {}
  for (const [entry, file] of files) {
    const source = program.getSourceFile(file)!
    const module =
      checker.getSymbolAtLocation(source) ??
      checker.getAmbientModules().find((m) => m.name === `"${specifierOf(entry)}"`)
    const split = { values: [] as string[], types: [] as string[] }
    // `export =` (a CommonJS module, as tsserver's plugins are): the module itself is the default export.
    if (module?.exports?.has(ts.InternalSymbolName.ExportEquals)) split.values.push('default')
    else
      for (const symbol of module ? checker.getExportsOfModule(module) : []) {
        const real = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
        ;(real.flags & ts.SymbolFlags.Value ? split.values : split.types).push(symbol.name)
      }
    out[entry] = { values: sorted(split.values), types: sorted(split.types) }
  }
  return out
}

/** `import { a, type B } from 'spec'` and `import x from 'spec'` in the documentation's code. */
function documentedImports(): { file: string; spec: string; names: string[] }[] {
  const found: { file: string; spec: string; names: string[] }[] = []
  const re = /import\s+(?:type\s+)?(?:(\w+)|\{([^}]*)\})\s+from\s+'([^']+)'/g
  for (const [file, text] of DOCS) {
    for (const [, single, list, spec] of text.matchAll(re)) {
      if (!spec!.startsWith('unplugin-site-skills') && spec !== 'virtual:site-skills') continue
      const names = single
        ? ['default']
        : list!.split(',').map(
            (n) =>
              n
                .trim()
                .replace(/^type\s+/, '')
                .split(/\s+as\s+/)[0]!,
          )
      found.push({ file, spec: spec!, names: names.filter(Boolean) })
    }
  }
  return found
}

describe('the public names of the package (test/package/public-names.ts)', () => {
  let values: Record<string, string[]>
  let declarations: Record<string, { values: string[]; types: string[] }>
  beforeAll(async () => {
    values = await builtValues()
    declarations = builtDeclarations()
  })

  it('list every entry of package.json "exports", and only those', () => {
    expect(Object.keys(PUBLIC_NAMES)).toEqual(Object.keys(EXPORTS))
  })

  it('are what each built JavaScript entry exports at run time', () => {
    expect(Object.keys(values).length).toBeGreaterThanOrEqual(10)
    for (const [entry, names] of Object.entries(values))
      expect(sorted(names), entry).toEqual(sorted(PUBLIC_NAMES[entry]!.values))
  })

  it('are what each declaration entry exports, values and types apart', () => {
    expect(Object.keys(declarations).length).toBeGreaterThanOrEqual(10)
    for (const [entry, names] of Object.entries(declarations)) {
      const listed = PUBLIC_NAMES[entry]!
      expect(names, entry).toEqual({ values: sorted(listed.values), types: sorted(listed.types) })
    }
  })

  it('are each on a page of their entry, and so is the entry itself', () => {
    const missing: string[] = []
    for (const [entry, listed] of Object.entries(PUBLIC_NAMES)) {
      if (listed.docs.length === 0) continue
      const text = listed.docs.map((page) => DOCS.get(page) ?? '').join('\n')
      if (!text.includes(entry === './manifest.schema.json' ? 'manifest.schema.json' : specifierOf(entry)))
        missing.push(`${entry}: ${specifierOf(entry)}`)
      for (const name of [...listed.values, ...listed.types]) {
        if (name !== 'default' && !new RegExp(`\\b${name}\\b`).test(text)) missing.push(`${entry}: ${name}`)
      }
    }
    expect(missing).toEqual([])
  })

  it('hold every name the documentation imports from the package or from virtual:site-skills', () => {
    const imports = documentedImports()
    expect(imports.length).toBeGreaterThanOrEqual(10)
    const byspec = new Map(Object.entries(PUBLIC_NAMES).map(([entry, l]) => [specifierOf(entry), l]))
    const unknown = imports.flatMap(({ file, spec, names }) =>
      names
        .filter(
          (name) => !byspec.get(spec) || ![...byspec.get(spec)!.values, ...byspec.get(spec)!.types].includes(name),
        )
        .map((name) => `${file}: ${name} from ${spec}`),
    )
    expect(unknown).toEqual([])
  })

  it("client.d.ts declares the generated module's exports from the runtime's one list", () => {
    const text = readFileSync(join(REPO_ROOT, 'client.d.ts'), 'utf8')
    const declared = [...text.matchAll(/^ {2}export const (\w+)/gm)].map((m) => m[1])
    expect(declared).toEqual([...SITE_SKILLS_EXPORTS])
    expect(text).toMatch(/^ {2}export default api$/m)
  })
})

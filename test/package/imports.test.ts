import { builtinModules } from 'node:module'
import { readFileSync, readdirSync } from 'node:fs'
import { join, posix } from 'node:path'
import { init, parse } from 'es-module-lexer'
import { beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/tmp'

interface Manifest {
  exports: Record<string, string | { default?: string }>
  dependencies: Record<string, string>
  peerDependencies: Record<string, string>
  peerDependenciesMeta: Record<string, { optional?: boolean }>
}
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest
const DIST = join(REPO_ROOT, 'dist')
const BUILTINS = new Set(builtinModules)

/** A bare specifier's package: `@scope/name` or `name`, without the subpath. */
const packageOf = (specifier: string) => specifier.split('/', specifier.startsWith('@') ? 2 : 1).join('/')
const isBuiltin = (specifier: string) => specifier.startsWith('node:') || BUILTINS.has(specifier)

interface Imports {
  /** Files of dist/ imported statically (`import ... from './x.js'`). */
  files: string[]
  /** Packages imported statically. */
  packages: string[]
  /** Packages imported with a literal `import('...')`. */
  lazy: string[]
}

/** What one built file imports (es-module-lexer: `d === -1` is a static import, `d >= 0` a dynamic one). */
function importsOf(file: string): Imports {
  const [found] = parse(readFileSync(join(DIST, file), 'utf8'), file)
  const out: Imports = { files: [], packages: [], lazy: [] }
  for (const { n: specifier, d } of found) {
    if (!specifier || d === -2 || isBuiltin(specifier)) continue
    if (specifier.startsWith('.')) {
      if (d === -1) out.files.push(posix.normalize(posix.join(posix.dirname(file), specifier)))
    } else (d === -1 ? out.packages : out.lazy).push(packageOf(specifier))
  }
  return out
}

/** The packages every file reached by static imports from `entry` imports statically. */
function staticPackages(entry: string): Set<string> {
  const seen = new Set<string>()
  const packages = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const imports = importsOf(file)
    for (const name of imports.packages) packages.add(name)
    for (const next of imports.files) visit(next)
  }
  visit(entry)
  return packages
}

/** Every dist/ file that importing `entry` may load, statically or with `import()`, and the builtins each imports. */
function builtinsReached(entry: string): Map<string, string[]> {
  const reached = new Map<string, string[]>()
  const visit = (file: string) => {
    if (reached.has(file)) return
    const [found] = parse(readFileSync(join(DIST, file), 'utf8'), file)
    const builtins = found.flatMap(({ n }) => (n && isBuiltin(n) ? [n] : []))
    reached.set(file, builtins)
    for (const { n } of found) if (n?.startsWith('.')) visit(posix.normalize(posix.join(posix.dirname(file), n)))
  }
  visit(entry)
  return reached
}

/** The built entry points: every JavaScript export of package.json, and the binary's `dist/cli.js`. */
function entries(): string[] {
  const targets = Object.values(pkg.exports).map((target) => (typeof target === 'string' ? target : target.default))
  const js = targets.filter((target): target is string => !!target && /^\.\/dist\/.*\.js$/.test(target))
  return [...new Set([...js.map((target) => target.slice('./dist/'.length)), 'cli.js'])]
}

beforeAll(async () => {
  await init
})

describe('what the built package imports (dist/, as the tarball ships it)', () => {
  it('loads only its dependencies when an export or the binary starts: optional peers come later, by import()', () => {
    const found = entries()
    expect(found).toEqual(expect.arrayContaining(['index.js', 'vite.js', 'runtime.js', 'cli.js']))
    for (const entry of found) {
      const outside = [...staticPackages(entry)].filter((name) => !(name in pkg.dependencies))
      expect(outside, `dist/${entry} loads at start`).toEqual([])
    }
  })

  it('imports no package that is neither a dependency nor an optional peer, in any file', () => {
    const files = readdirSync(DIST).filter((file) => file.endsWith('.js'))
    expect(files.length).toBeGreaterThan(10)
    const all = new Set(files.flatMap((file) => [...importsOf(file).packages, ...importsOf(file).lazy]))
    const optional = (name: string) => name in pkg.peerDependencies && pkg.peerDependenciesMeta[name]?.optional
    expect([...all].filter((name) => !(name in pkg.dependencies) && !optional(name))).toEqual([])
    // It sees what it checks: the MCP server's chunk imports the SDK, an optional peer.
    expect(all).toContain('@modelcontextprotocol/server')
  })

  it('loads no node: module from the runtime, statically or with import(): a browser build of it needs none', () => {
    const reached = builtinsReached('runtime.js')
    // It sees what it checks: the runtime's lazy parts (the error catalog, connecting by address) are reached.
    expect([...reached.keys()].filter((f) => /^(?:error-catalog|connect)-/.test(f)).length).toBeGreaterThanOrEqual(2)
    expect([...reached].filter(([, builtins]) => builtins.length)).toEqual([])
    expect([...builtinsReached('launch.js').values()].flat()).toContain('node:child_process')
  })
})

import { readFileSync, readdirSync } from 'node:fs'
import { join, posix } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/tmp'

/**
 * Module-level state: a top-level `let`/`var`, or a top-level `const` made as an empty table
 * (`new Map()`, `new Set()`, `new WeakMap()`, `new WeakSet()`, `[]`) that the code then fills. Issue 39:
 * none is shared across plugin instances, commands or sessions (state lives in their instances).
 * What is left is named here with the reason it is the process's own: a lazily loaded module or
 * data that never changes once loaded, a global the process has one of, or a table keyed by
 * an object that holds the state of that object alone.
 */
const ALLOWED: Record<string, string> = {
  'src/nobuild/api.ts sessions':
    'the no-build functions have no instance (the original had none): sessions by roots, at most 16 (LRU)',
  'src/examples/node-network.ts installed':
    "the process's fetch and http are patched once (no network for Node examples)",
  'src/tokens/tokenizer.ts loading': 'the tokenizer, loaded once: data that never changes',
  'src/mcp/tabs.ts closing': 'keyed by connection: each connection closes once',
  'runtime/urls.ts polyfill': 'URLPattern, loaded once where the platform lacks it',
  'runtime/urls.ts tests': "keyed by a skill's frozen `urls` array: its compiled matcher",
  'runtime/browser.ts sessions': 'keyed by CDP session: the state of that session alone',
  'runtime/node.ts idle': 'the process has one unhandledRejection event: the Node calls waiting on it',
  'runtime/node.ts watching': 'whether the one process listener is installed',
  'runtime/errors.ts format': "the catalog's messages, loaded once: data that never changes",
  'runtime/errors.ts loading': "the catalog's messages, loaded once",
  'runtime/errors.ts pending': 'keyed by error: the data of that error until the messages load',
}

const EMPTY_TABLES = new Set(['Map', 'Set', 'WeakMap', 'WeakSet'])

/** The module-level state a file declares, as `file name`. */
function moduleState(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
  const found: string[] = []
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue
    const list = statement.declarationList
    const mutable = !(list.flags & ts.NodeFlags.Const)
    for (const declaration of list.declarations) {
      if (!ts.isIdentifier(declaration.name)) continue
      const init = declaration.initializer
      const table =
        init !== undefined &&
        ((ts.isNewExpression(init) &&
          ts.isIdentifier(init.expression) &&
          EMPTY_TABLES.has(init.expression.text) &&
          (init.arguments?.length ?? 0) === 0) ||
          (ts.isArrayLiteralExpression(init) && init.elements.length === 0))
      if (mutable || table) found.push(`${file} ${declaration.name.text}`)
    }
  }
  return found
}

function allState(): string[] {
  const found: string[] = []
  for (const folder of ['src', 'runtime']) {
    for (const rel of readdirSync(join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })) {
      const file = posix.join(folder, rel.split('\\').join('/'))
      if (!file.endsWith('.ts') || file.endsWith('.generated.ts')) continue
      found.push(...moduleState(file, readFileSync(join(REPO_ROOT, file), 'utf8')))
    }
  }
  return found
}

describe('module-level state (issue 39)', () => {
  const found = allState()

  it('is only what the allow-list names, with its reason; no entry of the list is stale', () => {
    expect(found.filter((f) => !(f in ALLOWED))).toEqual([])
    expect(Object.keys(ALLOWED).filter((k) => !found.includes(k))).toEqual([])
  })

  it('sees a let, a var and an empty table, and not a constant or a filled lookup table', () => {
    const text = [
      'let a = 1',
      'var b',
      'const c = new Map()',
      'const d = new WeakMap<object, number>()',
      'const e: string[] = []',
      "const f = new Set(['x'])",
      'const g = 3',
      'function h() { let i = 0; const j = new Map(); return [i, j] }',
    ].join('\n')
    expect(moduleState('x.ts', text)).toEqual(['x.ts a', 'x.ts b', 'x.ts c', 'x.ts d', 'x.ts e'])
  })
})

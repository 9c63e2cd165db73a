import { describe, expect, it } from 'vitest'
import { parseExports } from '../../src/compiler/validate/module-shape'
import { quickExports } from '../../src/compiler/validate/quick-exports'

/** Modules the quick path must answer exactly as acorn does. */
const ANSWERED = {
  'function declarations': 'export async function search(ctx, args) { return [args.q] }\nexport function* gen() {}\n',
  'imports, import.meta and dynamic imports':
    "import a, { b } from './x.js'\nimport './y.js'\nconst u = import.meta.url\nexport async function f() { return import('./q.js') }\n",
  'arrow and function initializers':
    'export const a = async (ctx, args) => args\nexport let b = x => x\nexport var c = function () {}\nexport const d = async function named() {}\n',
  'a class': 'export class Tool { run() {} }\n',
  'default function and class': 'export default async function () {\n  await 1\n}\n',
  'default class': 'export default class {}\n',
  're-exports':
    "export * from './all.js'\nexport * as ns from './ns.js'\nexport { x as y } from './xy.js'\nexport function own() {}\n",
  'a hashbang': '#!/usr/bin/env node\nexport function main() {}\n',
  'TypeScript output of esbuild': 'export async function typed(ctx, args) {\n  return args.n * 2;\n}\n',
}

/** Modules it must leave to acorn (unsure, or invalid): acorn's answer, with its position, stands. */
const DEFERRED = {
  'a syntax error in a function body': 'export async function search() {\n  const x = ;\n}\n',
  'an unclosed brace': 'export function f() {\n',
  'a local export clause': 'function f() {}\nconst n = 1\nexport { f, n as count }\n',
  'a literal initializer': 'export const n = 1\n',
  'an initializer whose kind needs a parse': 'export const f = wrap(() => 1)\n',
  'default of an identifier': 'function f() {}\nexport default f\n',
  'a top-level return': 'return 1\nexport function f() {}\n',
  'top-level await (valid, but a script rejects it)': 'await Promise.resolve()\nexport function main() {}\n',
  'a duplicate declaration': 'export function f() {}\nexport const f = () => 1\n',
}

describe('quick exports (es-module-lexer and V8) against acorn', () => {
  it.each(Object.entries(ANSWERED))('answers %s exactly as acorn does', async (_, code) => {
    const quick = await quickExports(code)
    expect(quick).toBeDefined()
    expect(quick).toEqual(parseExports(code))
  })

  it.each(Object.entries(DEFERRED))('leaves %s to acorn', async (_, code) => {
    expect(await quickExports(code)).toBeUndefined()
  })

  it('leaves every syntax error to acorn, whose position is reported', () => {
    const code = 'export async function search() {\n  const x = ;\n}\n'
    expect(parseExports(code)).toEqual({ message: 'Unexpected token `;`', line: 2, column: 13 })
  })
})

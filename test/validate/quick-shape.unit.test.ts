import { parseExpressionAt, tokenizer } from 'acorn'
import { describe, expect, it } from 'vitest'
import { checkFunctionExpression } from '../../src/compiler/validate/module-shape'
import { isSoleFunction } from '../../src/compiler/validate/quick-shape'

/** One function expression each: V8 alone says so. */
const SOLE = [
  'async function (args) {\n  return { title: document.title }\n}\n',
  'function () { return 1 } // done\n',
  'function* () { yield 1 }',
  'async function* () {}',
  '(args) => document.title',
  'async ({ limit = 5, all }) => {\n  return [limit, all]\n}\n',
  'x => x ? 1 : [2, 3]',
  'async x => { await x }',
  '() => /}/.test("{")',
]

/** Not one function expression, or not valid: left to acorn (which finds the problem, if any). */
const UNSURE = [
  'function () {}()',
  'function () {}.call(null)',
  'function () {} + 1',
  'function () {}\nfoo()',
  'function () {}, 1',
  'function () {}[0] = 1',
  'function () {}\n[0]',
  'function () { super.x }',
  'x => 1, 2',
  '(a) => {}\n(0)',
  '(a => 1)(2)',
  '({ a: 1 })',
  'document.title',
  'function () {\n  const x = ;\n}',
  'function named() {}',
  'async function () {};',
  '(a = f()) => a',
]

describe('bare browser tools: the quick shape check (V8) against acorn', () => {
  it.each(SOLE)('accepts %j, as acorn does', async (source) => {
    expect(await isSoleFunction(source)).toBe(true)
    const node = parseExpressionAt(source, 0, { ecmaVersion: 'latest' })
    expect(node.type).toMatch(/^(Arrow)?FunctionExpression$/)
    expect(tokenizer(source.slice(node.end), { ecmaVersion: 'latest' }).getToken().type.label).toBe('eof')
  })

  it.each(UNSURE)('leaves %j to acorn', async (source) => {
    expect(await isSoleFunction(source)).toBe(false)
  })

  it('says what acorn finds instead of one function, and where, for what it leaves', async () => {
    expect(await checkFunctionExpression('function () {}()', 'tool.js')).toEqual({
      found: 'a function call `function () {}()`',
      line: 1,
      column: 1,
    })
    expect(await checkFunctionExpression('function () {}\nfoo()', 'tool.js')).toEqual({
      follows: '`foo()`',
      line: 2,
      column: 1,
    })
    expect(await checkFunctionExpression('const a = 1\nreturn a', 'tool.js')).toEqual({
      found: '2 statements, the first a `const` declaration `const a = 1`',
      script: true,
      line: 1,
      column: 1,
    })
    expect(await checkFunctionExpression('async function (args) { return oops(( }', 'tool.js')).toMatchObject({
      message: expect.stringMatching(/^Unexpected token/),
      line: 1,
    })
  })
})

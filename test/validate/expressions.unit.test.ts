import { transform } from 'esbuild'
import { describe, expect, it, vi } from 'vitest'
import { forEachSegment, originalPosition } from '../../runtime/sourcemap'
import {
  type CompiledExpression,
  compileExpressions,
  type ExpressionResult,
} from '../../src/compiler/bundle/expressions'
import { createMappingsWriter } from '../../src/compiler/bundle/mappings'

vi.mock('esbuild', async (original) => {
  const esbuild = await original<typeof import('esbuild')>()
  return { ...esbuild, transform: vi.fn(esbuild.transform) }
})

/** Bare tools that stress the split: line breaks in strings, comments, regexes, the batch's own names. */
const TOOLS = [
  'async (args) => {\n  if (!args.ok) throw new Error("m0")\n  return `two\nlines ${args.n}`\n}',
  'function named(a) {\n  // a comment at the end, no line break after it\n  if (a.n > 1) throw new RangeError("m1")\n  return [/a\\/b/.test("a/b"), "é✓"]\n} // trailing',
  'async ({ n }) => { const $site_skills_0 = n; /*! legal */ if (n) throw new TypeError("m2"); return $site_skills_0 }',
  '() =>\n\n  ({ x: 1, y: "});\\n/*! $site_skills_ 9 */" })',
]

const js = (minify: boolean) => ({ minify, sourcemap: true, typescript: false })

function compiled(result: ExpressionResult): CompiledExpression {
  if ('errors' in result) throw new Error(result.errors.map((e) => e.text).join('\n'))
  return result
}

/** Runs a compiled tool as the runtime does: its body, then a call of its local. */
async function run(tool: CompiledExpression, args: unknown): Promise<unknown> {
  const fn = new Function(`return async function(){\n${tool.body}\nreturn ${tool.local}.apply(this,arguments)}`)()
  return await fn(args)
}

/** Where the source map sends the `new` of the error a tool constructs, 1-based. */
function mapped(tool: CompiledExpression, error: string): { line: number; column: number } | undefined {
  const at = tool.body.search(new RegExp(`new \\w*Error\\(\\s*"${error}"`))
  const before = tool.body.slice(0, at).split('\n')
  const position = originalPosition(
    { sources: ['t'], mappings: tool.mappings! },
    before.length - 1,
    before.at(-1)!.length,
  )
  return position && { line: position.line, column: position.column }
}

function positionIn(text: string, error: string): { line: number; column: number } {
  const at = text.search(new RegExp(`new \\w*Error\\("${error}"`))
  const before = text.slice(0, at).split('\n')
  return { line: before.length, column: before.at(-1)!.length + 1 }
}

describe('bare tools compiled many to a transform', () => {
  it.each([true, false])('gives each tool the code and map it has alone (minify %s)', async (minify) => {
    vi.mocked(transform).mockClear()
    const inputs = TOOLS.map((text, i) => ({ text, file: `/skill/browser-tools/t${i}.js` }))
    const batch = (await compileExpressions(inputs, js(minify))).map(compiled)
    expect(vi.mocked(transform)).toHaveBeenCalledTimes(1)
    const alone = (await Promise.all(inputs.map((input) => compileExpressions([input], js(minify))))).map((r) =>
      compiled(r[0]!),
    )
    for (const tools of [batch, alone]) {
      expect(await run(tools[0]!, { ok: true, n: 3 })).toBe('two\nlines 3')
      expect(await run(tools[1]!, { n: 1 })).toEqual([true, 'é✓'])
      expect(await run(tools[2]!, { n: 0 })).toBe(0)
      expect(await run(tools[3]!, {})).toEqual({ x: 1, y: '});\n/*! $site_skills_ 9 */' })
      await expect(run(tools[0]!, { ok: false })).rejects.toThrow('m0')
      await expect(run(tools[1]!, { n: 2 })).rejects.toThrow(RangeError)
      for (const [i, error] of ['m0', 'm1', 'm2'].entries())
        expect(mapped(tools[i]!, error)).toEqual(positionIn(TOOLS[i]!, error))
    }
  })

  it('is not fooled by a tool that spells a marker with escapes the output prints plainly', async () => {
    // In the output, the first tool's string reads like the second tool's marker and declaration.
    const inputs = [
      { text: '() => "x;/*! \\x24site_skills_ 1 */const t=1;"', file: '/s/a.js' },
      { text: '() => { throw new Error("b") }', file: '/s/b.js' },
    ]
    const [a, b] = (await compileExpressions(inputs, js(true))).map(compiled)
    expect(await run(a!, {})).toBe('x;/*! $site_skills_ 1 */const t=1;')
    await expect(run(b!, {})).rejects.toThrow('b')
    expect(mapped(b!, 'b')).toEqual(positionIn(inputs[1]!.text, 'b'))
  })

  it('compiles TypeScript tools in their own batch with the ts loader', async () => {
    const inputs = [
      {
        text: 'async (args: { n: number }): Promise<number> => {\n  if (args.n < 0) throw new Error("neg")\n  return args.n * 2\n}',
        file: '/s/a.ts',
      },
      { text: 'function (this: unknown, s: string) { return s.length as number }', file: '/s/b.ts' },
    ]
    const [a, b] = (await compileExpressions(inputs, { minify: true, sourcemap: true, typescript: true })).map(compiled)
    expect(await run(a!, { n: 4 })).toBe(8)
    expect(await run(b!, 'abc')).toBe(3)
    expect(mapped(a!, 'neg')).toEqual(positionIn(inputs[0]!.text, 'neg'))
  })

  it('compiles each tool alone when the batch fails, so the error names its own tool and position', async () => {
    vi.mocked(transform).mockClear()
    const inputs = [
      { text: '() => 1', file: '/s/ok.js' },
      { text: 'async () => {\n  return 1 +\n}', file: '/s/bad.js' },
      { text: 'async (a: number) => a', file: '/s/typed-in-js.js' },
    ]
    const [ok, bad, typed] = await compileExpressions(inputs, js(true))
    expect(await run(compiled(ok!), {})).toBe(1)
    expect(bad).toMatchObject({ errors: [{ location: { file: '/s/bad.js', line: 3, column: 0 } }] })
    // On the first line: the column is the tool's own, not shifted by what it was wrapped in.
    expect(typed).toMatchObject({ errors: [{ location: { file: '/s/typed-in-js.js', line: 1, column: 8 } }] })
    expect(vi.mocked(transform)).toHaveBeenCalledTimes(1 + inputs.length)
  })

  it('compiles alone a tool for which esbuild adds a helper outside the declaration', async () => {
    const inputs = [
      { text: '() => { class A { @((t: unknown) => t) m() { return 5 } } return new A().m() }', file: '/s/deco.ts' },
      { text: '() => 6', file: '/s/six.ts' },
    ]
    const results = (await compileExpressions(inputs, { minify: true, sourcemap: true, typescript: true })).map(
      compiled,
    )
    expect(await run(results[0]!, {})).toBe(5)
    expect(await run(results[1]!, {})).toBe(6)
  })

  it('makes no maps when none are asked for', async () => {
    const inputs = TOOLS.map((text, i) => ({ text, file: `/t${i}.js` }))
    const results = (await compileExpressions(inputs, { minify: true, sourcemap: false, typescript: false })).map(
      compiled,
    )
    expect(results.every((r) => r.mappings === undefined)).toBe(true)
  })
})

describe('mappings', () => {
  it('encodes what it decodes, deltas across lines included, and starts over after each take', () => {
    // One source: the writer keeps the source index at 0. One writer serves every text in turn.
    const writer = createMappingsWriter()
    const texts = ['AAAA,IAAI;AACC,QAAQ,E;;AADA', 'gBAAgB,2BAA3B', ';;AAAA', '', 'AAAA,E;;C,AAAgmB', 'AAAA,IAAI;AACC']
    for (const text of texts) {
      forEachSegment(text, (line, column, source, sourceLine, sourceColumn) =>
        source < 0 ? writer.add(line, column) : writer.add(line, column, sourceLine, sourceColumn),
      )
      expect(writer.take()).toBe(text)
    }
  })

  it('grows past its first buffer', () => {
    const writer = createMappingsWriter()
    const segments = Array.from({ length: 3000 }, (_, i) => [i * 3, i, i * 2] as const)
    for (const [column, sourceLine, sourceColumn] of segments) writer.add(0, column, sourceLine, sourceColumn)
    const text = writer.take()
    const decoded: number[][] = []
    forEachSegment(text, (l, c, s, sl, sc) => void decoded.push([l, c, s, sl, sc]))
    expect(decoded).toEqual(segments.map(([c, sl, sc]) => [0, c, 0, sl, sc]))
    expect(text.length).toBeGreaterThan(1024)
  })
})

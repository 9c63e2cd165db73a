import { describe, expect, it } from 'vitest'
import { throwSite, WEBMCP_SCRIPT_URL } from '../../runtime/webmcp-where'

// Where a WebMCP tool threw, read in the page from the error's stack (runtime/webmcp-where.ts):
// the tool's source starts at `line` of the script; its map turns a frame into file:line:column.
// Gen line 0 col 0 -> t.js 1:1; gen line 1 col 0 -> t.js 2:1, col 4 -> t.js 2:5; node_modules on line 2.
const map = { sources: ['shop/t.js', 'node_modules/lib/index.js'], mappings: 'AAAA;AACA,IAAI;CAAA' }
const tool = { line: 10, map }
const thrown = (stack: unknown) => ({ stack })
const at = (name: string, line: number, column: number) => `    at ${name} (${WEBMCP_SCRIPT_URL}:${line}:${column})`

describe('throwSite', () => {
  it("maps the innermost frame of the tool's own code, past a package's", () => {
    const stack = ['TypeError: no', at('lib', 13, 1), at('fail', 12, 5), at('run', 11, 1)].join('\n')
    expect(throwSite(thrown(stack), tool)).toEqual({ file: 'shop/t.js', line: 2, column: 5 })
    expect(throwSite(thrown(`Error: x\n    at ${WEBMCP_SCRIPT_URL}:11:1`), tool)).toEqual({
      file: 'shop/t.js',
      line: 1,
      column: 1,
    })
  })

  it('names nothing for frames of other scripts, of the page code above the tool, or without a map', () => {
    const other = ['Error: x', '    at f (https://shop.test/app.js:12:5)', at('register', 3, 7)].join('\n')
    expect(throwSite(thrown(other), tool)).toEqual({})
    expect(throwSite(thrown(['Error: x', at('fail', 12, 5)].join('\n')), { line: 10 })).toEqual({})
    expect(throwSite('a string', tool)).toEqual({})
    expect(throwSite(null, tool)).toEqual({})
  })

  it('reads a hostile stack in bounded work: huge lines, lines of colons and digits, a getter that throws', () => {
    const digits = `    at ${'1:'.repeat(200_000)}`
    const colons = `    at (${':'.repeat(200_000)})`
    const many = Array.from({ length: 10_000 }, () => at('deep', 1, 1)).join('\n')
    for (const stack of [digits, colons, `Error\n${many}\n${at('fail', 12, 5)}`])
      expect(throwSite(thrown(stack), tool)).toEqual({})
    const getter = {
      get stack(): string {
        throw new Error('no')
      },
    }
    expect(throwSite(getter, tool)).toEqual({})
  })
})

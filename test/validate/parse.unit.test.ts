import { describe, expect, it } from 'vitest'
import { isJsonFailure, parseJsonDocument } from '../../src/compiler/parse'

/** The duplicate keys of a valid JSON text, as `path@line:column`. */
function duplicates(text: string): string[] {
  const doc = parseJsonDocument(text)
  if (isJsonFailure(doc)) throw new Error(doc.message)
  return doc.duplicateKeys.map((d) => `${d.path.join('.')}@${d.position.line}:${d.position.column}`)
}

describe('parseJsonDocument: the one pass that counts keys and nesting', () => {
  it('finds a repeated key however its strings are escaped', () => {
    expect(duplicates('{"a": 1, "a": 2}')).toEqual(['a@1:10'])
    // A key ending in an escaped backslash; a value holding an escaped quote and a colon.
    expect(duplicates('{"k\\\\": "x\\": 1", "k\\\\": 2}')).toEqual(['k\\@1:19'])
    expect(duplicates('{"q\\"": {"in": "\\\\"}, "q\\"": 0}')).toEqual(['q"@1:23'])
    expect(duplicates('{\n  "outer": {"b": 1,\t"b"\n : 2}\n}')).toEqual(['outer.b@2:21'])
  })

  it('counts no key in a string that looks like one, nor a bracket inside a string', () => {
    expect(duplicates('{"a": "\\"a\\": 1", "b": ["{\\"a\\": [", "a"], "c": "\\\\"}')).toEqual([])
    expect(duplicates('{"a": "a", "b": {"a": "x"}}')).toEqual([])
    const deepInStrings = `{"s": "${'['.repeat(100)}", "t": "${'{'.repeat(100)}"}`
    expect(isJsonFailure(parseJsonDocument(deepInStrings))).toBe(false)
  })

  it('says where nesting first goes past 64 levels', () => {
    const deep = `{"x": ${'['.repeat(65)}${']'.repeat(65)}}`
    const doc = parseJsonDocument(deep)
    expect(isJsonFailure(doc) && doc).toEqual({
      message: 'JSON nests deeper than 64 levels',
      position: { line: 1, column: 70 },
      more: [],
    })
    expect(isJsonFailure(parseJsonDocument(`{"x": ${'['.repeat(63)}${']'.repeat(63)}}`))).toBe(false)
  })

  it('leaves an unterminated string to the parser, which says where', () => {
    const doc = parseJsonDocument('{"a": "open}')
    expect(isJsonFailure(doc) && doc.position.line).toBe(1)
  })
})

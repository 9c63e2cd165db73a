/**
 * Reads compact text (runtime/compact.ts) back into the value it was made from: the tests' proof that
 * the text says one thing only. Written from the grammar in docs/runtime.md ("Compact results"), not
 * from the encoder's code; strict: anything the grammar does not allow throws.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

const NUMBER_RE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/
const KEY_RE = /^[A-Za-z_$][\w$.-]*/

/** The end of the JSON value (a string, object or array) that starts at `from`. */
function jsonEnd(text: string, from: number): number {
  let depth = 0
  let inString = false
  for (let i = from; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') {
        inString = false
        if (depth === 0) return i + 1
      }
    } else if (c === '"') inString = true
    else if (c === '[' || c === '{') depth++
    else if (c === ']' || c === '}') {
      depth--
      if (depth === 0) return i + 1
    }
  }
  throw new Error(`unterminated JSON in ${JSON.stringify(text)}`)
}

/** A bare word: a literal, a number, or itself. */
function word(text: string): Json {
  if (text === 'true') return true
  if (text === 'false') return false
  if (text === 'null') return null
  if (NUMBER_RE.test(text)) return Number(text)
  if (text === '' || text !== text.trim()) throw new Error(`bare text ${JSON.stringify(text)} should be quoted`)
  return text
}

/** A scalar that runs to the end of the line. */
function scalar(text: string): Json {
  if (text[0] === '"' || text[0] === '[' || text[0] === '{') {
    if (jsonEnd(text, 0) !== text.length) throw new Error(`text after JSON: ${JSON.stringify(text)}`)
    return JSON.parse(text) as Json
  }
  return word(text)
}

/** The cells of a row or an inline list; `undefined` for an empty cell (a missing key). */
function cells(text: string): (Json | undefined)[] {
  const out: (Json | undefined)[] = []
  let i = 0
  for (;;) {
    let end: number
    if (text[i] === '"' || text[i] === '[' || text[i] === '{') end = jsonEnd(text, i)
    else {
      end = text.indexOf(',', i)
      if (end < 0) end = text.length
    }
    const cell = text.slice(i, end)
    out.push(cell === '' ? undefined : scalar(cell))
    if (end === text.length) return out
    if (text[end] !== ',') throw new Error(`expected , at ${end} of ${JSON.stringify(text)}`)
    i = end + 1
  }
}

interface Head {
  key?: string
  /** `[N]` and `{columns}`, for an array. */
  size?: number
  columns?: string[]
  /** What follows the colon. */
  rest: string
}

/** A key (bare or a JSON string), or undefined when the text does not start with one. */
function readKey(text: string): [string, number] | undefined {
  if (text[0] === '"') {
    const end = jsonEnd(text, 0)
    return [JSON.parse(text.slice(0, end)) as string, end]
  }
  const bare = KEY_RE.exec(text)
  return bare ? [bare[0], bare[0].length] : undefined
}

/** `key:rest`, `key[N]:rest`, `key[N]{a,b}:` or `[N]...` (no key); undefined for a line that is a scalar. */
function readHead(text: string): Head | undefined {
  const key = text[0] === '[' && /^\[\d+\]/.test(text) ? undefined : readKey(text)
  if (text[0] !== '[' && !key) return undefined
  let i = key ? key[1] : 0
  const head: Head = { rest: '', ...(key ? { key: key[0] } : {}) }
  const size = /^\[(\d+)\]/.exec(text.slice(i))
  if (size) {
    head.size = Number(size[1])
    i += size[0].length
    if (text[i] === '{') {
      const close = jsonEnd(text, i)
      head.columns = cells(text.slice(i + 1, close - 1)).map((c) => String(c))
      i = close
    }
  }
  if (text[i] !== ':') return undefined
  head.rest = text.slice(i + 1)
  return head
}

class Reader {
  i = 0
  constructor(readonly lines: string[]) {}
  indentOf(line: string | undefined): number {
    return line === undefined ? -1 : line.length - line.trimStart().length
  }

  /** The value of a head whose line is read, at indent `pad`. */
  valueOf(head: Head, pad: number): Json {
    if (head.size === undefined) {
      if (head.rest !== '') return scalar(head.rest)
      return this.object(pad + 1)
    }
    if (head.rest !== '') {
      const list = cells(head.rest)
      if (list.length !== head.size || list.includes(undefined)) throw new Error('inline list of the wrong size')
      return list as Json[]
    }
    if (head.columns) return this.rows(head.size, head.columns, pad)
    return Array.from({ length: head.size }, () => this.item(pad + 1))
  }

  rows(size: number, columns: string[], pad: number): Json[] {
    return Array.from({ length: size }, () => {
      const line = this.lines[this.i++]
      if (line === undefined || this.indentOf(line) !== pad) throw new Error(`row ${this.i} missing`)
      const values = cells(line.slice(pad))
      if (values.length !== columns.length) throw new Error(`row ${this.i} has ${values.length} cells`)
      const row: Record<string, Json> = {}
      columns.forEach((c, k) => {
        if (values[k] !== undefined) row[c] = values[k]!
      })
      return row
    })
  }

  /** The fields at indent `pad`, while there are. */
  object(pad: number, into: Record<string, Json> = {}): Record<string, Json> {
    while (this.i < this.lines.length && this.indentOf(this.lines[this.i]) === pad) {
      const head = readHead(this.lines[this.i]!.slice(pad))
      if (head?.key === undefined) throw new Error(`line ${this.i + 1} is not a field`)
      this.i++
      into[head.key] = this.valueOf(head, pad)
    }
    return into
  }

  /** One `- ` item at indent `pad`. */
  item(pad: number): Json {
    const line = this.lines[this.i]
    if (line === undefined || this.indentOf(line) !== pad || !line.slice(pad).startsWith('- '))
      throw new Error(`line ${this.i + 1} is not an item`)
    const content = line.slice(pad + 2)
    const head = readHead(content)
    this.i++
    if (!head) return scalar(content)
    if (head.key === undefined) return this.valueOf(head, pad + 2)
    const first = { [head.key]: this.valueOf(head, pad + 2) }
    return this.object(pad + 2, first)
  }
}

/** The value compact text was made from. */
export function decodeCompact(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {}
  const lines = text.split('\n')
  const reader = new Reader(lines)
  const head = readHead(lines[0]!)
  let value: Json
  if (!head) {
    if (lines.length !== 1) throw new Error('a scalar is one line')
    return scalar(text)
  }
  if (head.key === undefined) {
    reader.i = 1
    value = reader.valueOf(head, 0)
  } else value = reader.object(0)
  if (reader.i !== lines.length) throw new Error(`line ${reader.i + 1} is left over`)
  return value
}

/**
 * A tool result as compact text (SPEC 12): what a model reads over MCP, in `run --format compact` and
 * in the Agent Skills scripts. `key: value` lines, one space of indent per level of nesting, arrays of
 * records as tables (`stories[30]{rank,title}:`, then a row a line), arrays of scalars on one line
 * (`topics[3]: a,b,c`). A string is written as it is unless it could be read as something else; then
 * it is a JSON string. A value written at the place of a scalar that starts with `{` or `[` is JSON.
 * docs/runtime.md, "Compact results", is the grammar; test/helpers/compact-decode.ts reads it back.
 * Pure, and bounded: past MAX_INPUT characters of JSON, or MAX_DEPTH levels, the value is JSON.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Obj = { [key: string]: Json }

/**
 * Past this many characters of JSON the result is its compact JSON (the text's own work is linear, but pages are
 * small).
 */
const MAX_INPUT = 4 * 1024 * 1024
/** Deeper values are written as JSON in place (one line). */
const MAX_DEPTH = 8
/** A table with more columns than this is a list: its header alone would be a paragraph. */
const MAX_COLUMNS = 32

const KEY_RE = /^[A-Za-z_$][\w$.-]*$/
const NUMBER_RE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/
/** Whitespace at either end, a control character or a line separator: quoted, so the line stays one line. */
const UNSAFE_RE = /^\s|\s$|[\p{Cc}\u2028\u2029]/u

/** Where a scalar is written: after `key: ` (to the end of the line), in a row or inline list, or alone. */
type Place = 'value' | 'cell' | 'item'

const isObj = (v: Json): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v)
const isScalar = (v: Json) => v === null || typeof v !== 'object'
const isEmpty = (v: Json) => (Array.isArray(v) ? v.length === 0 : isObj(v) && Object.keys(v).length === 0)

/** Whether a string must be written as a JSON string to be read back as that string. */
function needsQuotes(s: string, place: Place): boolean {
  if (s === '' || UNSAFE_RE.test(s) || s === 'true' || s === 'false' || s === 'null' || NUMBER_RE.test(s)) return true
  const first = s[0]
  if (first === '"' || first === '[' || first === '{') return true
  if (place === 'cell') return s.includes(',')
  // Alone or after `- `, a colon could read as a key.
  return place === 'item' && s.includes(':')
}

function scalar(v: Json, place: Place): string {
  if (typeof v === 'string') return needsQuotes(v, place) ? JSON.stringify(v) : v
  // Objects and arrays in a cell or past MAX_DEPTH: JSON in place.
  return JSON.stringify(v)
}

const keyText = (k: string) => (KEY_RE.test(k) ? k : JSON.stringify(k))

/** The columns of a table of these rows (first-seen order), or undefined when they are not all objects. */
function columnsOf(rows: Json[]): string[] | undefined {
  const seen = new Set<string>()
  for (const row of rows) {
    if (!isObj(row)) return undefined
    for (const k of Object.keys(row)) {
      seen.add(k)
      if (seen.size > MAX_COLUMNS) return undefined
    }
  }
  return [...seen]
}

/** A table row: each column's value (JSON for objects and arrays), an empty cell for a missing key. */
const rowText = (row: Obj, columns: string[]) =>
  columns.map((c) => (Object.hasOwn(row, c) ? scalar(row[c]!, 'cell') : '')).join(',')

interface Writer {
  out: string[]
}

/** `head[N]...` lines of an array at `pad` (`head` is `key` or empty for a list item or the whole result). */
function writeArray(w: Writer, pad: string, head: string, list: Json[], depth: number): void {
  if (list.length === 0) return void w.out.push(`${pad}${head}${head ? ':' : ''}[]`)
  const size = `${head}[${list.length}]`
  if (list.every(isScalar)) return void w.out.push(`${pad}${size}:${list.map((v) => scalar(v, 'cell')).join(',')}`)
  const columns = columnsOf(list)
  const asList: Writer = { out: [`${pad}${size}:`] }
  for (const item of list) writeItem(asList, `${pad} `, item, depth + 1)
  if (columns) {
    const header = `${pad}${size}{${columns.map(keyText).join(',')}}:`
    const rows = list.map((row) => `${pad}${rowText(row as Obj, columns)}`)
    if (length(rows) + header.length < length(asList.out)) return void w.out.push(header, ...rows)
  }
  w.out.push(...asList.out)
}

const length = (lines: string[]) => lines.reduce((n, l) => n + l.length + 1, 0)

/** One list item: `- scalar`, or `- ` before the first line of an object or array (the rest two spaces in). */
function writeItem(w: Writer, pad: string, item: Json, depth: number): void {
  if (isScalar(item) || isEmpty(item) || depth > MAX_DEPTH) return void w.out.push(`${pad}- ${scalar(item, 'item')}`)
  const inner: Writer = { out: [] }
  if (Array.isArray(item)) writeArray(inner, `${pad}  `, '', item, depth)
  else writeFields(inner, `${pad}  `, item as Obj, depth)
  inner.out[0] = `${pad}- ${inner.out[0]!.slice(pad.length + 2)}`
  w.out.push(...inner.out)
}

/** An object's fields at `pad`: `key: scalar`, or `key:` with the value's lines one space further in. */
function writeFields(w: Writer, pad: string, obj: Obj, depth: number): void {
  for (const [k, v] of Object.entries(obj)) {
    const key = keyText(k)
    if (isScalar(v) || isEmpty(v) || depth >= MAX_DEPTH) w.out.push(`${pad}${key}:${scalar(v, 'value')}`)
    else if (Array.isArray(v)) writeArray(w, pad, key, v, depth + 1)
    else {
      w.out.push(`${pad}${key}:`)
      writeFields(w, `${pad} `, v as Obj, depth + 1)
    }
  }
}

/**
 * A JSON value (a tool's result as JSON.stringify sees it) as compact text; its compact JSON when
 * that is shorter, or when the value is larger than MAX_INPUT.
 */
export function compactText(value: unknown): string {
  const json = JSON.stringify(value ?? null)
  if (json.length > MAX_INPUT) return json
  const data = JSON.parse(json) as Json
  if (isScalar(data) || isEmpty(data)) return scalar(data, 'item')
  const w: Writer = { out: [] }
  if (Array.isArray(data)) writeArray(w, '', '', data, 0)
  else writeFields(w, '', data as Obj, 0)
  const text = w.out.join('\n')
  return text.length <= json.length ? text : json
}

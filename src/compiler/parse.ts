import { type Node as JsonNode, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser'

export type JsonPath = readonly (string | number)[]

export interface Position {
  line: number
  column: number
}

/** A parsed JSON file that still knows where every key and value came from. */
export interface JsonDocument {
  value: unknown
  /** Position of the key of the member at `path` (of the value itself for array items and the root). */
  locate: (path: JsonPath) => Position
  /** Keys that appear more than once in one object, with the position of each repeat. */
  duplicateKeys: { path: JsonPath; position: Position }[]
}

/** Where a JSON text fails: the first syntax error, and the ones after it. */
export interface JsonFailure {
  message: string
  position: Position
  /** The other syntax errors found after the first (an error that follows from the one before is left out). */
  more: { message: string; position: Position }[]
}

const MAX_JSON_DEPTH = 64
import { BOM, stripBom } from './bom'

export { BOM, stripBom }

/** The offset at which each line of a text starts. */
export function lineStarts(text: string): number[] {
  const starts = [0]
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return starts
}

/** Maps offsets in a text to 1-based line and column. */
export function createLineIndex(text: string): (offset: number) => Position {
  const starts = lineStarts(text)
  return (offset) => {
    let lo = 0
    let hi = starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (starts[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 }
  }
}

/**
 * One pass over JSON text: the offset where nesting first exceeds `max` (or -1), and how many keys
 * it has. A string is skipped to its closing quote by `indexOf` (manifests are mostly strings).
 */
function scanJson(text: string, max: number): { deep: number; keys: number } {
  let depth = 0
  let keys = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      i = closingQuote(text, i)
      if (i < 0) break
      // A string followed by a colon is a key: counted to find duplicate keys without a tree.
      let next = i + 1
      while (isJsonWhitespace(text.charCodeAt(next))) next++
      if (text.charCodeAt(next) === 58) keys++
    } else if (c === 123 || c === 91) {
      if (++depth > max) return { deep: i, keys }
    } else if (c === 125 || c === 93) depth--
  }
  return { deep: -1, keys }
}

/** The offset of the quote that ends the string opened at `open` (one after an even run of backslashes), or -1. */
function closingQuote(text: string, open: number): number {
  let at = text.indexOf('"', open + 1)
  while (at > 0) {
    let slashes = 0
    while (text.charCodeAt(at - 1 - slashes) === 92) slashes++
    if (slashes % 2 === 0) return at
    at = text.indexOf('"', at + 1)
  }
  return -1
}

/** JSON's whitespace: space, tab, line feed, carriage return. */
const isJsonWhitespace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13

/** A readable message and the offset to point at (a trailing comma rather than what follows it). */
function describeParseError(error: ParseError, text: string): { message: string; offset: number } {
  let before = error.offset - 1
  while (before >= 0 && /\s/.test(text[before]!)) before--
  if (text[before] === ',' && /^[}\]]/.test(text.slice(error.offset)))
    return { message: 'trailing comma', offset: before }
  const found = text.slice(error.offset, error.offset + Math.min(error.length || 1, 20))
  const what = printParseErrorCode(error.error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
  return { message: found ? `${what} at ${JSON.stringify(found)}` : `${what} at end of input`, offset: error.offset }
}

/** Counts the keys in a valid JSON text: strings followed by a colon (values never are). */
function countParsedKeys(value: unknown): number {
  let count = 0
  const stack = [value]
  while (stack.length) {
    const item = stack.pop()
    if (item === null || typeof item !== 'object') continue
    if (Array.isArray(item)) stack.push(...item)
    else {
      const keys = Object.keys(item)
      count += keys.length
      for (const key of keys) stack.push((item as Record<string, unknown>)[key])
    }
  }
  return count
}

/**
 * The syntax errors jsonc-parser finds, without those that only follow from the one before: an
 * error that starts where (or before) the previous one ends (`tru,` is an invalid symbol, and then
 * a missing value at the comma) says nothing new.
 */
function syntaxErrors(text: string): ParseError[] {
  const errors: ParseError[] = []
  parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false })
  const kept: ParseError[] = []
  for (const error of errors) {
    const last = kept.at(-1)
    if (!last || error.offset > last.offset + last.length) kept.push(error)
  }
  return kept
}

/** Where strict parsing fails, every syntax error with jsonc-parser's position (JSON.parse's messages vary). */
function describeFailure(text: string, toPosition: (offset: number) => Position, fallback: unknown): JsonFailure {
  const [first, ...rest] = syntaxErrors(text).map((error) => {
    const { message, offset } = describeParseError(error, text)
    return { message, position: toPosition(offset) }
  })
  if (first) return { ...first, more: rest }
  // jsonc-parser is more lenient than JSON.parse in a few corners (control characters in strings).
  const message = fallback instanceof Error ? fallback.message : 'empty file'
  const at = /position (\d+)/.exec(message)
  return { message, position: toPosition(at ? Number(at[1]) : 0), more: [] }
}

/**
 * Parses strict JSON (no comments, no trailing commas) and keeps positions. JSON.parse does the
 * work; the position tree is built only when a position is asked for (valid files rarely need it).
 * A UTF-8 BOM is tolerated; positions count from the first visible character.
 */
export function parseJsonDocument(source: string): JsonDocument | JsonFailure {
  const text = stripBom(source)
  let index: ((offset: number) => Position) | undefined
  const toPosition = (offset: number) => {
    index ??= createLineIndex(text)
    return index(offset)
  }
  const { deep, keys } = scanJson(text, MAX_JSON_DEPTH)
  if (deep >= 0)
    return { message: `JSON nests deeper than ${MAX_JSON_DEPTH} levels`, position: toPosition(deep), more: [] }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return describeFailure(text, toPosition, error)
  }
  let tree: JsonNode | undefined
  const treeOf = () => {
    tree ??= parseTree(text)!
    return tree
  }
  const duplicates = keys !== countParsedKeys(value)
  // Each object's members by name, made when first looked in: a record's thousands of lookups stay linear.
  const members: MemberIndex = new WeakMap()
  return {
    value,
    locate: (path) => {
      const node = findNode(treeOf(), path, members)
      const key = node?.parent?.type === 'property' ? node.parent.children?.[0] : undefined
      return toPosition((key ?? node ?? treeOf()).offset)
    },
    duplicateKeys: duplicates ? collectDuplicateKeys(treeOf(), toPosition) : [],
  }
}

export function isJsonFailure(result: JsonDocument | JsonFailure): result is JsonFailure {
  return !('value' in result)
}

/** The members of an object node by name (the last of a repeated key, as in JSON.parse). */
type MemberIndex = WeakMap<JsonNode, Map<string, JsonNode | undefined>>

function membersOf(node: JsonNode, index: MemberIndex): Map<string, JsonNode | undefined> {
  let members = index.get(node)
  if (!members) {
    members = new Map()
    for (const property of node.children ?? []) {
      const key = property.children?.[0]
      if (key) members.set(String(key.value), property.children?.[1])
    }
    index.set(node, members)
  }
  return members
}

/** Like jsonc-parser's findNodeAtLocation, but the last duplicate key wins, as in JSON.parse. */
function findNode(root: JsonNode, path: JsonPath, index: MemberIndex): JsonNode | undefined {
  let node: JsonNode | undefined = root
  for (const segment of path) {
    if (!node?.children) return undefined
    if (node.type === 'array') {
      node = /^\d+$/.test(String(segment)) ? node.children[Number(segment)] : undefined
      continue
    }
    node = membersOf(node, index).get(String(segment))
  }
  return node
}

function collectDuplicateKeys(root: JsonNode, toPosition: (offset: number) => Position): JsonDocument['duplicateKeys'] {
  const found: JsonDocument['duplicateKeys'] = []
  const stack: { node: JsonNode; path: JsonPath }[] = [{ node: root, path: [] }]
  while (stack.length) {
    const { node, path } = stack.pop()!
    if (node.type === 'array') {
      for (const [i, child] of (node.children ?? []).entries()) stack.push({ node: child, path: [...path, i] })
    }
    if (node.type !== 'object') continue
    const seen = new Set<string>()
    for (const property of node.children ?? []) {
      const [key, child] = property.children ?? []
      if (!key || !child) continue
      const name = String(key.value)
      if (seen.has(name)) found.push({ path: [...path, name], position: toPosition(key.offset) })
      seen.add(name)
      stack.push({ node: child, path: [...path, name] })
    }
  }
  return found
}

/**
 * Which `urls` patterns URLPattern can match in time linear in the path. URLPattern compiles a
 * pathname pattern to one backtracking RegExp: `:name` becomes `[^/]+?`, `*` becomes `.*`, a
 * repeated part `(?:/(?:value)(?:/(?:value))*)`, a custom group its regexp as written. Backtracking
 * stays linear while no two parts that can take any length compete for the same characters; this
 * module refuses the shapes where they do (a nested quantified group took minutes on a 10 KB path).
 *
 * It reads a pattern URLPattern already accepted (so the grammar is known to be well formed).
 */
import type { SlowShape } from '../diagnostics/url-messages'
import { type RegexpShape, regexpShape } from './regexp-shape'

/** Optional and repeated parts allowed in one pattern: each can double the ways to match. */
const MAX_MODIFIERS = 8

interface Part {
  /** The text of the pattern this part came from. */
  text: string
  kind: 'fixed' | 'segment' | 'full' | 'regexp'
  value: string
  prefix: string
  suffix: string
  modifier: '' | '?' | '*' | '+'
}

const NAME_CHAR_RE = /[$_\p{ID_Continue}\u200C\u200D]/u

/** Index after a `(...)` group starting at `i` (escapes and nested parentheses skipped). */
function groupEnd(pattern: string, i: number): number {
  let depth = 0
  for (let j = i; j < pattern.length; j++) {
    const c = pattern[j]
    if (c === '\\') j++
    else if (c === '(') depth++
    else if (c === ')' && --depth === 0) return j + 1
  }
  return pattern.length
}

/** Reads a name, a regexp group or a `*` at `i`; undefined when none starts there. */
function readValue(pattern: string, i: number): { kind: Part['kind']; value: string; end: number } | undefined {
  if (pattern[i] === ':') {
    let end = i + 1
    while (end < pattern.length && NAME_CHAR_RE.test(pattern[end]!)) end++
    if (pattern[end] === '(') {
      const close = groupEnd(pattern, end)
      return { kind: 'regexp', value: pattern.slice(end + 1, close - 1), end: close }
    }
    return { kind: 'segment', value: '', end }
  }
  if (pattern[i] === '(') {
    const close = groupEnd(pattern, i)
    const value = pattern.slice(i + 1, close - 1)
    return { kind: value === '.*' ? 'full' : 'regexp', value, end: close }
  }
  if (pattern[i] === '*') return { kind: 'full', value: '', end: i + 1 }
  return undefined
}

const modifierAt = (pattern: string, i: number): Part['modifier'] =>
  pattern[i] === '?' || pattern[i] === '*' || pattern[i] === '+' ? pattern[i] : ''

/** Fixed text up to the next special character, escapes resolved. */
function readText(pattern: string, i: number, stop: string): { text: string; end: number } {
  let text = ''
  while (i < pattern.length && !stop.includes(pattern[i]!)) {
    if (pattern[i] === '\\') i++
    text += pattern[i++] ?? ''
  }
  return { text, end: i }
}

/** A `{prefix value suffix}modifier` group at `i` (its `{`). */
function readBraces(pattern: string, i: number): { part: Part; end: number } {
  const prefix = readText(pattern, i + 1, ':(*}')
  const value = readValue(pattern, prefix.end)
  const suffix = value ? readText(pattern, value.end, '}') : { text: '', end: prefix.end }
  const modifier = modifierAt(pattern, suffix.end + 1)
  const end = suffix.end + 1 + (modifier ? 1 : 0)
  const part: Part = value
    ? { text: '', kind: value.kind, value: value.value, prefix: prefix.text, suffix: suffix.text, modifier }
    : { text: '', kind: 'fixed', value: prefix.text, prefix: '', suffix: '', modifier }
  return { part: { ...part, text: pattern.slice(i, end) }, end }
}

/** The parts of a pathname pattern, in order: fixed text, names, regexp groups and wildcards. */
function partsOf(pattern: string): Part[] {
  const parts: Part[] = []
  let i = 0
  while (i < pattern.length) {
    if (pattern[i] === '{') {
      const { part, end } = readBraces(pattern, i)
      parts.push(part)
      i = end
      continue
    }
    const slash = pattern[i] === '/' && readValue(pattern, i + 1) ? 1 : 0
    const value = readValue(pattern, i + slash)
    if (value) {
      const modifier = modifierAt(pattern, value.end)
      const end = value.end + (modifier ? 1 : 0)
      const prefix = slash ? '/' : ''
      parts.push({ text: pattern.slice(i, end), kind: value.kind, value: value.value, prefix, suffix: '', modifier })
      i = end
      continue
    }
    const { text, end } = readText(pattern, i + (pattern[i] === '\\' ? 0 : 1), '{:(*/')
    const fixed = pattern[i] === '\\' ? text : pattern[i] + text
    parts.push({ text: pattern.slice(i, end), kind: 'fixed', value: fixed, prefix: '', suffix: '', modifier: '' })
    i = end
  }
  return parts
}

/** How a part's value behaves: how many of its pieces can take any length, and whether one can take a `/`. */
function valueShape(part: Part): RegexpShape {
  if (part.kind === 'segment') return { unbounded: 1, slash: false }
  if (part.kind === 'full') return { unbounded: 1, slash: true }
  if (part.kind === 'regexp') return regexpShape(part.value)
  return { unbounded: 0, slash: part.value.includes('/') }
}

/** The first reason `pattern` (accepted by URLPattern) cannot be matched in linear time, or undefined. */
export function slowShape(pattern: string): SlowShape | undefined {
  const parts = partsOf(pattern)
  if (parts.filter((p) => p.modifier).length > MAX_MODIFIERS) return { shape: 'modifiers', part: pattern }
  let run = 0
  let wide = 0
  // Whether the run so far is one part that takes only digits: a non-digit it must pass ends it.
  let digits = false
  for (const [index, part] of parts.entries()) {
    const shape = valueShape(part)
    if (shape.nested) return { shape: 'nested-repeat', part: part.text }
    const repeated = part.modifier === '+' || part.modifier === '*'
    const separated = `${part.prefix}${part.suffix}`.includes('/')
    if (repeated && (shape.unbounded > 0 || part.kind !== 'fixed') && (!separated || shape.slash))
      return { shape: 'repeat-separator', part: part.text }
    // A "/" every match must pass ends a run: what follows starts at a segment of its own.
    if (part.prefix.includes('/') || (part.kind === 'fixed' && !part.modifier && part.value.includes('/'))) run = 0
    const lead = part.kind === 'fixed' ? (part.modifier === '' ? part.value[0] : undefined) : part.prefix[0]
    if (digits && run === 1 && lead !== undefined && !/[0-9]/.test(lead)) run = 0
    const unbounded = repeated ? Math.max(1, shape.unbounded) : shape.unbounded
    const spans = shape.slash || (repeated && separated)
    // A last part that takes any length and any character always matches the rest: nothing backtracks into it.
    if (unbounded === 0 || (spans && index === parts.length - 1)) continue
    digits = run === 0 && !repeated && shape.digits === true
    run += unbounded
    if (spans) wide++
    if (run > 1) return { shape: 'ambiguous', part: part.text }
    if (wide > 1) return { shape: 'wildcards', part: part.text }
  }
  return undefined
}

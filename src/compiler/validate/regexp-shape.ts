/**
 * The shape of a URLPattern custom regexp group (`:id(\d+)`) that says how it backtracks: how many
 * of its pieces can take any length one after another, whether it can take a `/`, and whether it
 * repeats a group (`(?:a+)+`, `(?:a|ab)*`: exponential on a path that almost matches). It reads a
 * source URLPattern already compiled with the `u` flag, so only well-formed regexps come here.
 */

export interface RegexpShape {
  /** Pieces that take any length and can follow one another (the most along one alternative). */
  unbounded: number
  /** Whether some piece can match `/` (it may then span path segments). */
  slash: boolean
  /** A group repeated by a quantifier allowing more than one repetition (and an unbounded inner part or count). */
  nested?: boolean
  /** Whether it takes only digits (`\d`, `[0-9]`): a non-digit after it then ends what it can take. */
  digits?: boolean
}

/** A bounded count above this backtracks like an unbounded one. */
const LARGE_COUNT = 255
const SLASH = 0x2f

interface Quantifier {
  /** At most this many repetitions (Infinity for `*`, `+`, `{n,}`). */
  max: number
  end: number
}

/** The quantifier at `i`, if any (with its lazy `?`). */
function quantifierAt(source: string, i: number): Quantifier | undefined {
  const c = source[i]
  const lazy = (end: number) => (source[end] === '?' ? end + 1 : end)
  if (c === '*' || c === '+') return { max: Number.POSITIVE_INFINITY, end: lazy(i + 1) }
  if (c === '?') return { max: 1, end: lazy(i + 1) }
  const braces = c === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24)) : null
  if (!braces) return undefined
  const max = braces[2] === undefined ? Number(braces[1]) : braces[3] ? Number(braces[3]) : Number.POSITIVE_INFINITY
  return { max, end: lazy(i + braces[0].length) }
}

/** Whether a class escape (`\d`, `\S`, `\p{..}`...) can match `/`; `letter` follows the backslash. */
const escapeTakesSlash = (letter: string) => 'DSWpP/'.includes(letter)

/** End of a `[...]` class at `i` and whether it can match `/`. */
function readClass(source: string, i: number): { end: number; slash: boolean } {
  const negated = source[i + 1] === '^'
  let j = negated ? i + 2 : i + 1
  let slash = false
  let previous = -1
  for (; j < source.length && source[j] !== ']'; j++) {
    if (source[j] === '\\') {
      slash ||= escapeTakesSlash(source[++j] ?? '')
      previous = -1
      continue
    }
    const code = source.charCodeAt(j)
    if (source[j] === '-' && previous >= 0 && source[j + 1] !== ']' && source[j + 1] !== undefined) {
      const last = source.charCodeAt(++j)
      slash ||= previous <= SLASH && SLASH <= last
      previous = -1
      continue
    }
    slash ||= code === SLASH
    previous = code
  }
  // A negated class takes `/` unless it names it.
  return { end: j + 1, slash: negated ? !slash : slash }
}

/** Reads one atom at `i`: its end and shape. */
function readAtom(source: string, i: number): { end: number; shape: RegexpShape; group: boolean } {
  const c = source[i]
  if (c === '(') {
    const inner = readDisjunction(source, source.startsWith('(?<', i) && '=!'.includes(source[i + 3]!) ? i + 4 : i + 3)
    return { end: inner.end + 1, shape: inner.shape, group: true }
  }
  if (c === '[') {
    const { end, slash } = readClass(source, i)
    const digits = source.slice(i, end) === '[0-9]' || source.slice(i, end) === '[\\d]'
    return { end, shape: { unbounded: 0, slash, digits }, group: false }
  }
  if (c === '\\') {
    const letter = source[i + 1] ?? ''
    const braces = (letter === 'p' || letter === 'P') && source[i + 2] === '{' ? source.indexOf('}', i) : -1
    const end = braces >= 0 ? braces + 1 : i + 2
    return { end, shape: { unbounded: 0, slash: escapeTakesSlash(letter), digits: letter === 'd' }, group: false }
  }
  return { end: i + 1, shape: { unbounded: 0, slash: c === '.' || c === '/' }, group: false }
}

/** Reads alternatives from `i` up to a closing `)` or the end: the shape of the longest alternative. */
function readDisjunction(source: string, i: number): { end: number; shape: RegexpShape } {
  const shape: RegexpShape = { unbounded: 0, slash: false, digits: true }
  let unbounded = 0
  while (i < source.length && source[i] !== ')') {
    if (source[i] === '|') {
      unbounded = 0
      i++
      continue
    }
    if (source[i] === '^' || source[i] === '$') {
      i++
      continue
    }
    const atom = readAtom(source, i)
    const quantifier = quantifierAt(source, atom.end)
    const many = quantifier !== undefined && quantifier.max > 1
    const large = quantifier !== undefined && quantifier.max > LARGE_COUNT
    if (atom.shape.nested || (atom.group && many && (large || atom.shape.unbounded > 0))) shape.nested = true
    unbounded += atom.shape.unbounded + (large ? 1 : 0)
    shape.unbounded = Math.max(shape.unbounded, unbounded)
    shape.slash ||= atom.shape.slash
    shape.digits &&= atom.shape.digits === true
    i = quantifier?.end ?? atom.end
  }
  return { end: i, shape }
}

/** The shape of a custom regexp group's source (without its parentheses). */
export function regexpShape(source: string): RegexpShape {
  return readDisjunction(source, 0).shape
}

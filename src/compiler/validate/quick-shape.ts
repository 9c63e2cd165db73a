import { compiles } from './v8-syntax'

/** `function (`, `async function (`, `function* (`, without a name (a named one is left to acorn). */
const FUNCTION_HEAD_RE = /^\s*(async\s+)?function\s*(\*?)\s*\(/
/** An arrow's head whose parameters hold no parentheses, strings, comments or regular expressions. */
const ARROW_HEAD_RE = /^\s*(?:async\s*)?(?:\([\w$\s,.{}[\]:=]*\)|(?:async\s+)?[A-Za-z_$][\w$]*)\s*=>/

/**
 * Whether a bare browser tool (JavaScript) is certainly one function expression and nothing else,
 * checked by V8 compiling it in a few positions (compiling runs nothing), several times faster
 * than a parse by acorn. False means unsure: acorn then decides, with its exact message and
 * position. A function is compiled as an object method (nothing but a comma may follow it) and as
 * a class method (anything but a comma may); an arrow, whose head the pattern found, as a computed
 * key (one expression, no comma: the arrow's body takes all that follows its head).
 */
export async function isSoleFunction(source: string): Promise<boolean> {
  // A method may use `super`, a function expression may not.
  if (source.includes('super')) return false
  const fn = FUNCTION_HEAD_RE.exec(source)
  if (fn) {
    const method = `${fn[1] ? 'async ' : ''}${fn[2]}m(${source.slice(fn[0].length)}\n`
    const [asObject, asClass] = await Promise.all([compiles(`({${method}})`), compiles(`(class{${method}})`)])
    return asObject && asClass
  }
  return ARROW_HEAD_RE.test(source) && compiles(`({[${source}\n]:0})`)
}

import { type ExportSpecifier, type ImportSpecifier, initSync, parse } from 'es-module-lexer'
import type { BindingKind, ModuleExports } from './module-types'
import { compiles } from './v8-syntax'

/**
 * The exports of a module without a full JavaScript parse, for the common shapes of tool files
 * (`export function`, `export const f = () => ...`, `export * from`): es-module-lexer lists the
 * exports, and V8 checks the syntax of the rest (the module with its import and export syntax
 * blanked out, compiled as a strict script; compiling runs nothing, and top-level `await`, which
 * a script rejects, is left to acorn). Both
 * are several times faster than acorn. Returns undefined whenever either is unsure (a syntax
 * error, an export whose kind needs the whole module): acorn then decides, with its exact message
 * and position.
 */
export async function quickExports(code: string): Promise<ModuleExports | undefined> {
  initSync()
  let lexed: readonly [readonly ImportSpecifier[], readonly ExportSpecifier[], boolean, boolean]
  try {
    lexed = parse(code)
  } catch {
    return undefined
  }
  const [imports, exportList] = lexed
  const blank: Blanks = new Map()
  if (code.startsWith('#!')) blank.set(0, { end: code.indexOf('\n') >>> 0 })
  const starFrom: string[] = []
  for (const imp of imports) {
    if (imp.t === 2) continue
    if (imp.t === 3) {
      // `import.meta` is module syntax: an identifier of the same length stands in for it.
      blank.set(imp.s, { end: imp.s + 'import.meta'.length, text: 'importXmeta' })
      continue
    }
    if (imp.t !== 1 || imp.n === undefined) return undefined
    blank.set(imp.ss, { end: imp.se })
    const statement = code.slice(imp.ss, imp.se)
    if (/^export\s*\*\s*from\b/.test(statement)) starFrom.push(imp.n)
    else if (
      statement.startsWith('export') &&
      !/^export\s*\{/.test(statement) &&
      !/^export\s*\*\s*as\b/.test(statement)
    )
      return undefined
  }
  const exports = new Map<string, BindingKind>()
  for (const entry of exportList) {
    const kind = exportKind(code, entry, imports, blank)
    if (!kind) return undefined
    exports.set(entry.n, kind)
  }
  const text = blanked(code, blank)
  return text !== undefined && (await compiles(`"use strict";${text}`)) ? { exports, starFrom } : undefined
}

const FUNCTION_DECLARATION_RE = /^export\s+(?:async\s+)?function\b/
const VARIABLE_RE = /^export\s+(?:const|let|var)\s/
/**
 * The initializer starts a function or an arrow function (which then is the whole initializer, or a call or operand of
 * one: never a literal).
 */
const FUNCTION_INIT_RE = /^\s*=\s*(?:async\s+function\b|function\b|(?:async\s*)?(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>)/

/** What the export holds, blanking its syntax; undefined when only a full parse can tell. */
function exportKind(
  code: string,
  entry: ExportSpecifier,
  imports: readonly ImportSpecifier[],
  blank: Blanks,
): BindingKind | undefined {
  const statement = code.slice(entry.ss, entry.ss + 64)
  // Re-exports (`export * as ns from`, `export { a } from`) are statements the imports listed.
  const reexport = imports.find((imp) => imp.t === 1 && imp.ss === entry.ss)
  if (reexport) return /^export\s*\*/.test(statement) ? 'other' : 'unknown'
  if (FUNCTION_DECLARATION_RE.test(statement) && entry.ls === entry.s) {
    blank.set(entry.ss, { end: entry.ss + 'export'.length })
    return 'function'
  }
  if (/^export\s+class\b/.test(statement) && entry.ls === entry.s) {
    blank.set(entry.ss, { end: entry.ss + 'export'.length })
    return 'other'
  }
  if (
    VARIABLE_RE.test(statement) &&
    entry.ls === entry.s &&
    FUNCTION_INIT_RE.test(code.slice(entry.le, entry.le + 256))
  ) {
    blank.set(entry.ss, { end: entry.ss + 'export'.length })
    return 'function'
  }
  const defaultMatch = /^export\s+default\s+(?:async\s+function\b|function\b|class\b)/.exec(statement)
  if (entry.n === 'default' && defaultMatch) {
    // `void function () {}` is an expression statement, as an anonymous declaration is not.
    const keyword = /^export\s+default/.exec(statement)![0]
    blank.set(entry.ss, { end: entry.ss + keyword.length, text: `${' '.repeat(keyword.length - 4)}void` })
    return defaultMatch[0].endsWith('class') ? 'other' : 'function'
  }
  return undefined
}

/** Spans of module syntax by start: blanked (newlines kept), or replaced by text of the same length. */
type Blanks = Map<number, { end: number; text?: string }>

/** The module with its module syntax blanked out; undefined when the spans overlap. */
function blanked(code: string, blank: Blanks): string | undefined {
  let text = ''
  let at = 0
  for (const [start, span] of [...blank].sort((a, b) => a[0] - b[0])) {
    if (start < at) return undefined
    text += code.slice(at, start) + (span.text ?? code.slice(start, span.end).replace(/[^\n]/g, ' '))
    at = span.end
  }
  return text + code.slice(at)
}

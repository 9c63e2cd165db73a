import {
  type AnonymousClassDeclaration,
  type AnonymousFunctionDeclaration,
  type Declaration,
  type Expression,
  type Identifier,
  type Literal,
  type Node,
  type Program,
  parse,
  parseExpressionAt,
  tokenizer,
} from 'acorn'
import { transform } from 'esbuild'
import { isTypeScript } from '../paths'
import { quickExports } from './quick-exports'
import { isSoleFunction } from './quick-shape'

/** What kind of value a binding holds, as far as the source shows without running it. */
export type BindingKind = 'function' | 'other' | 'unknown'

export interface ModuleExports {
  exports: Map<string, BindingKind>
  /** Sources of `export * from '...'`. */
  starFrom: string[]
}

export interface SourceError {
  message: string
  line: number
  column: number
}

/** A statement at the top level of a module. */
type TopLevel = Program['body'][number]
/** What `export default` may hold. */
type DefaultExported = AnonymousFunctionDeclaration | AnonymousClassDeclaration | Declaration | Expression

// No `locations`: acorn is markedly faster without them; errors carry a position anyway.
const ACORN = { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true } as const
const MODULE_SYNTAX_RE = /^[ \t]*(?:import[\s{*'"]|export[\s{*])/m

/** A browser tool file is an ES module when it has top-level import/export lines. */
export function looksLikeModule(source: string): boolean {
  return MODULE_SYNTAX_RE.test(source)
}

function acornError(error: unknown): SourceError {
  const e = error as { message: string; loc?: { line: number; column: number } }
  return { message: e.message.replace(/ \(\d+:\d+\)$/, ''), line: e.loc?.line ?? 1, column: (e.loc?.column ?? 0) + 1 }
}

/** Strips TypeScript with esbuild (no code runs); syntax errors come back with their position. */
async function stripTypes(source: string, file: string): Promise<string | SourceError> {
  try {
    const result = await transform(source, {
      loader: 'ts',
      format: 'esm',
      sourcefile: file,
      target: 'esnext',
      logLevel: 'silent',
    })
    return result.code
  } catch (error) {
    const first = (error as { errors?: { text: string; location?: { line: number; column: number } }[] }).errors?.[0]
    return {
      message: first?.text ?? String(error),
      line: first?.location?.line ?? 1,
      column: (first?.location?.column ?? 0) + 1,
    }
  }
}

function kindOfExpression(node: Expression | null | undefined): BindingKind {
  if (!node) return 'other'
  if (node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression') return 'function'
  if (/^(Literal|ObjectExpression|ArrayExpression|TemplateLiteral|ClassExpression|NewExpression)$/.test(node.type))
    return 'other'
  return 'unknown'
}

/** The declaration a top-level statement makes: itself, or what it exports. */
function declarationOf(statement: TopLevel): TopLevel | DefaultExported | null | undefined {
  if (statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration') {
    return statement.declaration
  }
  return statement.type === 'ExportAllDeclaration' ? undefined : statement
}

function topLevelBindings(body: readonly TopLevel[]): Map<string, BindingKind> {
  const bindings = new Map<string, BindingKind>()
  const declare = (decl: TopLevel | DefaultExported | null | undefined) => {
    if (!decl) return
    if (decl.type === 'FunctionDeclaration' && decl.id) bindings.set(decl.id.name, 'function')
    if (decl.type === 'ClassDeclaration' && decl.id) bindings.set(decl.id.name, 'other')
    if (decl.type === 'VariableDeclaration') {
      for (const d of decl.declarations)
        if (d.id.type === 'Identifier') bindings.set(d.id.name, kindOfExpression(d.init))
    }
  }
  for (const statement of body) declare(declarationOf(statement))
  return bindings
}

function collectExports(program: Program): ModuleExports {
  const body = program.body
  const bindings = topLevelBindings(body)
  const exports = new Map<string, BindingKind>()
  const starFrom: string[] = []
  const nameOf = (n: Identifier | Literal) => (n.type === 'Identifier' ? n.name : String(n.value))
  for (const statement of body) {
    if (statement.type === 'ExportAllDeclaration') {
      if (statement.exported) exports.set(nameOf(statement.exported), 'other')
      else starFrom.push(String(statement.source.value))
    } else if (statement.type === 'ExportDefaultDeclaration') {
      const d = statement.declaration
      const kind =
        d.type === 'FunctionDeclaration'
          ? 'function'
          : d.type === 'Identifier'
            ? (bindings.get(d.name) ?? 'unknown')
            : d.type === 'ClassDeclaration'
              ? 'other'
              : kindOfExpression(d)
      exports.set('default', kind)
    } else if (statement.type === 'ExportNamedDeclaration') {
      if (statement.declaration) {
        for (const [name, kind] of topLevelBindings([statement.declaration])) exports.set(name, kind)
      }
      for (const spec of statement.specifiers) {
        const kind = statement.source ? 'unknown' : (bindings.get(nameOf(spec.local)) ?? 'unknown')
        exports.set(nameOf(spec.exported), kind)
      }
    }
  }
  return { exports, starFrom }
}

/** Parses a module (JavaScript or TypeScript) and lists its exports; nothing is executed. */
export async function analyzeModule(source: string, file: string): Promise<ModuleExports | SourceError> {
  let code = source
  if (isTypeScript(file)) {
    const stripped = await stripTypes(source, file)
    if (typeof stripped !== 'string') return stripped
    code = stripped
  }
  return (await quickExports(code)) ?? parseExports(code)
}

/** The exports as a full parse (acorn) finds them, or its syntax error. */
export function parseExports(code: string): ModuleExports | SourceError {
  try {
    return collectExports(parse(code, ACORN))
  } catch (error) {
    return acornError(error)
  }
}

/** Whitespace and comments, then at most one semicolon, then whitespace and comments. */
const TRAILING_TRIVIA_RE =
  /^(?:\s|\/\/[^\n\r\u2028\u2029]*|\/\*[\s\S]*?\*\/)*;?(?:\s|\/\/[^\n\r\u2028\u2029]*|\/\*[\s\S]*?\*\/)*$/

/** True when only whitespace, comments and at most one semicolon follow `offset` (acorn's tokenizer decides when a regex cannot tell). */
function onlyTriviaAfter(code: string, offset: number): boolean {
  const tail = code.slice(offset)
  if (TRAILING_TRIVIA_RE.test(tail)) return true
  const rest = tokenizer(tail, { ecmaVersion: 'latest' })
  let token = rest.getToken()
  if (token.type.label === ';') token = rest.getToken()
  return token.type.label === 'eof'
}

/**
 * Checks that a bare browser tool is exactly one function expression (function, async
 * function, arrow). TypeScript is stripped first. Returns an error or undefined.
 */
export async function checkFunctionExpression(source: string, file: string): Promise<SourceError | undefined> {
  let code = source
  const typescript = isTypeScript(file)
  if (!typescript && (await isSoleFunction(source))) return undefined
  if (typescript) {
    // Wrapped so the bare expression is a valid statement; the wrapper's first line is not counted.
    const stripped = await stripTypes(`(\n${source}\n)`, file)
    if (typeof stripped !== 'string') return { ...stripped, line: Math.max(1, stripped.line - 1) }
    code = stripped
  }
  // Positions in stripped TypeScript are not the file's: point at its start instead.
  const at = (line: number, column: number) => (typescript ? { line: 1, column: 1 } : { line, column })
  try {
    const node: Node = typescript ? soleExpression(code) : parseExpressionAt(code, 0, { ecmaVersion: 'latest' })
    if (node.type !== 'FunctionExpression' && node.type !== 'ArrowFunctionExpression') {
      const start = positionAt(code, node.start)
      return {
        message: `must contain a single function expression, found ${describeNode(node)}`,
        ...at(start.line, start.column),
      }
    }
    if (!typescript && !onlyTriviaAfter(code, node.end)) {
      const after = positionAt(code, node.end)
      return {
        message: 'must contain a single function expression; code follows the function',
        ...at(after.line, after.column),
      }
    }
    return undefined
  } catch (error) {
    const e = acornError(error)
    return { message: e.message, ...at(e.line, e.column) }
  }
}

/** esbuild prints the wrapped expression as one statement `(expr);`. */
function soleExpression(code: string): Node {
  const program = parse(code, { ecmaVersion: 'latest' })
  const [statement] = program.body
  return program.body.length === 1 && statement?.type === 'ExpressionStatement'
    ? statement.expression
    : (statement ?? program)
}

function describeNode(node: Node): string {
  const names: Record<string, string> = {
    ObjectExpression: 'an object',
    ArrayExpression: 'an array',
    Literal: 'a literal',
    Identifier: 'an identifier',
    CallExpression: 'a call',
    ClassExpression: 'a class',
    SequenceExpression: 'several expressions',
  }
  return names[node.type] ?? `a ${node.type}`
}

function positionAt(code: string, offset: number): { line: number; column: number } {
  const before = code.slice(0, offset).split('\n')
  return { line: before.length, column: before.at(-1)!.length + 1 }
}

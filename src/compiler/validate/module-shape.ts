import {
  type AnyNode,
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
import { isTypeScript } from '../fs/paths'
import { quickExports } from './quick-exports'
import { isSoleFunction } from './quick-shape'
import type { BindingKind, ModuleExports, NotOneFunction, SourceError } from './module-types'

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

/** acorn's error at its position; a bare "Unexpected token" names the token (`Unexpected token \`)\``). */
function acornError(error: unknown, code: string): SourceError {
  const e = error as { message: string; pos?: number; loc?: { line: number; column: number } }
  let message = e.message.replace(/ \(\d+:\d+\)$/, '')
  const token = e.pos === undefined ? undefined : TOKEN_RE.exec(code.slice(e.pos))?.[0]
  if (message === 'Unexpected token' && token) message += ` \`${token}\``
  return { message, line: e.loc?.line ?? 1, column: (e.loc?.column ?? 0) + 1 }
}

/** A word, a string's opening quote or one character: enough to name the token acorn stopped at. */
const TOKEN_RE = /^(?:[\w$]+|\S)/

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
    return acornError(error, code)
  }
}

/** Whitespace and comments, then at most one semicolon, then whitespace and comments. */
const TRAILING_TRIVIA_RE =
  /^(?:\s|\/\/[^\n\r\u2028\u2029]*|\/\*[\s\S]*?\*\/)*;?(?:\s|\/\/[^\n\r\u2028\u2029]*|\/\*[\s\S]*?\*\/)*$/

/**
 * True when only whitespace, comments and at most one semicolon follow `offset` (acorn's tokenizer decides when a regex
 * cannot tell).
 */
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
 * function, arrow). TypeScript is stripped first. Returns an error or undefined; an error says
 * what the file holds instead, in plain words, at the position of that code.
 */
export async function checkFunctionExpression(
  source: string,
  file: string,
): Promise<SourceError | NotOneFunction | undefined> {
  let code = source
  const typescript = isTypeScript(file)
  if (!typescript && (await isSoleFunction(source))) return undefined
  if (typescript) {
    // Wrapped so the bare expression is a valid statement; the wrapper's first line is not counted.
    const stripped = await stripTypes(`(\n${source}\n)`, file)
    if (typeof stripped !== 'string')
      return (await typedStatements(source, file)) ?? { ...stripped, line: Math.max(1, stripped.line - 1) }
    code = stripped
  }
  // Positions in stripped TypeScript are not the file's: point at its start instead.
  const at = (line: number, column: number) => (typescript ? { line: 1, column: 1 } : { line, column })
  try {
    const node: Node = typescript ? soleExpression(code) : parseExpressionAt(code, 0, { ecmaVersion: 'latest' })
    if (node.type !== 'FunctionExpression' && node.type !== 'ArrowFunctionExpression') {
      const start = positionAt(code, node.start)
      return { found: describeNode(node, code), ...at(start.line, start.column) }
    }
    if (!typescript && !onlyTriviaAfter(code, node.end)) {
      const next = node.end + (LEADING_TRIVIA_RE.exec(code.slice(node.end))?.[0].length ?? 0)
      const after = positionAt(code, next)
      return { follows: describeCode(code, next), ...at(after.line, after.column) }
    }
    return undefined
  } catch (error) {
    const e = acornError(error, code)
    const statements = statementsInstead(code)
    if (statements) return { ...statements, ...at(statements.line, statements.column) }
    return { message: e.message, ...at(e.line, e.column) }
  }
}

/** Whitespace, comments and semicolons at the start of a text. */
const LEADING_TRIVIA_RE = /^(?:\s|;|\/\/[^\n\r\u2028\u2029]*|\/\*[\s\S]*?\*\/)*/

/** A TypeScript file of statements rather than one function: said as for JavaScript, at its first statement. */
async function typedStatements(source: string, file: string): Promise<NotOneFunction | undefined> {
  const stripped = await stripTypes(source, file)
  const found = typeof stripped === 'string' ? statementsInstead(stripped) : undefined
  if (!found) return undefined
  return { ...found, ...positionAt(source, LEADING_TRIVIA_RE.exec(source)?.[0].length ?? 0) }
}

/**
 * When the file is not an expression but a script of statements (`const title = document.title`),
 * what its first statement is, where it starts; undefined when it is not a script either.
 */
function statementsInstead(code: string): NotOneFunction | undefined {
  let program: Program
  try {
    program = parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true })
  } catch {
    return undefined
  }
  const [first] = program.body
  if (!first) return undefined
  const start = positionAt(code, first.start)
  const count = program.body.length
  const what = count > 1 ? `${count} statements, the first ${describeNode(first, code)}` : describeNode(first, code)
  return { found: what, script: true, ...start }
}

/** esbuild prints the wrapped expression as one statement `(expr);`. */
function soleExpression(code: string): Node {
  const program = parse(code, { ecmaVersion: 'latest' })
  const [statement] = program.body
  return program.body.length === 1 && statement?.type === 'ExpressionStatement'
    ? statement.expression
    : (statement ?? program)
}

const NODE_WORDS: Record<string, string> = {
  ObjectExpression: 'an object',
  ArrayExpression: 'an array',
  Identifier: 'a name',
  CallExpression: 'a function call',
  NewExpression: 'a `new` expression',
  ClassExpression: 'a class',
  ClassDeclaration: 'a class',
  SequenceExpression: 'several expressions separated by commas',
  MemberExpression: 'a property read',
  ChainExpression: 'a property read',
  AssignmentExpression: 'an assignment',
  BinaryExpression: 'an operation',
  LogicalExpression: 'an operation',
  UnaryExpression: 'an operation',
  UpdateExpression: 'an operation',
  ConditionalExpression: 'a conditional (a ? b : c)',
  TemplateLiteral: 'a template string',
  TaggedTemplateExpression: 'a tagged template',
  AwaitExpression: 'an `await` expression',
  ThisExpression: '`this`',
  ExpressionStatement: 'an expression',
  IfStatement: 'an `if` statement',
  ReturnStatement: 'a `return` statement',
  BlockStatement: 'a block { ... }',
  ThrowStatement: 'a `throw` statement',
  TryStatement: 'a `try` statement',
  ForStatement: 'a loop',
  ForOfStatement: 'a loop',
  ForInStatement: 'a loop',
  WhileStatement: 'a loop',
  DoWhileStatement: 'a loop',
}

/** What a node is, in the words of someone who writes JavaScript, and the start of its code. */
function describeNode(node: Node, code: string): string {
  return `${kindOf(node)} ${describeCode(code, node.start, node.end)}`
}

function kindOf(node: Node): string {
  const n = node as AnyNode
  if (n.type === 'VariableDeclaration') return `a \`${n.kind}\` declaration`
  if (n.type === 'Literal')
    return n.value === null ? '`null`' : n.regex ? 'a regular expression' : `a ${typeof n.value}`
  if (n.type === 'ExpressionStatement') return kindOf(n.expression)
  return NODE_WORDS[n.type] ?? (n.type.endsWith('Statement') ? 'a statement' : 'an expression')
}

/** The code from `start` (to `end`) on one line, at most 40 characters, in backticks. */
function describeCode(code: string, start: number, end = code.length): string {
  const text = code.slice(start, end).replace(/\s+/g, ' ').trim()
  return `\`${text.length > 40 ? `${text.slice(0, 40)}…` : text}\``
}

function positionAt(code: string, offset: number): { line: number; column: number } {
  const before = code.slice(0, offset).split('\n')
  return { line: before.length, column: before.at(-1)!.length + 1 }
}

/**
 * What a module's `export default` holds when it is not a function (`42`, a class, an object),
 * and where: for a default-not-function error that points at the value rather than at 1:1.
 */
export async function describeDefaultExport(source: string, file: string): Promise<SourceError | undefined> {
  if (isTypeScript(file)) {
    const at = /^[ \t]*export\s+default\s+/m.exec(source)
    return at
      ? {
          message: `found ${describeCode(source, at.index + at[0].length)}`,
          ...positionAt(source, at.index + at[0].length),
        }
      : undefined
  }
  let program: Program
  try {
    program = parse(source, ACORN)
  } catch {
    return undefined
  }
  const statement = program.body.find((s) => s.type === 'ExportDefaultDeclaration')
  if (!statement) return undefined
  const value = statement.declaration as Node
  return { message: `found ${describeNode(value, source)}`, ...positionAt(source, value.start) }
}

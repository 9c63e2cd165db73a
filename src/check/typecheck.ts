import type { CompilerHost, CompilerOptions, Diagnostic as TsDiagnostic, Program, SourceFile } from 'typescript'
import { toPosix } from '../compiler/paths'
import { type Harness, type ToolTarget, createHarness, exportDeclaration, isChecked, targetAt } from './harness'
import type { TypeScriptApi } from './typescript'

/** One type error, in a tool or a file it imports. */
export interface TypeProblem {
  /** Absolute path, forward slashes. */
  file: string
  /** 1-based. */
  line: number
  /** 1-based. */
  column: number
  /** `TS2322`. */
  code: string
  /** The message with its chain of reasons, one per line. */
  message: string
}

/** What `check` compiles with: strict, both the page's and Node's globals, no output. */
function compilerOptions(ts: TypeScriptApi): CompilerOptions {
  return {
    strict: true,
    noEmit: true,
    allowJs: true,
    // Only JavaScript files that opt in with `// @ts-check` are reported.
    checkJs: false,
    skipLibCheck: true,
    resolveJsonModule: true,
    allowImportingTsExtensions: true,
    // Bare-function browser tools are scripts: as modules, their names cannot clash.
    moduleDetection: ts.ModuleDetectionKind.Force,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  }
}

/**
 * A bare tool as TypeScript reads it: `export default ` inserted before the function, after the
 * leading comments (so `// @ts-check` and a JSDoc `@type` keep their places and meaning).
 */
interface Rewritten {
  original: string
  text: string
  at: number
}

const EXPORT_DEFAULT = 'export default '

function rewriteBare(ts: TypeScriptApi, original: string): Rewritten {
  const comments = ts.getLeadingCommentRanges(original, 0) ?? []
  let at = comments.at(-1)?.end ?? 0
  while (at < original.length && /\s/.test(original[at]!)) at++
  return { original, at, text: `${original.slice(0, at)}${EXPORT_DEFAULT}${original.slice(at)}` }
}

/** Where a position of a rewritten file is in the file itself. */
function originalOffset(rewritten: Rewritten | undefined, offset: number): number {
  if (!rewritten || offset < rewritten.at) return offset
  return Math.max(rewritten.at, offset - EXPORT_DEFAULT.length)
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n')
  return { line: before.length, column: before.at(-1)!.length + 1 }
}

function toProblem(ts: TypeScriptApi, d: TsDiagnostic, rewritten: Map<string, Rewritten>): TypeProblem {
  const message = ts.flattenDiagnosticMessageText(d.messageText, '\n')
  const code = `TS${d.code}`
  if (!d.file || d.start === undefined) return { file: '', line: 1, column: 1, code, message }
  return { ...place(d.file, d.start, rewritten), code, message }
}

/** A position in a source file as a place in the file on disk. */
function place(file: SourceFile, offset: number, rewritten: Map<string, Rewritten>) {
  const path = toPosix(file.fileName)
  const shown = rewritten.get(path)
  return { file: path, ...lineAndColumn(shown?.original ?? file.text, originalOffset(shown, offset)) }
}

/**
 * A harness error is the tool's: reported where the tool's export is declared, naming the tool
 * (a tool that cannot be found there keeps the harness's place).
 */
function harnessProblem(
  ts: TypeScriptApi,
  program: Program,
  harness: Harness,
  d: TsDiagnostic,
  rewritten: Map<string, Rewritten>,
): TypeProblem {
  const problem = toProblem(ts, d, rewritten)
  const target = targetAt(harness, problem.line - 1)
  const at = target && exportDeclaration(ts, program, d.file!, problem.line - 1)
  if (!target || !at) return problem
  const what = `${target.kind === 'node' ? 'Node' : 'browser'} tool ${JSON.stringify(target.tool)}`
  const message = `${what} does not match its manifest (${target.siteId}): ${problem.message}`
  return { ...problem, ...place(at.file, at.start, rewritten), message }
}

/** A compiler host that reads bare tools rewritten, everything else as is. */
function hostFor(
  ts: TypeScriptApi,
  options: CompilerOptions,
  rewritten: Map<string, Rewritten>,
  harness: Harness,
): CompilerHost {
  const host = ts.createCompilerHost(options, true)
  const read = host.getSourceFile.bind(host)
  const exists = host.fileExists.bind(host)
  host.fileExists = (fileName) => toPosix(fileName) === harness.file || exists(fileName)
  host.getSourceFile = (fileName, language, onError, create) => {
    if (toPosix(fileName) === harness.file) return ts.createSourceFile(fileName, harness.text, language, true)
    const shown = rewritten.get(toPosix(fileName))
    return shown ? ts.createSourceFile(fileName, shown.text, language, true) : read(fileName, language, onError, create)
  }
  return host
}

const byPlace = (a: TypeProblem, b: TypeProblem) =>
  a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.code.localeCompare(b.code)

/** The outcome of one type check. */
export interface TypeCheck {
  problems: TypeProblem[]
  /** The user's files it read: the tools and what they import (absolute paths), for watchers. */
  files: string[]
}

/** A type checker of tool files against the generated declarations; each run reuses the last program. */
export interface ToolTypeChecker {
  check: (dtsFile: string, targets: readonly ToolTarget[]) => TypeCheck
}

export function createToolTypeChecker(ts: TypeScriptApi): ToolTypeChecker {
  const options = compilerOptions(ts)
  let previous: Program | undefined
  return {
    check(dtsFile, targets) {
      const rewritten = new Map<string, Rewritten>()
      const checked: ToolTarget[] = []
      for (const target of targets) {
        const text = ts.sys.readFile(target.file)
        if (text === undefined) continue
        if (target.bare) rewritten.set(target.file, rewriteBare(ts, text))
        if (isChecked(target.file, text)) checked.push(target)
      }
      const harness = createHarness(dtsFile, checked)
      const host = hostFor(ts, options, rewritten, harness)
      const rootNames = [dtsFile, harness.file, ...new Set(targets.map((t) => t.file))]
      const program = ts.createProgram({ rootNames, options, host, oldProgram: previous })
      previous = program
      // The user's code: not a package's, not a declaration file (those are the libraries' and ours).
      const own = program
        .getSourceFiles()
        .filter((f) => !f.isDeclarationFile && !program.isSourceFileFromExternalLibrary(f))
      const found = [
        ...program.getOptionsDiagnostics(),
        ...program.getGlobalDiagnostics(),
        ...own.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
      ]
      const problems = found
        .filter((d) => d.category === ts.DiagnosticCategory.Error)
        .map((d) =>
          toPosix(d.file?.fileName ?? '') === harness.file
            ? harnessProblem(ts, program, harness, d, rewritten)
            : toProblem(ts, d, rewritten),
        )
        .sort(byPlace)
      const files = own.map((f) => f.fileName).filter((f) => toPosix(f) !== harness.file)
      return { problems, files }
    },
  }
}

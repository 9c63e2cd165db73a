import type { CompilerHost, CompilerOptions, Diagnostic, Node, Program, SourceFile } from 'typescript'
import { toPosix } from '../compiler/fs/paths'
import type { TypeScriptBackend, TypeScriptError, DeclarationPlace, ProgramInput } from './backend'

/** The compiler API of TypeScript 5 and 6 (`import('typescript')`), as much of it as `check` uses. */
export type ClassicTypeScript = typeof import('typescript')

/** A compiler host that reads the given texts in place of (or besides) the files on disk. */
function hostFor(ts: ClassicTypeScript, options: CompilerOptions, texts: ReadonlyMap<string, string>): CompilerHost {
  const host = ts.createCompilerHost(options, true)
  const read = host.getSourceFile.bind(host)
  const exists = host.fileExists.bind(host)
  host.fileExists = (fileName) => texts.has(toPosix(fileName)) || exists(fileName)
  host.getSourceFile = (fileName, language, onError, create) => {
    const text = texts.get(toPosix(fileName))
    return text === undefined
      ? read(fileName, language, onError, create)
      : ts.createSourceFile(fileName, text, language, true)
  }
  return host
}

function toError(ts: ClassicTypeScript, d: Diagnostic): TypeScriptError {
  const message = ts.flattenDiagnosticMessageText(d.messageText, '\n')
  return d.file ? { file: toPosix(d.file.fileName), start: d.start, code: d.code, message } : { code: d.code, message }
}

/** The innermost node of a file that spans `offset`. */
function nodeAt(ts: ClassicTypeScript, file: SourceFile, offset: number): Node {
  let found: Node = file
  const visit = (node: Node): void => {
    if (offset < node.getStart(file) || offset >= node.end) return
    found = node
    ts.forEachChild(node, visit)
  }
  ts.forEachChild(file, visit)
  return found
}

function declarationAt(
  ts: ClassicTypeScript,
  program: Program,
  file: string,
  offset: number,
): DeclarationPlace | undefined {
  const source = program.getSourceFile(file)
  if (!source) return undefined
  const checker = program.getTypeChecker()
  let symbol = checker.getSymbolAtLocation(nodeAt(ts, source, offset))
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol)
  const declaration = symbol?.declarations?.[0]
  if (!declaration) return undefined
  const name = (declaration as { name?: Node }).name
  return { file: toPosix(declaration.getSourceFile().fileName), start: (name ?? declaration).getStart() }
}

/** TypeScript 5 or 6, driven through its compiler API; each program reuses the last one. */
export function createClassicBackend(
  ts: ClassicTypeScript,
  projectDir: string,
  json: Record<string, unknown>,
): TypeScriptBackend {
  const { options } = ts.convertCompilerOptionsFromJson(json, projectDir)
  let previous: Program | undefined
  async function check({ rootNames, texts }: ProgramInput) {
    const host = hostFor(ts, options, texts)
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
    return {
      errors: found.filter((d) => d.category === ts.DiagnosticCategory.Error).map((d) => toError(ts, d)),
      files: own.map((f) => toPosix(f.fileName)),
      declarationAt: async (file: string, offset: number) => declarationAt(ts, program, file, offset),
    }
  }
  return { version: ts.version, check, close: async () => undefined }
}

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts6 from 'typescript'

/** What an editor shows at one position: a hover, or a completion list and one entry's details. */
export interface EditorView {
  text: string
  documentation: string
}

/** Removes `⟨name⟩` markers from a source text and returns it with each marker's offset. */
export function markPositions(marked: string): { text: string; at: Record<string, number> } {
  const at: Record<string, number> = {}
  let text = ''
  let last = 0
  for (const m of marked.matchAll(/⟨(\w+)⟩/g)) {
    text += marked.slice(last, m.index)
    at[m[1]!] = text.length
    last = m.index + m[0].length
  }
  return { text: text + marked.slice(last), at }
}

type TS = typeof ts6

/** The compiler options of a consumer project as the README sets it up (strict, bundler resolution). */
export const CONSUMER_OPTIONS: ts6.CompilerOptions = {
  strict: true,
  noEmit: true,
  module: ts6.ModuleKind.ESNext,
  moduleResolution: ts6.ModuleResolutionKind.Bundler,
  target: ts6.ScriptTarget.ES2022,
  types: [],
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
}

/** What signature help shows: the active signature and its documentation (with its tags). */
export interface SignatureView extends EditorView {
  /** How many signatures the list holds. */
  count: number
}

/**
 * A TypeScript language service over files of a folder, set up as an editor would for a consumer project;
 * `wrap` puts a language service plugin in front of it, as tsserver does. `ts`: the TypeScript to use
 * (this repository's 6 by default; 5 is installed as `typescript-5`).
 */
export function createEditor(
  dir: string,
  files: string[],
  wrap = (service: ts6.LanguageService) => service,
  ts: TS = ts6,
) {
  const names = files.map((f) => join(dir, f))
  const options = CONSUMER_OPTIONS
  const show = (parts: ts6.SymbolDisplayPart[] | undefined) => ts.displayPartsToString(parts)
  const host: ts6.LanguageServiceHost = {
    getScriptFileNames: () => names,
    getScriptVersion: () => '1',
    getScriptSnapshot: (f) => {
      if (ts.sys.fileExists(f)) return ts.ScriptSnapshot.fromString(readFileSync(f, 'utf8'))
    },
    getCurrentDirectory: () => dir,
    getCompilationSettings: () => options,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
  }
  const service = wrap(ts.createLanguageService(host))
  return {
    service,
    /** The hover at a position of a file. */
    hover(file: string, position: number): EditorView | undefined {
      const info = service.getQuickInfoAtPosition(join(dir, file), position)
      return info && { text: show(info.displayParts), documentation: show(info.documentation) }
    },
    /** The JSDoc tags a hover shows below the documentation, as `@name text`. */
    tags(file: string, position: number): string[] {
      const info = service.getQuickInfoAtPosition(join(dir, file), position)
      return (info?.tags ?? []).map((t) => `@${t.name} ${show(t.text)}`)
    },
    /** The completion entries' names at a position. */
    completions(file: string, position: number): string[] {
      return service.getCompletionsAtPosition(join(dir, file), position, {})?.entries.map((e) => e.name) ?? []
    },
    /** The details an editor shows beside the selected completion entry. */
    details(file: string, position: number, name: string): EditorView | undefined {
      const d = service.getCompletionEntryDetails(join(dir, file), position, name, {}, undefined, {}, undefined)
      return d && { text: show(d.displayParts), documentation: show(d.documentation) }
    },
    /** Signature help inside a call's parentheses. */
    signature(file: string, position: number): SignatureView | undefined {
      const help = service.getSignatureHelpItems(join(dir, file), position, {})
      const item = help?.items[help.selectedItemIndex]
      if (!help || !item) return undefined
      const params = item.parameters.map((p) => show(p.displayParts)).join(show(item.separatorDisplayParts))
      return {
        text: `${show(item.prefixDisplayParts)}${params}${show(item.suffixDisplayParts)}`,
        documentation: [show(item.documentation), ...item.tags.map((t) => `@${t.name} ${show(t.text)}`)].join('\n'),
        count: help.items.length,
      }
    },
    /** Syntax and type errors of a file, as `line: message` (the message flattened). */
    diagnostics(file: string): string[] {
      const path = join(dir, file)
      const all = [...service.getSyntacticDiagnostics(path), ...service.getSemanticDiagnostics(path)]
      return all.map((d) => {
        const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0
        return `${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
      })
    },
  }
}

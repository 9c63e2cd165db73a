/*
 * What `check` asks of a TypeScript, whichever major it is: TypeScript 5 and 6 answer through their
 * compiler API (`classic.ts`), TypeScript 7 through its `unstable/async` API (`native.ts`).
 */

/** An error as the compiler reports it, its message already flattened (the chain of reasons, one per line). */
export interface TypeScriptError {
  /** Absolute path, forward slashes; absent for an error of the options or the program. */
  file?: string
  /** UTF-16 offset of its start in the text the compiler read. */
  start?: number
  /** The number of `TS2322`. */
  code: number
  message: string
}

/** One program to check: its root files, and the texts that stand in for files (or files that exist only here). */
export interface ProgramInput {
  rootNames: string[]
  /** Absolute path (forward slashes) -> the text the compiler reads for it. */
  texts: ReadonlyMap<string, string>
}

/** Where a declaration is: its file and the offset of its name (else of itself). */
export interface DeclarationPlace {
  file: string
  start: number
}

/** The outcome of one program. */
interface ProgramCheck {
  errors: TypeScriptError[]
  /** The user's own files of the program (no declaration file, nothing from a package), forward slashes. */
  files: string[]
  /** Where the symbol named at `offset` of `file` is declared, following imports to the export itself. */
  declarationAt: (file: string, offset: number) => Promise<DeclarationPlace | undefined>
}

/** A TypeScript that checks programs; each check may reuse what the last one built. `close` ends it. */
export interface TypeScriptBackend {
  /** `5.9.3`, `7.0.2`. */
  version: string
  check: (input: ProgramInput) => Promise<ProgramCheck>
  close: () => Promise<void>
}

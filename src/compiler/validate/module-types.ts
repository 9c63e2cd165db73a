/** What the module checks find, shared by module-shape.ts and quick-exports.ts (which module-shape.ts uses). */

/** What kind of value a binding holds, as far as the source shows without running it. */
export type BindingKind = 'function' | 'other' | 'unknown'

export interface ModuleExports {
  exports: Map<string, BindingKind>
  /** Sources of `export * from '...'`. */
  starFrom: string[]
}

/** Code that does not parse: the parser's words, at its position. */
export interface SourceError {
  message: string
  line: number
  column: number
}

/**
 * A bare browser tool that parses but is not one function expression: what it holds instead
 * (`found`, `script` when it is statements rather than an expression), or the code that follows the
 * function (`follows`). The catalog says it in words (`tool-parse`, problem `shape`).
 */
export type NotOneFunction = ({ found: string; script?: boolean } | { follows: string }) & {
  line: number
  column: number
}

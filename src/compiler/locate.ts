import { FILE_LIMITS, isReadFailure, readRegularFile } from './fs/files'
import { type JsonDocument, type JsonPath, type Position, isJsonFailure, parseJsonDocument } from './parse'

/**
 * Where a member of a manifest is, looked up when first asked by reading the file again: only
 * cross-skill findings (a shadowed pattern, a colliding name, a token budget) ask after the fact, and
 * a record that kept its parsed manifest would keep the text and its tree for every skill
 * (bench/RESULTS.md, "Figures behind code comments"). The parse is kept once made.
 */
export function manifestLocator(manifest: string): (path: JsonPath) => Position {
  let doc: JsonDocument | undefined
  return (path) => {
    if (!doc) {
      const bytes = readRegularFile(manifest, FILE_LIMITS.manifest)
      const parsed = isReadFailure(bytes)
        ? undefined
        : parseJsonDocument(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes))
      // Changed since it was checked, in this very compile: the member's place is no longer known.
      if (!parsed || isJsonFailure(parsed)) return { line: 1, column: 1 }
      doc = parsed
    }
    return doc.locate(path)
  }
}

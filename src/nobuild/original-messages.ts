import { join } from 'node:path'
import type { CompileResult } from '../compiler/compile'
import type { Diagnostic, DiagnosticCode } from '../compiler/diagnostics/catalog'
import { FILE_LIMITS, isReadFailure, readRegularFile } from '../compiler/fs/files'
import { stripBom } from '../compiler/parse'
import { type OriginalView, originalView } from './original-wording'

/**
 * Our diagnostics as the strings the original validator (ego-lite's validateLearning) returns:
 * `<siteId>: <message>`, errors only, in the original's check order. Where the original has a
 * message for the same finding it is used word for word (main's wording, also for the layouts
 * only the 1.3 release line accepts), made from the finding's code and data (original-wording.ts);
 * findings only we make keep our text.
 */

const MANIFEST_CODES = new Set<DiagnosticCode>(['manifest-missing', 'manifest-parse'])

/**
 * A skill's manifest text through the file guard (never a FIFO or a huge file), or what reading it
 * threw: for a file that did not open, the system's own words, as the original's `readFile` gives them.
 */
function manifestText(siteDir: string): string | { error: string } {
  const read = readRegularFile(join(siteDir, 'manifest.json'), FILE_LIMITS.manifest)
  if (isReadFailure(read)) return { error: read.cause ?? `manifest.json ${read.message}` }
  return read.toString('utf8')
}

/** The error the original's `JSON.parse(readFile(manifest.json))` gives, if it gives one. */
function manifestLoadError(siteDir: string): string | undefined {
  const text = manifestText(siteDir)
  if (typeof text !== 'string') return text.error
  try {
    JSON.parse(text)
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

/** One diagnostic's message in the original's words (without the `<siteId>: ` prefix). */
function originalMessage(d: Diagnostic, view: OriginalView, siteDir: string): string {
  if (MANIFEST_CODES.has(d.code)) {
    const engine = manifestLoadError(siteDir)
    return engine === undefined ? d.message : `invalid or missing manifest.json: ${engine}`
  }
  return view.message ?? d.message
}

/** The manifest's notes list, to put note findings in the order the original checks the notes. */
function notesListed(siteDir: string): unknown[] {
  try {
    const text = manifestText(siteDir)
    if (typeof text !== 'string') return []
    const manifest = JSON.parse(stripBom(text)) as { notes?: unknown }
    return Array.isArray(manifest.notes) ? manifest.notes : []
  } catch {
    return []
  }
}

/** Where the note a finding is about comes in the manifest's list (after them all when it names none). */
function noteIndex(note: string | undefined, notes: readonly unknown[]): number {
  const index = note === undefined ? -1 : notes.indexOf(note)
  return index < 0 ? notes.length : index
}

/**
 * The original validator's result for one skill folder: every error as `<siteId>: <message>`,
 * in the original's check order (a temporary ref is reported once per file, as there).
 */
export function originalErrors(siteId: string, siteDir: string, diagnostics: readonly Diagnostic[]): string[] {
  const ranked: { section: number; note: number; text: string }[] = []
  let notes: unknown[] | undefined
  const seen = new Set<string>()
  for (const d of diagnostics) {
    if (d.severity !== 'error') continue
    const view = originalView(d)
    const message = originalMessage(d, view, siteDir)
    const text = siteId ? `${siteId}: ${message}` : message
    // The original reports a temporary ref once per file, and a manifest's JSON once (JSON.parse stops at the first).
    if ((d.code === 'temp-ref' || d.code === 'manifest-parse') && seen.has(`${d.file}\0${text}`)) continue
    seen.add(`${d.file}\0${text}`)
    let note = 0
    if (view.section === 4) {
      notes ??= notesListed(siteDir)
      note = noteIndex(view.note, notes)
    }
    ranked.push({ section: view.section, note, text })
  }
  // Array.prototype.sort is stable: within a step, findings keep their file and position order.
  return ranked.sort((a, b) => a.section - b.section || a.note - b.note).map((r) => r.text)
}

/** Every error of every skill of a compile, as the original's validateLearnings returns them. */
export function originalReportErrors(result: CompileResult): string[] {
  return result.reports.flatMap((r) => originalErrors(r.id, join(r.root, r.id), r.diagnostics))
}

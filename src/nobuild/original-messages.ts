import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { CompileResult } from '../compiler/compile'
import type { Diagnostic, DiagnosticCode } from '../compiler/diagnostics/catalog'
import { stripBom } from '../compiler/parse'

/**
 * Our diagnostics as the strings the original validator (ego-lite's validateLearning) returns:
 * `<siteId>: <message>`, errors only, in the original's check order. Where the original has a
 * message for the same finding it is used word for word (main's wording, also for the layouts
 * only the 1.3 release line accepts); findings only we make keep our text.
 */

// The wording of main (and of every line but the 1.3 release line, which added the product layout).
const NODE_PATH = 'path must be a relative tools/*.js path'
const BROWSER_PATH = 'path must be a relative browser-tools/*.js path'
const TOOL_PATH_RE = new RegExp(
  '^(nodeTools|browserTools)\\.(.+): path must (?:be a non-empty string|stay inside the skill folder|' +
    'use forward slashes|be tools/\\*\\.js or <product>/functions\\.js)$',
)
const NOTE_PATH_PREFIX = 'notes must point to notes/*.md or <product>/prompt.md: '
const DOMAIN_RE = /^(invalid domain "(?:[^"\\]|\\.)*"): /
const NOT_FUNCTION_RE = /^Node callable (".*") for tool (".*") is exported but is not a function$/
const NOT_ONE_FUNCTION_RE = /^(".*" must contain a single function expression), found .*$/
const FIRST_STRING_RE = /"(?:[^"\\]|\\.)*"/
const MANIFEST_CODES = new Set<DiagnosticCode>(['manifest-missing', 'manifest-parse'])

/** The error the original's `JSON.parse(readFile(manifest.json))` gives, if it gives one. */
function manifestLoadError(siteDir: string): string | undefined {
  try {
    JSON.parse(readFileSync(join(siteDir, 'manifest.json'), 'utf8'))
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

/** One diagnostic's message in the original's words (without the `<siteId>: ` prefix). */
function originalMessage(d: Diagnostic, siteDir: string): string {
  if (MANIFEST_CODES.has(d.code)) {
    const engine = manifestLoadError(siteDir)
    return engine === undefined ? d.message : `invalid or missing manifest.json: ${engine}`
  }
  const path = TOOL_PATH_RE.exec(d.message)
  if (path) return `${path[1]}.${path[2]}: ${path[1] === 'nodeTools' ? NODE_PATH : BROWSER_PATH}`
  if (d.message.startsWith(NOTE_PATH_PREFIX)) {
    return `notes must point to notes/*.md: ${d.message.slice(NOTE_PATH_PREFIX.length)}`
  }
  const domain = DOMAIN_RE.exec(d.message)
  if (domain) return domain[1]!
  const callable = NOT_FUNCTION_RE.exec(d.message)
  if (callable) return `missing Node callable ${callable[1]} for tool ${callable[2]}`
  const notOne = NOT_ONE_FUNCTION_RE.exec(d.message)
  if (notOne) return notOne[1]!
  if (d.message.startsWith('cannot parse Node tool ')) return d.message.replace('cannot parse', 'cannot import')
  return d.message
}

const SECTION_OF: Partial<Record<DiagnosticCode, number>> = {
  'manifest-missing': 0,
  'manifest-parse': 0,
  'manifest-too-large': 0,
  'manifest-not-object': 0,
  'id-mismatch': 1,
  'name-invalid': 2,
  'domains-invalid': 3,
  'domains-empty': 3,
  'domain-invalid': 3,
  'domain-port': 3,
  'domain-public-suffix': 3,
  'note-path': 4,
  'note-missing': 4,
}

/**
 * The step of the original validator that makes a finding: manifest, id, name, domains, notes,
 * then for nodeTools and browserTools in turn their schemas and then their files.
 */
function sectionOf(d: Diagnostic, message: string): number {
  const known = SECTION_OF[d.code]
  if (known !== undefined) return known
  if (d.file.endsWith('/manifest.json') && message.startsWith('manifest.json')) return 0
  if (message.startsWith('note ') || message.startsWith('notes ') || /^"[^"]*\.md" /.test(message)) return 4
  if (message.startsWith('nodeTools')) return 5
  if (message.startsWith('browserTools')) return 7
  if (message.includes('browser-tools/') || message.includes('browser tool')) return 8
  if (/Node (?:tool|callable)/.test(message) || /^"[^"]*" resolves outside/.test(message)) return 6
  return 9
}

/** The manifest's notes list, to put note findings in the order the original checks the notes. */
function notesListed(siteDir: string): unknown[] {
  try {
    const text = stripBom(readFileSync(join(siteDir, 'manifest.json'), 'utf8'))
    const manifest = JSON.parse(text) as { notes?: unknown }
    return Array.isArray(manifest.notes) ? manifest.notes : []
  } catch {
    return []
  }
}

/** Where the note a finding is about comes in the manifest's list (the first quoted string names it). */
function noteIndex(message: string, notes: readonly unknown[]): number {
  const quoted = FIRST_STRING_RE.exec(message)
  const index = quoted ? notes.indexOf(JSON.parse(quoted[0]) as unknown) : -1
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
    const message = originalMessage(d, siteDir)
    const text = siteId ? `${siteId}: ${message}` : message
    // The original reports a temporary ref once per file, and a manifest's JSON once (JSON.parse stops at the first).
    if ((d.code === 'temp-ref' || d.code === 'manifest-parse') && seen.has(`${d.file}\0${text}`)) continue
    seen.add(`${d.file}\0${text}`)
    const section = sectionOf(d, message)
    let note = 0
    if (section === 4) {
      notes ??= notesListed(siteDir)
      note = noteIndex(message, notes)
    }
    ranked.push({ section, note, text })
  }
  // Array.prototype.sort is stable: within a step, findings keep their file and position order.
  return ranked.sort((a, b) => a.section - b.section || a.note - b.note).map((r) => r.text)
}

/** Every error of every skill of a compile, as the original's validateLearnings returns them. */
export function originalReportErrors(result: CompileResult): string[] {
  return result.reports.flatMap((r) => originalErrors(r.id, join(r.root, r.id), r.diagnostics))
}

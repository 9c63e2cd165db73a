import type { CompileResult } from '../compiler/compile'
import {
  type Diagnostic,
  type DiagnosticInit,
  compareDiagnostics,
  countBySeverity,
  createDiagnostic,
} from '../compiler/diagnostics/catalog'
import { isJsonFailure, parseJsonDocument } from '../compiler/parse'
import { VERIFICATION_FILE, checkRecord, readRecordFile } from '../compiler/verification'
import { skillDigests } from './record'

/** A skill folder as the check needs it. */
export interface VerifiedFolder {
  id: string
  /** The root it was found in (diagnostics are relative to it). */
  root: string
  realDir: string
}

/** How a skill's files stand against its record: each changed, added or removed file. */
interface Staleness {
  changed: string[]
  added: string[]
  removed: string[]
}

/** Compares a record's digests with the files as they are now (one pass over each). */
function compareDigests(recorded: Record<string, string>, realDir: string): Staleness {
  const now = skillDigests(realDir)
  const paths = (o: object) => Object.keys(o)
  return {
    changed: paths(recorded).filter((p) => Object.hasOwn(now, p) && now[p] !== recorded[p]),
    added: paths(now).filter((p) => !Object.hasOwn(recorded, p)),
    removed: paths(recorded).filter((p) => !Object.hasOwn(now, p)),
  }
}

/**
 * Whether the record of a skill still holds (undefined: it has none, or one that cannot be read or does not hold
 * together).
 */
export async function recordIsCurrent(folder: Pick<VerifiedFolder, 'realDir'>): Promise<boolean | undefined> {
  const file = readRecordFile(folder.realDir)
  if (!file || !('text' in file)) return undefined
  let value: unknown
  try {
    value = JSON.parse(file.text)
  } catch {
    return undefined
  }
  const facts = checkRecord(value)
  if ('reason' in facts) return undefined
  const { changed, added, removed } = compareDigests(facts.files, folder.realDir)
  return changed.length + added.length + removed.length === 0
}

/**
 * `validate`'s check of a skill's `verification.json`: a warning `verification-stale` for each file
 * changed, added or removed since it was recorded, at the file's entry in the record (an added file
 * at the record's `files` key); `verification-invalid` for a record that cannot be read or does
 * not hold together (a summary that its examples contradict). Linear in the record's size.
 */
function verificationFindings(folder: VerifiedFolder): Diagnostic[] {
  const file = `${folder.id}/${VERIFICATION_FILE}`
  const make = (init: DiagnosticInit) => createDiagnostic(folder, file, init)
  const read = readRecordFile(folder.realDir)
  if (!read) return []
  if (!('text' in read)) return [make({ code: 'verification-invalid', data: { reason: read.problem } })]
  const doc = parseJsonDocument(read.text)
  if (isJsonFailure(doc))
    return [make({ code: 'verification-invalid', data: { reason: doc.message }, ...doc.position })]
  const facts = checkRecord(doc.value)
  if ('reason' in facts)
    return [make({ code: 'verification-invalid', data: { reason: facts.reason }, ...doc.locate(facts.at) })]
  const { changed, added, removed } = compareDigests(facts.files, folder.realDir)
  return [
    ...changed.map((p) =>
      make({ code: 'verification-stale', data: { file: p, change: 'changed' }, ...doc.locate(['files', p]) }),
    ),
    ...removed.map((p) =>
      make({ code: 'verification-stale', data: { file: p, change: 'removed' }, ...doc.locate(['files', p]) }),
    ),
    ...added.map((p) =>
      make({ code: 'verification-stale', data: { file: p, change: 'added' }, ...doc.locate(['files']) }),
    ),
  ]
}

/** The result with each skill's record findings added (a new result; the compile's is left as it was). */
export async function withVerification(result: CompileResult): Promise<CompileResult> {
  const found = result.records.map((r) => verificationFindings(r.folder))
  if (found.every((f) => f.length === 0)) return result
  const byFolder = new Map(result.records.map((r, i) => [`${r.folder.root}\0${r.folder.id}`, found[i]!]))
  const reports = result.reports.map((report) => {
    const extra = byFolder.get(`${report.root}\0${report.id}`) ?? []
    return extra.length
      ? { ...report, diagnostics: [...report.diagnostics, ...extra].sort(compareDiagnostics) }
      : report
  })
  const diagnostics = [...result.diagnostics, ...found.flat()].sort(compareDiagnostics)
  return { ...result, reports, diagnostics, ...countBySeverity(diagnostics) }
}

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { CompileResult } from '../compiler/compile'
import {
  type Diagnostic,
  type DiagnosticInit,
  compareDiagnostics,
  countBySeverity,
  createDiagnostic,
} from '../compiler/diagnostics/catalog'
import { isJsonFailure, parseJsonDocument } from '../compiler/parse'
import { VERIFICATION_FILE } from '../compiler/verification'
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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The `files` of a record, when it is an object of digests. */
function recordedFiles(value: unknown): Record<string, string> | undefined {
  if (!isObject(value) || !isObject(value.files)) return undefined
  const files = value.files
  return Object.values(files).every((d) => typeof d === 'string') ? (files as Record<string, string>) : undefined
}

/** Compares a record's digests with the files as they are now. */
async function compareDigests(recorded: Record<string, string>, realDir: string): Promise<Staleness> {
  const now = await skillDigests(realDir)
  const paths = (o: object) => Object.keys(o)
  return {
    changed: paths(recorded).filter((p) => Object.hasOwn(now, p) && now[p] !== recorded[p]),
    added: paths(now).filter((p) => !Object.hasOwn(recorded, p)),
    removed: paths(recorded).filter((p) => !Object.hasOwn(now, p)),
  }
}

/** Whether the record of a skill still holds (undefined: it has none, or one that cannot be read). */
export async function recordIsCurrent(folder: Pick<VerifiedFolder, 'realDir'>): Promise<boolean | undefined> {
  const text = await readFile(join(folder.realDir, VERIFICATION_FILE), 'utf8').catch(() => undefined)
  if (text === undefined) return undefined
  let files: Record<string, string> | undefined
  try {
    files = recordedFiles(JSON.parse(text))
  } catch {
    return undefined
  }
  if (!files) return undefined
  const { changed, added, removed } = await compareDigests(files, folder.realDir)
  return changed.length + added.length + removed.length === 0
}

/**
 * `validate`'s check of a skill's `verification.json`: a warning `verification-stale` for each file
 * changed, added or removed since it was recorded, at the file's entry in the record (an added file
 * at the record's `files` key); `verification-invalid` for a record that cannot be read.
 */
async function verificationFindings(folder: VerifiedFolder): Promise<Diagnostic[]> {
  const file = `${folder.id}/${VERIFICATION_FILE}`
  const make = (init: DiagnosticInit) => createDiagnostic(folder, file, init)
  const text = await readFile(join(folder.realDir, VERIFICATION_FILE), 'utf8').catch(() => undefined)
  if (text === undefined) return []
  const doc = parseJsonDocument(text)
  if (isJsonFailure(doc))
    return [make({ code: 'verification-invalid', data: { reason: doc.message }, ...doc.position })]
  const files = recordedFiles(doc.value)
  if (!files) return [make({ code: 'verification-invalid', data: { reason: 'it has no "files" of sha256 digests' } })]
  const { changed, added, removed } = await compareDigests(files, folder.realDir)
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
  const found = await Promise.all(result.records.map((r) => verificationFindings(r.folder)))
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

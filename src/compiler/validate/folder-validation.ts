import { join } from 'node:path'
import {
  type Diagnostic,
  type DiagnosticCode,
  type DiagnosticInit,
  type Finding,
  createDiagnostic,
} from '../diagnostics/catalog'
import type { Subject } from '../diagnostics/messages'
import type { Compat } from '../compat'
import { MANIFEST } from '../discover/skills'
import type { SkillFolder } from '../model'
import { FILE_LIMITS, type FileRole, READ_FAILURE_CODES, type ReadFailure, isReadFailure } from '../fs/files'
import { readPlainInside, readRegularFile } from '../fs/files'
import type { JsonDocument, JsonPath, Position } from '../parse'
import { createLineIndex } from '../parse'
import { inspectInside, isInside } from '../fs/paths'
import type { StampLog } from '../fs/stamp'
import type { ModuleExports, SourceError } from './module-types'

export interface ValidateOptions {
  /** `'ego-lite'` adds the original runtime's restrictions. */
  compat?: Compat
  /**
   * Error codes that are reported but do not keep a skill from being served. The no-build API
   * passes `returns-invalid`: the original ran tools without `returns`, which a call never needs.
   */
  tolerate?: readonly DiagnosticCode[]
}

/** The one test of whether a finding keeps its skill from being served. */
export function blocksSkill(d: Diagnostic, options: ValidateOptions): boolean {
  return d.severity === 'error' && !(options.tolerate?.includes(d.code) ?? false)
}

/** Shared state while one skill folder is checked. */
export interface FolderValidation {
  folder: SkillFolder
  doc: JsonDocument
  options: ValidateOptions
  diagnostics: Diagnostic[]
  /** Paths of every file the skill reads or looked for (real paths where they exist). */
  files: Set<string>
  /** Text of files already read (or why not), by real path. */
  texts: Map<string, Promise<string | ReadFailure>>
  /** Exports of modules already analyzed (a `functions.js` serves several tools), by real path. */
  exports: Map<string, Promise<ModuleExports | SourceError>>
  /** Folders of the skill found to be folders and no symlinks (see inspectInside). */
  plainDirs: Set<string>
  /** Text of each bare browser tool that passed its checks, by real path (see FolderFindings). */
  sources: Map<string, string>
  /** The compile's log of stamps taken as files are read, if it keeps one. */
  stamps?: StampLog
}

export function report(check: FolderValidation, file: string, init: DiagnosticInit): void {
  check.diagnostics.push(createDiagnostic(check.folder, `${check.folder.id}/${file}`, init))
}

/** Reports a finding about the manifest member at `path` (pointing at its key). */
export function reportAt(check: FolderValidation, path: JsonPath, finding: Finding): void {
  report(check, MANIFEST, { ...finding, ...check.doc.locate(path) })
}

/** Reads a file of the skill once (as a note or a tool: the limits differ); never throws. */
export function readText(
  check: FolderValidation,
  real: string,
  role: FileRole = 'tool',
): Promise<string | ReadFailure> {
  let text = check.texts.get(real)
  if (!text) {
    // Synchronous: small local files, read far faster than through libuv's pool (see inspectPath).
    text = Promise.resolve().then(() => {
      const read = readRegularFile(real, FILE_LIMITS[role], check.stamps)
      return isReadFailure(read) ? read : read.toString('utf8')
    })
    check.texts.set(real, text)
  }
  return text
}

/** Reports why a file of the skill was not read, at the file itself. */
function reportReadFailure(check: FolderValidation, file: string, subject: Subject, failure: ReadFailure): void {
  const code = READ_FAILURE_CODES[failure.problem]
  // A file that serves several tools (a functions.js) is reported once.
  if (check.diagnostics.some((d) => d.code === code && d.file === `${check.folder.id}/${file}`)) return
  report(check, file, { code, data: { subject, reason: failure.message } })
}

/** Reads a note or tool file, reporting at the file why it cannot be (a FIFO, no permission, too large). */
export async function readSkillText(
  check: FolderValidation,
  file: string,
  real: string,
  role: FileRole,
  subject: Subject,
): Promise<string | undefined> {
  const text = await readText(check, real, role)
  if (typeof text === 'string') return text
  reportReadFailure(check, file, subject, text)
  return undefined
}

/**
 * Resolves a file of the skill: it must exist, be a file, and (symlinks resolved) stay inside
 * the skill folder. Returns its real path, or the finding: `missing(directory)` when it is not a file.
 * Given the `role` it is read as (a note, a tool), a plain file is opened and read here (its text
 * waits in `texts` for `readText`): one open instead of an `lstat` and then an open.
 */
export async function resolveSkillFile(
  check: FolderValidation,
  rel: string,
  missing: (directory: boolean) => Finding,
  role?: FileRole,
): Promise<string | Finding> {
  const path = join(check.folder.dir, rel)
  const { stamps, plainDirs, texts } = check
  const direct = role
    ? readPlainInside(check.folder.realDir, rel, FILE_LIMITS[role], { stamps, plainDirs, done: texts })
    : undefined
  if (direct === 'missing') {
    check.files.add(path)
    return missing(false)
  }
  if (direct) {
    check.files.add(direct.real)
    const { read } = direct
    if (read) texts.set(direct.real, Promise.resolve(isReadFailure(read) ? read : read.toString('utf8')))
    return direct.real
  }
  const state = await inspectInside(check.folder.realDir, rel, check.plainDirs)
  if (state.kind === 'missing') {
    check.files.add(path)
    return missing(false)
  }
  if (!isInside(check.folder.realDir, state.real)) return { code: 'path-escape', data: { via: 'symlink', file: rel } }
  if (state.kind === 'directory') return missing(true)
  check.files.add(state.real)
  return state.real
}

// `@12`, `@e12`, `ref=12` as a token of their own; not `react@18`, `user@123.com`, `?ref=1` or `href=1`.
const TEMP_REF_RE = /(?<![\w@.?&/=-])(?:@e?\d+|ref=e?\d+)(?![\w-]|\.\w)/g

/** Positions of temporary snapshot refs in a text. */
function findTempRefs(text: string): Position[] {
  const found: Position[] = []
  let toPosition: ((offset: number) => Position) | undefined
  for (const match of text.matchAll(TEMP_REF_RE)) {
    toPosition ??= createLineIndex(text)
    found.push(toPosition(match.index))
    if (found.length >= 20) break
  }
  return found
}

export function reportTempRefs(check: FolderValidation, file: string, text: string, subject: Subject): void {
  for (const position of findTempRefs(text)) report(check, file, { code: 'temp-ref', data: { subject }, ...position })
}

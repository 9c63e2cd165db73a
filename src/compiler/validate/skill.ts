import { join } from 'node:path'
import { type Diagnostic, type DiagnosticInit, type Finding, createDiagnostic } from '../diagnostics/catalog'
import { MANIFEST } from '../discover/skills'
import type { SkillFolder } from '../model'
import { checkDomain } from './domains'
import { FILE_LIMITS, isReadFailure } from '../fs/files'
import { readFileInside } from '../fs/inside'
import { BOM, type JsonDocument, isJsonFailure, parseJsonDocument } from '../parse'
import { manifestLocator } from '../locate'
import type { NoteModel, SkillModel, SkillRecord, ToolModel } from '../model'
import { RESERVED_PRODUCTS, unsafeRelativePath } from '../fs/paths'
import { wantsEgoLite } from '../compat'
import type { StampLog } from '../fs/stamp'
import {
  type FolderValidation,
  type ValidateOptions,
  readSkillText,
  reportAt,
  reportTempRefs,
} from './folder-validation'
import { blocksSkill, resolveSkillFile } from './folder-validation'
import { checkNameCharacters } from './name-chars'
import { TOOL_KINDS, checkManifestSchema } from './schema'
import { checkExamples } from './examples'
import { resultBudgetOf } from './result-budget'
import { checkTool, tokenBudgetOf } from './tool-entries'
import { checkUrls } from './urls'
import { readVerificationSummary } from '../verification'
import { isRecord } from '../../../runtime/internal'

const MAX_MANIFEST_BYTES = FILE_LIMITS.manifest

type Json = Record<string, unknown>

/** The original's isNotePath, release line included: notes/<x>.md or <product>/prompt.md. */
function isNotePath(path: string): boolean {
  if (unsafeRelativePath(path)) return false
  const [dir, file, ...rest] = path.split('/')
  if (rest.length || !dir || !file) return false
  return (dir === 'notes' && file.endsWith('.md')) || (file === 'prompt.md' && !RESERVED_PRODUCTS.has(dir))
}

function fail(folder: SkillFolder, diagnostics: Diagnostic[], files: string[] = []): SkillRecord {
  return { folder, diagnostics, tools: [], domainSites: [], files }
}

/** Reads and parses manifest.json, or returns the diagnostics that stop the folder here. */
export async function readManifest(
  folder: SkillFolder,
  stamps?: StampLog,
): Promise<{ doc: JsonDocument; real: string; bom: boolean } | Diagnostic[]> {
  const problem = (init: DiagnosticInit) => [createDiagnostic(folder, `${folder.id}/${MANIFEST}`, init)]
  // A plain manifest is opened without an `lstat` first (see readPlainFile); anything else is inspected.
  const found = readFileInside(folder.realDir, MANIFEST, MAX_MANIFEST_BYTES, stamps)
  if ('missing' in found) return problem({ code: 'manifest-missing', data: { directory: found.directory } })
  if ('escape' in found) return problem({ code: 'path-escape', data: { via: 'manifest' } })
  const { real, read: bytes } = found
  if (isReadFailure(bytes)) {
    if (bytes.problem === 'too-large')
      return problem({ code: 'manifest-too-large', data: { size: bytes.size ?? 0, limit: MAX_MANIFEST_BYTES } })
    const data = { subject: { kind: 'manifest' as const }, reason: bytes.message }
    return problem({ code: bytes.problem === 'not-regular' ? 'file-not-regular' : 'file-unreadable', data })
  }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    return problem({ code: 'manifest-parse', data: { reason: 'not UTF-8 text' } })
  }
  const doc = parseJsonDocument(text)
  if (isJsonFailure(doc))
    return [doc, ...doc.more].flatMap((e) =>
      problem({ code: 'manifest-parse', data: { reason: e.message }, ...e.position }),
    )
  return { doc, real, bom: text.startsWith(BOM) }
}

function checkDomains(check: FolderValidation, manifest: Json): SkillRecord['domainSites'] {
  const sites: SkillRecord['domainSites'] = []
  if (!Array.isArray(manifest.domains)) return sites
  manifest.domains.forEach((raw, index) => {
    if (typeof raw !== 'string' || raw.trim() === '') return
    const result = checkDomain(raw)
    for (const f of result.findings) reportAt(check, ['domains', index], f)
    if (result.pattern) sites.push({ pattern: result.pattern, path: ['domains', index] })
  })
  return sites
}

async function checkNotes(check: FolderValidation, manifest: Json): Promise<NoteModel[]> {
  if (!Array.isArray(manifest.notes)) return []
  const notes = await Promise.all(
    manifest.notes.map(async (note, index): Promise<NoteModel | undefined> => {
      if (typeof note !== 'string' || note.trim() === '') return undefined
      if (!isNotePath(note)) {
        const leaves = unsafeRelativePath(note) === 'escape'
        const finding: Finding = leaves
          ? { code: 'path-escape', data: { via: 'note', note } }
          : { code: 'note-path', data: { note } }
        reportAt(check, ['notes', index], finding)
        return undefined
      }
      const real = await resolveSkillFile(
        check,
        note,
        (directory) => ({ code: 'note-missing', data: { note, directory } }),
        'note',
      )
      if (typeof real !== 'string') {
        reportAt(check, ['notes', index], real)
        return undefined
      }
      const subject = { kind: 'note', name: note } as const
      const content = await readSkillText(check, note, real, 'note', subject)
      if (content === undefined) return undefined
      reportTempRefs(check, note, content, subject)
      return { path: note, absPath: real, content }
    }),
  )
  return notes.filter((n): n is NoteModel => n !== undefined)
}

/** `sites[id][tool]` needs one namespace: a name may not be both a Node and a browser tool. */
function checkToolNamesUnique(check: FolderValidation, manifest: Json): void {
  const { nodeTools, browserTools } = manifest
  if (!isRecord(nodeTools) || !isRecord(browserTools)) return
  for (const name of Object.keys(browserTools)) {
    if (Object.hasOwn(nodeTools, name))
      reportAt(check, ['browserTools', name], { code: 'tool-name', data: { problem: 'both', name } })
  }
}

async function checkTools(check: FolderValidation, manifest: Json, badPaths: Set<string>): Promise<ToolModel[]> {
  const jobs: Promise<ToolModel | undefined>[] = []
  for (const mapKey of TOOL_KINDS) {
    const map = manifest[mapKey]
    if (!isRecord(map)) continue
    for (const [name, schema] of Object.entries(map)) {
      if (!isRecord(schema) || badPaths.has(`${mapKey}\0${name}`)) continue
      jobs.push(checkTool(check, mapKey, name, schema))
    }
  }
  return (await Promise.all(jobs)).filter((t): t is ToolModel => t !== undefined)
}

/**
 * A folder as its checks left it, before its browser tools are bundled: `candidate` is its model if nothing blocks it.
 */
export interface FolderFindings extends Omit<SkillRecord, 'model'> {
  candidate?: SkillModel
  /**
   * Text of each bare browser tool that passed its checks, by real path: the bundler compiles what
   * was checked and reads nothing again. Not kept in the record.
   */
  sources?: ReadonlyMap<string, string>
}

/** What bundling a folder's browser tools added: esbuild's findings and the files the tools import. */
export interface BundleFindings {
  diagnostics: readonly Diagnostic[]
  files: readonly string[]
}

/**
 * The record of a checked folder, with what bundling found: the one place that decides whether a
 * skill is valid (it has a model) from all of its own findings. Builds a new record.
 */
export function settleSkill(checked: FolderFindings, options: ValidateOptions, bundled?: BundleFindings): SkillRecord {
  const { candidate, sources: _sources, ...checks } = checked
  const diagnostics = bundled?.diagnostics.length ? [...checks.diagnostics, ...bundled.diagnostics] : checks.diagnostics
  const files = bundled?.files.length ? [...new Set([...checks.files, ...bundled.files])].sort() : checks.files
  const record: SkillRecord = { ...checks, diagnostics, files }
  const valid = candidate !== undefined && !diagnostics.some((d) => blocksSkill(d, options))
  return valid ? { ...record, model: candidate } : record
}

/**
 * Validates one skill folder: every rule of the original plus this project's additions. Never
 * throws for bad input and never executes tool code; every finding becomes a diagnostic.
 */
export async function validateSkill(folder: SkillFolder, options: ValidateOptions = {}): Promise<SkillRecord> {
  return settleSkill(await validateFolder(folder, options), options)
}

/**
 * Runs every check of one folder (see validateSkill); the compiler settles it after bundling.
 * `stamps` gets the stamp of each file as it is read (the compiler's cache keeps them).
 */
export async function validateFolder(
  folder: SkillFolder,
  options: ValidateOptions = {},
  stamps?: StampLog,
): Promise<FolderFindings> {
  const read = await readManifest(folder, stamps)
  // The manifest's path is recorded even when unreadable, so that fixing it invalidates the cache.
  if (Array.isArray(read)) return fail(folder, read, [join(folder.dir, MANIFEST)])
  const check: FolderValidation = {
    folder,
    doc: read.doc,
    options,
    diagnostics: [],
    files: new Set([read.real]),
    texts: new Map(),
    exports: new Map(),
    sources: new Map(),
    plainDirs: new Set(),
    stamps,
  }
  const manifest = read.doc.value
  for (const dup of read.doc.duplicateKeys) {
    reportAt(check, dup.path, { code: 'manifest-duplicate-key', data: { key: dup.path.at(-1) } })
  }
  if (read.bom && wantsEgoLite(options)) reportAt(check, [], { code: 'compat-ego-lite', data: { problem: 'bom' } })
  if (folder.symlinked && wantsEgoLite(options))
    reportAt(check, [], { code: 'compat-ego-lite', data: { problem: 'symlink' } })
  const findings = checkManifestSchema(manifest)
  for (const f of findings) reportAt(check, f.path, f)
  if (!isRecord(manifest)) return fail(folder, check.diagnostics, [...check.files])
  if (typeof manifest.id === 'string' && manifest.id !== folder.id)
    reportAt(check, ['id'], { code: 'id-mismatch', data: { folder: folder.id } })
  // Tools whose schema is broken are still looked at, unless their path itself is unusable.
  const badPaths = new Set(
    findings
      .filter((f) => f.code === 'tool-name' || (f.code === 'tool-path' && f.path.length === 3))
      .map((f) => `${f.path[0]}\0${f.path[1]}`),
  )
  for (const key of checkNameCharacters(check, manifest)) badPaths.add(key)
  checkToolNamesUnique(check, manifest)
  const domainSites = checkDomains(check, manifest)
  const patterns = domainSites.map((s) => s.pattern)
  const verification = readVerificationSummary(folder.realDir)
  const [urls, notes, tools, examples] = await Promise.all([
    checkUrls(check, ['urls'], manifest.urls, 'urls'),
    checkNotes(check, manifest),
    checkTools(check, manifest, badPaths),
    checkExamples(check, manifest, { domains: patterns, recorded: verification?.tokens }, findings, badPaths),
  ])
  for (const tool of tools) {
    const list = examples.get(`${tool.kind === 'node' ? 'nodeTools' : 'browserTools'}\0${tool.name}`)
    if (list) tool.examples = list
  }
  const diagnostics = check.diagnostics
  if (verification) check.files.add(verification.path)
  const files = [...check.files].sort()
  const candidate: SkillModel = {
    id: folder.id,
    name: String(manifest.name),
    domains: [...new Set(domainSites.map((s) => s.pattern))],
    ...(urls ? { urls } : {}),
    root: folder.root,
    dir: folder.dir,
    realDir: folder.realDir,
    notes,
    tools,
    ...tokenBudgetOf(manifest.tokenBudget),
    ...resultBudgetOf(manifest.resultBudget),
    ...(verification?.summary ? { verified: verification.summary, recordedTokens: verification.tokens } : {}),
  }
  const sources = check.sources
  return {
    folder,
    diagnostics,
    tools,
    domainSites,
    files,
    manifest: read.real,
    // Not the parsed manifest itself: a record lives until the compile ends (see manifestLocator).
    locate: manifestLocator(read.real),
    candidate,
    sources,
  }
}

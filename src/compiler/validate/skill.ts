import { join } from 'node:path'
import { createDiagnostic, type Diagnostic } from '../diagnostics/catalog'
import type { SkillFolder } from '../discover'
import { checkDomainPattern } from './domains'
import { FILE_LIMITS, isReadFailure, readRegularFile } from '../files'
import { type JsonDocument, isJsonFailure, parseJsonDocument } from '../parse'
import type { NoteModel, SkillRecord, ToolModel } from '../model'
import { inspectPath, isInside, unsafeRelativePath } from '../paths'
import { MANIFEST, type SkillCheck, type ValidateOptions, readSkillText, reportAt, reportTempRefs } from './context'
import { blocksSkill, resolveSkillFile } from './context'
import { checkNameCharacters } from './names'
import { TOOL_KINDS, checkManifestSchema } from './schema'
import { checkTool } from './tools'

export const MAX_MANIFEST_BYTES = FILE_LIMITS.manifest
const RESERVED_PRODUCTS = new Set(['notes', 'tools', 'browser-tools'])
const BOM = '\uFEFF'

type Json = Record<string, unknown>

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The original's isNotePath, release line included: notes/<x>.md or <product>/prompt.md. */
export function isNotePath(path: string): boolean {
  if (unsafeRelativePath(path)) return false
  const [dir, file, ...rest] = path.split('/')
  if (rest.length || !dir || !file) return false
  return (dir === 'notes' && file.endsWith('.md')) || (file === 'prompt.md' && !RESERVED_PRODUCTS.has(dir))
}

function fail(folder: SkillFolder, diagnostics: Diagnostic[], files: string[] = []): SkillRecord {
  return { folder, diagnostics, tools: [], domainSites: [], files }
}

type ManifestProblem =
  | 'manifest-missing'
  | 'manifest-parse'
  | 'manifest-too-large'
  | 'path-escape'
  | 'file-not-regular'
  | 'file-unreadable'

/** Reads and parses manifest.json, or returns the diagnostics that stop the folder here. */
async function readManifest(
  folder: SkillFolder,
): Promise<{ doc: JsonDocument; real: string; bom: boolean } | Diagnostic[]> {
  const file = `${folder.id}/${MANIFEST}`
  const problem = (code: ManifestProblem, message: string, at = {}) => [
    createDiagnostic(folder.id, file, { code, message, ...at }),
  ]
  const state = await inspectPath(join(folder.dir, MANIFEST))
  if (state.kind === 'missing')
    return problem('manifest-missing', 'invalid or missing manifest.json: no manifest.json in this folder')
  if (state.kind === 'directory')
    return problem('manifest-missing', 'invalid or missing manifest.json: manifest.json is a directory')
  if (!isInside(folder.realDir, state.real))
    return problem('path-escape', 'manifest.json resolves outside the skill folder (a symlink leads out of it)')
  const bytes = readRegularFile(state.real, MAX_MANIFEST_BYTES)
  if (isReadFailure(bytes)) {
    const size = `manifest.json is ${bytes.size} bytes; the limit is ${MAX_MANIFEST_BYTES}`
    if (bytes.problem === 'too-large') return problem('manifest-too-large', size)
    const code = bytes.problem === 'not-regular' ? 'file-not-regular' : 'file-unreadable'
    return problem(code, `manifest.json ${bytes.message}`)
  }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    return problem('manifest-parse', 'invalid or missing manifest.json: not UTF-8 text')
  }
  const doc = parseJsonDocument(text)
  if (isJsonFailure(doc))
    return problem('manifest-parse', `invalid or missing manifest.json: ${doc.message}`, doc.position)
  return { doc, real: state.real, bom: text.startsWith(BOM) }
}

function checkDomains(check: SkillCheck, manifest: Json): SkillRecord['domainSites'] {
  const sites: SkillRecord['domainSites'] = []
  // Positions are looked up only for a shadowed pattern; the closure keeps the document, not the check.
  const doc = check.doc
  if (!Array.isArray(manifest.domains)) return sites
  manifest.domains.forEach((raw, index) => {
    if (typeof raw !== 'string' || raw.trim() === '') return
    const result = checkDomainPattern(raw)
    for (const p of result.problems) reportAt(check, ['domains', index], p.code, p.message, p.hint)
    if (result.pattern) sites.push({ pattern: result.pattern, locate: () => doc.locate(['domains', index]) })
  })
  return sites
}

async function checkNotes(check: SkillCheck, manifest: Json): Promise<NoteModel[]> {
  if (!Array.isArray(manifest.notes)) return []
  const notes = await Promise.all(
    manifest.notes.map(async (note, index): Promise<NoteModel | undefined> => {
      if (typeof note !== 'string' || note.trim() === '') return undefined
      if (!isNotePath(note)) {
        const code = unsafeRelativePath(note) === 'escape' ? 'path-escape' : 'note-path'
        return (
          reportAt(
            check,
            ['notes', index],
            code,
            `notes must point to notes/*.md or <product>/prompt.md: ${JSON.stringify(note)}`,
          ),
          undefined
        )
      }
      const real = await resolveSkillFile(check, note, {
        code: 'note-missing',
        message: `missing note ${JSON.stringify(note)}`,
      })
      if (typeof real !== 'string') return (reportAt(check, ['notes', index], real.code, real.message), undefined)
      const content = await readSkillText(check, note, real, 'note', `note ${JSON.stringify(note)}`)
      if (content === undefined) return undefined
      reportTempRefs(check, note, content, `note ${JSON.stringify(note)}`)
      return { path: note, absPath: real, content }
    }),
  )
  return notes.filter((n): n is NoteModel => n !== undefined)
}

/** `sites[id][tool]` needs one namespace: a name may not be both a Node and a browser tool. */
function checkToolNamesUnique(check: SkillCheck, manifest: Json): void {
  const { nodeTools, browserTools } = manifest
  if (!isObject(nodeTools) || !isObject(browserTools)) return
  for (const name of Object.keys(browserTools)) {
    if (Object.hasOwn(nodeTools, name))
      reportAt(
        check,
        ['browserTools', name],
        'tool-name',
        `tool name ${JSON.stringify(name)} is declared in both nodeTools and browserTools`,
        'Tool names share one namespace (sites[id][tool]); rename one of them.',
      )
  }
}

async function checkTools(check: SkillCheck, manifest: Json, badPaths: Set<string>): Promise<ToolModel[]> {
  const jobs: Promise<ToolModel | undefined>[] = []
  for (const mapKey of TOOL_KINDS) {
    const map = manifest[mapKey]
    if (!isObject(map)) continue
    for (const [name, schema] of Object.entries(map)) {
      if (!isObject(schema) || badPaths.has(`${mapKey}\0${name}`)) continue
      jobs.push(checkTool(check, mapKey, name, schema))
    }
  }
  return (await Promise.all(jobs)).filter((t): t is ToolModel => t !== undefined)
}

/**
 * Validates one skill folder: every rule of the original plus this project's additions. Never
 * throws for bad input and never executes tool code; every finding becomes a diagnostic.
 */
export async function validateSkill(folder: SkillFolder, options: ValidateOptions = {}): Promise<SkillRecord> {
  const read = await readManifest(folder)
  // The manifest's path is recorded even when unreadable, so that fixing it invalidates the cache.
  if (Array.isArray(read)) return fail(folder, read, [join(folder.dir, MANIFEST)])
  const check: SkillCheck = {
    folder,
    doc: read.doc,
    options,
    diagnostics: [],
    files: new Set([read.real]),
    texts: new Map(),
    exports: new Map(),
  }
  const manifest = read.doc.value
  for (const dup of read.doc.duplicateKeys) {
    reportAt(
      check,
      dup.path,
      'manifest-duplicate-key',
      `duplicate key ${JSON.stringify(dup.path.at(-1))}; only the last one counts`,
    )
  }
  if (read.bom && options.compat === 'ego-lite')
    reportAt(check, [], 'compat-ego-lite', 'manifest.json starts with a byte order mark, which ego-lite cannot parse')
  if (folder.symlinked && options.compat === 'ego-lite')
    reportAt(check, [], 'compat-ego-lite', 'the skill folder is a symlink, which ego-lite does not see')
  const findings = checkManifestSchema(manifest)
  for (const f of findings) reportAt(check, f.path, f.code, f.message)
  if (!isObject(manifest)) return fail(folder, check.diagnostics, [...check.files])
  if (typeof manifest.id === 'string' && manifest.id !== folder.id)
    reportAt(
      check,
      ['id'],
      'id-mismatch',
      'manifest id must match directory name',
      `Set "id" to ${JSON.stringify(folder.id)}.`,
    )
  // Tools whose schema is broken are still looked at, unless their path itself is unusable.
  const badPaths = new Set(
    findings
      .filter((f) => f.code === 'tool-name' || (f.code === 'tool-path' && f.path.length === 3))
      .map((f) => `${f.path[0]}\0${f.path[1]}`),
  )
  for (const key of checkNameCharacters(check, manifest)) badPaths.add(key)
  checkToolNamesUnique(check, manifest)
  const domainSites = checkDomains(check, manifest)
  const [notes, tools] = await Promise.all([checkNotes(check, manifest), checkTools(check, manifest, badPaths)])
  const diagnostics = check.diagnostics
  const doc = read.doc
  const files = [...check.files].sort()
  const record: SkillRecord = { folder, diagnostics, tools, domainSites, files, locate: (path) => doc.locate(path) }
  if (diagnostics.some((d) => blocksSkill(d, options))) return record
  const domains = [...new Set(domainSites.map((s) => s.pattern))]
  record.model = {
    id: folder.id,
    name: String(manifest.name),
    domains,
    root: folder.root,
    dir: folder.dir,
    realDir: folder.realDir,
    notes,
    tools,
  }
  return record
}

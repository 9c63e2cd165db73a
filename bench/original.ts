/**
 * Baselines: the original ego-lite subsystem's matching and validation, rewritten here from its
 * description so that the benchmarks can run it: listing the learnings, the URL matching helpers
 * and the validator. Like the original it caches nothing: every call lists the root and reads
 * every manifest.
 */
import type { Dirent } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, isAbsolute, join } from 'node:path'
import { pathToFileURL } from 'node:url'

type Json = Record<string, unknown>

/** What the original's siteSkillsForUrl returns per skill (its LearningEntry). */
export interface OriginalEntry {
  id: string
  name: string
  path: string
  domains: string[]
  notes: string[]
  nodeTools: Json
  browserTools: Json
}

const isPlainObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The original's learning folders: not starting with `_`, joined to the root, plain `.sort()`; [] without a root. */
async function iterLearningDirs(root: string): Promise<string[]> {
  let entries: Dirent[]
  try {
    entries = await readdir(root, { withFileTypes: true })
  } catch {
    return []
  }
  return entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('_'))
    .map((e) => join(root, e.name))
    .sort()
}

async function loadManifest(siteDir: string): Promise<Json> {
  const manifest: unknown = JSON.parse(await readFile(join(siteDir, 'manifest.json'), 'utf8'))
  if (!isPlainObject(manifest)) throw new Error(`site skill "${basename(siteDir)}" manifest must be an object`)
  return manifest
}

function learningEntry(siteDir: string, manifest: Json): OriginalEntry {
  const dirName = basename(siteDir)
  // Like the original, the entry trusts the manifest's field types.
  const id = (manifest.id || dirName) as string
  return {
    id,
    name: (manifest.name || id || dirName) as string,
    path: siteDir,
    domains: Array.isArray(manifest.domains) ? manifest.domains : [],
    notes: (Array.isArray(manifest.notes) ? manifest.notes : []).map((n: string) => join(siteDir, n)),
    nodeTools: (manifest.nodeTools || {}) as Json,
    browserTools: (manifest.browserTools || {}) as Json,
  }
}

/** The original's urlHostname: `https://` prepended without `://`; lowercased; one trailing dot off; "" on failure. */
function urlHostname(url: string): string {
  const text = String(url)
  try {
    const host = new URL(text.includes('://') ? text : `https://${text}`).hostname.toLowerCase()
    return host.endsWith('.') ? host.slice(0, -1) : host
  } catch {
    return ''
  }
}

/** The original's domainMatches: `*.x` is any deeper subdomain of x (not x itself); otherwise exact. */
function domainMatches(hostname: string, pattern: string): boolean {
  let p = String(pattern).toLowerCase()
  if (p.endsWith('.')) p = p.slice(0, -1)
  return p.startsWith('*.') ? hostname.endsWith(`.${p.slice(2)}`) : hostname === p
}

/** Every readable manifest of the root as the original's entries (unreadable ones skipped). */
export async function loadEntries(root: string): Promise<OriginalEntry[]> {
  const entries: OriginalEntry[] = []
  for (const siteDir of await iterLearningDirs(root)) {
    let manifest: Json
    try {
      manifest = await loadManifest(siteDir)
    } catch {
      continue
    }
    entries.push(learningEntry(siteDir, manifest))
  }
  return entries
}

export function matchEntries(url: string, entries: readonly OriginalEntry[]): OriginalEntry[] {
  const hostname = urlHostname(url)
  if (!hostname) return []
  return entries.filter((e) => e.domains.some((d) => typeof d === 'string' && domainMatches(hostname, d)))
}

/** The original's siteSkillsForUrl: list the root, read and parse every manifest, match each. */
export async function siteSkillsForUrl(url: string, root: string): Promise<OriginalEntry[]> {
  if (!urlHostname(url)) return []
  return matchEntries(url, await loadEntries(root))
}

// ---- Validation (the original's validateLearning; it does not parse browser tools) ----

const TOOL_VALUE_TYPES = new Set<unknown>(['string', 'number', 'integer', 'boolean', 'array', 'object'])
const TEMP_REF_RE = /(?:@\d+\b|\bref=\d+\b)/

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  )

function isSafeToolName(name: string): boolean {
  return (
    name !== '' && !name.includes('/') && !name.includes('\\') && name !== '.' && name !== '..' && !name.includes('..')
  )
}

function safeSegments(path: unknown): string[] {
  if (typeof path !== 'string' || path === '' || path.includes('\\') || isAbsolute(path)) return []
  const parts = path.split('/')
  return parts.every((p) => p !== '' && p !== '.' && p !== '..') ? parts : []
}

function isTwoPartPath(path: unknown, dir: string, ext: string): path is string {
  const parts = safeSegments(path)
  return parts.length === 2 && parts[0] === dir && parts[1]!.endsWith(ext)
}

/** Non-empty trimmed strings, or the error and []. */
function stringList(manifest: Json, key: string, errors: string[], siteId: string): string[] {
  const value = manifest[key] || []
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' && v.trim() !== '')) return value
  errors.push(`${siteId}: ${key} must be a list of non-empty strings`)
  return []
}

function isValidDomain(pattern: string): boolean {
  if (!pattern || pattern.includes('://') || pattern.includes('/') || pattern.startsWith('.') || pattern.endsWith('.'))
    return false
  if (!pattern.includes('*')) return true
  return pattern.startsWith('*.') && pattern.indexOf('*') === pattern.lastIndexOf('*') && pattern.length > 2
}

function checkValueSchema(prefix: string, schema: unknown, errors: string[], kind: 'arg' | 'return'): void {
  if (!isPlainObject(schema)) {
    errors.push(`${prefix}: schema must be an object`)
    return
  }
  if (!TOOL_VALUE_TYPES.has(schema.type)) errors.push(`${prefix}: invalid ${kind} type ${JSON.stringify(schema.type)}`)
  if (kind === 'arg' && typeof schema.required !== 'boolean') errors.push(`${prefix}: required must be a boolean`)
  if (typeof schema.description !== 'string' || !schema.description.trim())
    errors.push(`${prefix}: description must be a non-empty string`)
}

function checkToolSchema(
  siteId: string,
  key: 'nodeTools' | 'browserTools',
  name: string,
  schema: unknown,
  errors: string[],
): void {
  const prefix = `${siteId}: ${key}.${name}`
  if (!isSafeToolName(name)) {
    errors.push(`${siteId}: ${key} contains invalid tool name ${JSON.stringify(name)}`)
    return
  }
  if (!isPlainObject(schema)) {
    errors.push(`${prefix}: schema must be an object`)
    return
  }
  if (typeof schema.description !== 'string' || !schema.description.trim())
    errors.push(`${prefix}: description must be a non-empty string`)
  if (key === 'nodeTools') {
    if (!isTwoPartPath(schema.path, 'tools', '.js')) errors.push(`${prefix}: path must be a relative tools/*.js path`)
    if (typeof schema.callable !== 'string' || !schema.callable.trim())
      errors.push(`${prefix}: callable must be a non-empty string`)
  } else if (!isTwoPartPath(schema.path, 'browser-tools', '.js')) {
    errors.push(`${prefix}: path must be a relative browser-tools/*.js path`)
  }
  if (!isPlainObject(schema.args)) errors.push(`${prefix}: args must be an object`)
  else {
    for (const [arg, argSchema] of Object.entries(schema.args)) {
      if (!arg.trim()) errors.push(`${prefix}: args contains invalid argument name ${JSON.stringify(arg)}`)
      else checkValueSchema(`${prefix}.args.${arg}`, argSchema, errors, 'arg')
    }
  }
  if (!isPlainObject(schema.returns)) errors.push(`${prefix}: returns must be an object`)
  else checkValueSchema(`${prefix}.returns`, schema.returns, errors, 'return')
}

/** Schema pass over a tool map; returns the map (entries with bad names included, as the original does). */
function checkToolMap(manifest: Json, key: 'nodeTools' | 'browserTools', errors: string[], siteId: string): Json {
  const map = manifest[key] || {}
  if (!isPlainObject(map)) {
    errors.push(`${siteId}: ${key} must be an object keyed by tool name`)
    return {}
  }
  for (const [name, schema] of Object.entries(map)) checkToolSchema(siteId, key, name, schema, errors)
  return map
}

async function checkTempRefs(file: string, label: string, errors: string[]): Promise<void> {
  const text = await readFile(file, 'utf8').catch(() => undefined)
  if (text !== undefined && TEMP_REF_RE.test(text))
    errors.push(`${label}: contains temporary snapshot ref; use stable locators instead`)
}

/** Node tool files: each must exist; then the module is imported (its top-level code runs) to check the callable. */
async function checkNodeToolFiles(siteDir: string, siteId: string, tools: Json, errors: string[]): Promise<void> {
  for (const [name, schema] of Object.entries(tools)) {
    if (!isPlainObject(schema) || !isTwoPartPath(schema.path, 'tools', '.js')) continue
    const file = join(siteDir, schema.path)
    if (!(await exists(file))) {
      errors.push(`${siteId}: missing Node tool file ${JSON.stringify(schema.path)} for tool ${JSON.stringify(name)}`)
      continue
    }
    await checkTempRefs(file, `${siteId}: Node tool ${JSON.stringify(name)}`, errors)
    try {
      const mod = await import(`${pathToFileURL(file).href}?validate=${Date.now()}`)
      if (typeof schema.callable === 'string' && typeof mod[schema.callable] !== 'function') {
        errors.push(
          `${siteId}: missing Node callable ${JSON.stringify(schema.callable)} for tool ${JSON.stringify(name)}`,
        )
      }
    } catch (error) {
      errors.push(`${siteId}: cannot import Node tool ${JSON.stringify(schema.path)}: ${(error as Error).message}`)
    }
  }
}

async function checkBrowserToolFiles(siteDir: string, siteId: string, tools: Json, errors: string[]): Promise<void> {
  for (const [name, schema] of Object.entries(tools)) {
    if (!isPlainObject(schema) || !isTwoPartPath(schema.path, 'browser-tools', '.js')) continue
    const file = join(siteDir, schema.path)
    if (!(await exists(file)))
      errors.push(
        `${siteId}: missing browser tool file ${JSON.stringify(schema.path)} for tool ${JSON.stringify(name)}`,
      )
    await checkTempRefs(file, `${siteId}: browser tool ${JSON.stringify(name)}`, errors)
  }
}

async function checkNotes(siteDir: string, siteId: string, manifest: Json, errors: string[]): Promise<void> {
  for (const note of stringList(manifest, 'notes', errors, siteId)) {
    if (!isTwoPartPath(note, 'notes', '.md')) {
      errors.push(`${siteId}: notes must point to notes/*.md: ${JSON.stringify(note)}`)
      continue
    }
    if (!(await exists(join(siteDir, note)))) errors.push(`${siteId}: missing note ${JSON.stringify(note)}`)
    await checkTempRefs(join(siteDir, note), `${siteId}: note ${JSON.stringify(note)}`, errors)
  }
}

/** The original's validateLearning(siteDir): every error as `<siteId>: <message>`, in its order. */
async function validateLearning(siteDir: string): Promise<string[]> {
  const siteId = basename(siteDir)
  let manifest: unknown
  try {
    manifest = JSON.parse(await readFile(join(siteDir, 'manifest.json'), 'utf8'))
  } catch (error) {
    return [`${siteId}: invalid or missing manifest.json: ${(error as Error).message}`]
  }
  if (!isPlainObject(manifest)) return [`${siteId}: manifest.json must contain a JSON object`]
  const errors: string[] = []
  if (manifest.id !== siteId) errors.push(`${siteId}: manifest id must match directory name`)
  if (typeof manifest.name !== 'string' || !manifest.name.trim())
    errors.push(`${siteId}: name must be a non-empty string`)
  const domains = stringList(manifest, 'domains', errors, siteId)
  if (domains.length === 0) errors.push(`${siteId}: domains must not be empty`)
  for (const d of domains) if (!isValidDomain(d)) errors.push(`${siteId}: invalid domain ${JSON.stringify(d)}`)
  await checkNotes(siteDir, siteId, manifest, errors)
  await checkNodeToolFiles(siteDir, siteId, checkToolMap(manifest, 'nodeTools', errors, siteId), errors)
  await checkBrowserToolFiles(siteDir, siteId, checkToolMap(manifest, 'browserTools', errors, siteId), errors)
  return errors
}

/** The original's validateLearnings / validateSiteSkills: one folder after the other. */
export async function validateLearnings(root: string): Promise<string[]> {
  const errors: string[] = []
  for (const siteDir of await iterLearningDirs(root)) errors.push(...(await validateLearning(siteDir)))
  return errors
}

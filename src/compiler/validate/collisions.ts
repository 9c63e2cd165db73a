import { assignToolNames } from '../../../runtime/internal'
import { createDiagnostic, type Diagnostic } from '../diagnostics/catalog'
import type { SkillRecord } from '../model'
import { MANIFEST } from '../discover/skills'

type Found = Map<SkillRecord, Diagnostic[]>

/**
 * Adds a finding to its record's list in place (a list copied on each add is quadratic in the findings of one skill).
 */
export function addFinding(found: Found, record: SkillRecord, d: Diagnostic): void {
  const list = found.get(record)
  if (list) list.push(d)
  else found.set(record, [d])
}

/** The model-facing name the runtime gives a tool when no other name is in its way. */
export function modelName(siteId: string, tool: string): string {
  return assignToolNames([{ siteId, tool }]).values().next().value!
}

/**
 * Ids equal but for case (or Unicode normalization) are one folder on a case-insensitive file
 * system (macOS, Windows): a warning on the later one. Equal ids are `duplicate-id`, not this.
 */
function checkIdCase(records: readonly SkillRecord[], found: Found): void {
  const seen = new Map<string, string>()
  for (const record of records) {
    const { id } = record.folder
    const key = id.normalize('NFC').toLowerCase()
    const first = seen.get(key)
    if (first === undefined) seen.set(key, id)
    else if (first !== id) {
      const init = { code: 'id-case-collision', data: { id, first } } as const
      addFinding(found, record, createDiagnostic(record.folder, `${id}/${MANIFEST}`, init))
    }
  }
}

/**
 * Model tool names (`<siteId>__<tool>`, sanitized and cut) must name one tool each: the runtime
 * would otherwise number them by load order. The later tool of a collision is an error.
 */
function checkModelNames(records: readonly SkillRecord[], found: Found): void {
  const owners = new Map<string, { siteId: string; tool: string }>()
  const ids = new Set<string>()
  for (const record of records) {
    // A second skill of the same id is `duplicate-id` and is left out of the build.
    if (!record.model || ids.has(record.model.id)) continue
    const siteId = record.model.id
    ids.add(siteId)
    for (const tool of record.model.tools) {
      const name = modelName(siteId, tool.name)
      const owner = owners.get(name)
      if (!owner) {
        owners.set(name, { siteId, tool: tool.name })
        continue
      }
      const ownerSite = owner.siteId === siteId ? {} : { ownerSite: owner.siteId }
      const data = { tool: tool.name, name, owner: owner.tool, ...ownerSite }
      const at = record.locate?.([tool.kind === 'node' ? 'nodeTools' : 'browserTools', tool.name])
      const file = `${siteId}/${MANIFEST}`
      addFinding(found, record, createDiagnostic(record.folder, file, { code: 'tool-name-collision', data, ...at }))
    }
  }
}

/** Names that collide across skills: ids differing only in case, and model tool names. */
export function checkCollisions(records: readonly SkillRecord[]): Found {
  const found: Found = new Map()
  checkIdCase(records, found)
  checkModelNames(records, found)
  return found
}

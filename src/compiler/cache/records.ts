import type { BrowserToolCode } from '../../../runtime/index'
import type { SkillModel, SkillRecord } from '../model'
import type { StoredInputs } from './inputs'
import { manifestLocator } from '../locate'

/**
 * A skill's record as the cache file holds it: data only (positions are looked up again when
 * asked), and the model's tools once (they are the record's).
 */
export type StoredRecord = Omit<SkillRecord, 'locate' | 'model'> & {
  locatable: boolean
  model?: Omit<SkillModel, 'tools'>
}

/** One skill in the cache file: its folder's key, its inputs, and what compiling it gave. */
export interface StoredSkill {
  key: string
  inputs: StoredInputs
  record: StoredRecord
  browser: Record<string, BrowserToolCode>
}

export function storeRecord(record: SkillRecord): StoredRecord {
  const { locate, model, ...data } = record
  const stored: StoredRecord = { ...data, locatable: locate !== undefined }
  if (model) {
    const { tools: _, ...rest } = model
    stored.model = rest
  }
  return stored
}

/**
 * The record again, with `locate` reading the manifest anew on first use: only cross-skill
 * findings ask for a position after the fact, and the manifest's content is the one the digest
 * was taken of (else the skill would not have been reused).
 */
export function restoreRecord(stored: StoredRecord): SkillRecord {
  const { locatable, model, ...data } = stored
  const record: SkillRecord = model ? { ...data, model: { ...model, tools: data.tools } } : data
  if (!locatable || !record.manifest) return record
  const locate = manifestLocator(record.manifest)
  return { ...record, locate }
}

import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { createDiagnostic } from '../diagnostics/catalog'
import type { SkillFolder } from '../model'
import { MANIFEST } from './skills'
import type { SkillRecord } from '../model'

/** Files of a broken folder watched for a fix; a bound, for a folder that holds a whole tree. */
const MAX_LISTED = 10_000

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .slice(0, MAX_LISTED)
      .map((rel) => join(dir, rel))
  } catch {
    return []
  }
}

/**
 * The record of a folder whose check threw (a file too large to read as text, an I/O error): one
 * error for this skill alone, so the other skills still load. Its digest covers every file in the
 * folder, so that fixing any of them checks it again.
 */
export function unreadableSkill(folder: SkillFolder, error: unknown): SkillRecord {
  const reason = error instanceof Error ? error.message : String(error)
  const diagnostic = createDiagnostic(folder, `${folder.id}/${MANIFEST}`, {
    code: 'skill-unreadable',
    data: { reason },
  })
  const files = [...new Set([join(folder.realDir, MANIFEST), ...listFiles(folder.realDir)])].sort()
  return { folder, diagnostics: [diagnostic], tools: [], domainSites: [], files }
}

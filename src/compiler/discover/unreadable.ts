import { join } from 'node:path'
import { createDiagnostic } from '../diagnostics/catalog'
import { walkSkillTree } from '../fs/tree'
import type { SkillFolder } from '../model'
import { MANIFEST } from './skills'
import type { SkillRecord } from '../model'

/**
 * Files of a broken folder watched for a fix: the file guard's bounded walk (no loop, no link out), and what it
 * refused.
 */
function listFiles(dir: string): string[] {
  const { files, refused } = walkSkillTree(dir)
  return [...files.map((f) => f.real), ...refused.map((r) => join(dir, r.rel))]
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

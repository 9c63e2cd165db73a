import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import type { KnowledgeNote } from '../../runtime/types'
import type { SkillModel } from './model'

/** The notes of a skill as an agent puts them in its prompt; an unreadable note is left out. */
export async function readNotes(model: SkillModel): Promise<KnowledgeNote[]> {
  const texts = await Promise.all(model.notes.map((n) => readFile(n.absPath, 'utf8').catch(() => undefined)))
  return model.notes.flatMap((n, i) => (texts[i] === undefined ? [] : [{ siteId: model.id, fileName: basename(n.path), path: n.path, content: texts[i]! }]))
}

import { basename } from 'node:path'
import type { KnowledgeNote } from '../../runtime/types'
import type { SkillModel } from './model'

/** The notes of a skill as an agent puts them in its prompt (the text read when it was checked). */
export function notesOf(model: SkillModel): KnowledgeNote[] {
  return model.notes.map((n) => ({ siteId: model.id, fileName: basename(n.path), content: n.content }))
}

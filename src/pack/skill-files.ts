import { FILE_LIMITS, isReadFailure, readRegularFile } from '../compiler/fs/files'
import { walkSkillTree } from '../compiler/fs/tree'

/** One file of a skill, read for the pack. */
export interface PackedFile {
  /** Path inside the skill folder, forward slashes. */
  rel: string
  bytes: Buffer
}

/** A file of a skill that cannot go in a pack, and why. */
export interface UnpackableFile {
  rel: string
  reason: string
}

/**
 * Every file of a skill folder that a pack holds, in path order: the files of the skill as the
 * file guard walks them (walkSkillTree: the same files its verification record hashes, dotfiles
 * included, what npm never packs left out), each read by the guard, at most the fixture limit. A
 * symlink out of the folder, a loop, a FIFO, a device, an unreadable or too large file is refused.
 */
export function skillFiles(realDir: string): { files: PackedFile[]; refused: UnpackableFile[] } {
  const tree = walkSkillTree(realDir)
  const refused: UnpackableFile[] = tree.refused.map(({ rel, reason }) => ({ rel, reason }))
  const files: PackedFile[] = []
  for (const { rel, real } of tree.files) {
    const read = readRegularFile(real, FILE_LIMITS.fixture)
    if (isReadFailure(read)) refused.push({ rel, reason: read.message })
    else files.push({ rel, bytes: read })
  }
  return { files, refused }
}

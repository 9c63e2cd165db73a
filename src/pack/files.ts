import { lstatSync, readdirSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import { FILE_LIMITS, isReadFailure, readRegularFile } from '../compiler/fs/files'
import { isInside, toPosix } from '../compiler/fs/paths'

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

/** Names never packed: dotfiles (`.env`, `.DS_Store`, `.git`) and installed packages. */
const SKIPPED_RE = /^\.|^node_modules$/
/** A bound on the files of one skill, like the watcher's. */
const MAX_FILES = 10_000

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * Every file of a skill folder that a pack holds, in path order: regular files, at most the fixture
 * limit each; a symlink is followed only while it stays inside the skill folder (`realDir`), and a
 * FIFO, device, unreadable or too large file is refused. Dotfiles and node_modules are left out.
 */
export function skillFiles(realDir: string): { files: PackedFile[]; refused: UnpackableFile[] } {
  const files: PackedFile[] = []
  const refused: UnpackableFile[] = []
  const seen = new Set<string>([realDir])
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir).sort(byName)) {
      if (SKIPPED_RE.test(name)) continue
      if (files.length + refused.length >= MAX_FILES) {
        refused.push({ rel: `${prefix}${name}`, reason: `the skill holds more than ${MAX_FILES} files` })
        return
      }
      const rel = `${prefix}${name}`
      const path = join(dir, name)
      let real = path
      if (lstatSync(path).isSymbolicLink()) {
        try {
          real = realpathSync.native(path)
        } catch {
          refused.push({ rel, reason: 'is a symlink that points nowhere' })
          continue
        }
        if (!isInside(realDir, real)) {
          refused.push({ rel, reason: 'is a symlink that leads out of the skill folder' })
          continue
        }
      }
      if (lstatSync(real).isDirectory()) {
        if (seen.has(real)) refused.push({ rel, reason: 'is a symlink to a folder it is in (a loop)' })
        else walk(real, `${rel}/`)
        seen.add(real)
        continue
      }
      const read = readRegularFile(real, FILE_LIMITS.fixture)
      if (isReadFailure(read)) refused.push({ rel, reason: read.message })
      else files.push({ rel: toPosix(rel), bytes: read })
    }
  }
  walk(realDir, '')
  return { files, refused }
}

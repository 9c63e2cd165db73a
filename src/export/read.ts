import { lstatSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { FILE_LIMITS, isReadFailure, readRegularFile } from '../compiler/fs/files'
import { toPosix } from '../compiler/fs/paths'
import type { AgentSkillFolder } from './agent-skill'
import { checkAgentSkill } from './rules'

/**
 * A folder on disk as path -> bytes (symlinks not followed), and which files are executable. Each
 * file is read through the file guard (a regular file, at most the fixture limit): one swapped for
 * a FIFO or grown past the limit reads as empty, so it differs from what the export writes.
 */
export async function readFolder(dir: string): Promise<{ files: Map<string, Buffer>; executable: Set<string> }> {
  const files = new Map<string, Buffer>()
  const executable = new Set<string>()
  const walk = async (at: string) => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name)
      if (entry.isDirectory()) await walk(path)
      else if (entry.isFile()) {
        const rel = toPosix(relative(dir, path))
        const read = readRegularFile(path, FILE_LIMITS.fixture)
        files.set(rel, isReadFailure(read) ? Buffer.alloc(0) : read)
        if ((lstatSync(path, { throwIfNoEntry: false })?.mode ?? 0) & 0o100) executable.add(rel)
      }
    }
  }
  await walk(dir)
  return { files, executable }
}

const bytes = (content: string | Uint8Array) => (typeof content === 'string' ? Buffer.from(content) : content)

/**
 * How the folder at `dir` differs from what the export writes (missing, changed, extra files) and the rules it breaks.
 */
export async function folderDrift(dir: string, folder: AgentSkillFolder): Promise<string[]> {
  const found = await readFolder(dir).catch(() => undefined)
  if (!found) return [`${folder.name}: missing`]
  const drift: string[] = []
  for (const file of folder.files) {
    const on = found.files.get(file.path)
    if (!on) drift.push(`${folder.name}/${file.path}: missing`)
    else if (!on.equals(bytes(file.content))) drift.push(`${folder.name}/${file.path}: changed`)
    else if (Boolean(file.executable) !== found.executable.has(file.path))
      drift.push(`${folder.name}/${file.path}: ${file.executable ? 'not executable' : 'executable'}`)
  }
  const planned = new Set(folder.files.map((f) => f.path))
  for (const path of found.files.keys())
    if (!planned.has(path)) drift.push(`${folder.name}/${path}: not written by the export`)
  // The folder as it is must keep the format's rules too (an edited SKILL.md may not).
  for (const p of checkAgentSkill(folder.name, found.files))
    drift.push(`${folder.name}/${p.file}:${p.line}: ${p.message}`)
  return drift
}

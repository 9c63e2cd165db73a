import { chmod, lstat, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { FILE_LIMITS, isReadFailure, readRegularFile } from '../compiler/fs/files'
import { dirname, join } from 'node:path'
import { type AgentSkillFolder, EXPORT_MARKER } from './agent-skill'

/** An export that would replace what it did not write: nothing is written. */
export class ExportConflictError extends Error {
  constructor(readonly paths: string[]) {
    super(
      `${paths.join(', ')} ${paths.length === 1 ? 'exists and was' : 'exist and were'} not written by site-skills ` +
        `export (no ${EXPORT_MARKER}): move ${paths.length === 1 ? 'it' : 'them'} away or choose another --out`,
    )
  }
}

/** What is at `path`: nothing, a folder an earlier export wrote, or something else. */
async function occupant(path: string): Promise<'none' | 'export' | 'other'> {
  const info = await lstat(path).catch(() => undefined)
  if (!info) return 'none'
  if (!info.isDirectory()) return 'other'
  // Through the file guard: a marker that is a FIFO or a link to /dev/zero is no export's.
  const marker = readRegularFile(join(path, EXPORT_MARKER), FILE_LIMITS.manifest)
  if (isReadFailure(marker)) return 'other'
  try {
    const { generator } = JSON.parse(marker.toString('utf8')) as { generator?: unknown }
    return generator === 'unplugin-site-skills' ? 'export' : 'other'
  } catch {
    return 'other'
  }
}

async function writeFolder(dir: string, folder: AgentSkillFolder): Promise<void> {
  for (const file of folder.files) {
    const path = join(dir, ...file.path.split('/'))
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, file.content)
    // Modes set outright, so that the umask does not change the output.
    await chmod(path, file.executable ? 0o755 : 0o644)
  }
}

/** Which folders may be written (none there, or an earlier export's); throws ExportConflictError otherwise. */
async function checkOut(out: string, folders: readonly AgentSkillFolder[]): Promise<Set<string>> {
  const outInfo = await lstat(out).catch(() => undefined)
  if (outInfo && !outInfo.isDirectory()) throw new ExportConflictError([out])
  const replaced = new Set<string>()
  const conflicts: string[] = []
  for (const { name } of folders) {
    const found = await occupant(join(out, name))
    if (found === 'other') conflicts.push(join(out, name))
    if (found === 'export') replaced.add(name)
  }
  if (conflicts.length) throw new ExportConflictError(conflicts)
  return replaced
}

/**
 * Writes each folder to `out/<name>`: all of them first into a temporary folder inside `out`, then
 * each moved into place by a rename (replacing an earlier export's folder of that name). On any
 * error, the folders already moved are put back as they were and nothing is left behind; other
 * entries of `out` are never touched. Returns the names of the folders it replaced.
 */
export async function writeAgentSkills(out: string, folders: readonly AgentSkillFolder[]): Promise<string[]> {
  const replaced = await checkOut(out, folders)
  const created = await mkdir(out, { recursive: true })
  const tmp = await mkdtemp(join(out, '.site-skills-export-'))
  const moved: string[] = []
  let failed = false
  try {
    for (const folder of folders) await writeFolder(join(tmp, 'new', folder.name), folder)
    await mkdir(join(tmp, 'old'))
    for (const { name } of folders) {
      if (replaced.has(name)) await rename(join(out, name), join(tmp, 'old', name))
      moved.push(name)
      await rename(join(tmp, 'new', name), join(out, name))
    }
  } catch (error) {
    failed = true
    await restore(out, tmp, moved, replaced)
    throw error
  } finally {
    await rm(tmp, { recursive: true, force: true })
    // A folder this call made for `out` goes too: a failed export leaves nothing.
    if (failed && created) await rm(created, { recursive: true, force: true })
  }
  return [...replaced].sort()
}

/** Undoes the moves of a failed write: each new folder out, the earlier export's back. */
async function restore(out: string, tmp: string, moved: readonly string[], replaced: ReadonlySet<string>) {
  await mkdir(join(tmp, 'failed'), { recursive: true })
  for (const name of [...moved].reverse()) {
    await rename(join(out, name), join(tmp, 'failed', name)).catch(() => undefined)
    if (replaced.has(name)) await rename(join(tmp, 'old', name), join(out, name)).catch(() => undefined)
  }
}

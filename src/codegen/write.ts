import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * Writes `content` unless the file already holds exactly it. Returns whether it wrote. Only a
 * regular file is read first, and only when its size matches: reading `/dev/stdout` or a FIFO would
 * wait for input that never comes. Compared as bytes: a large d.ts is not decoded again to compare.
 */
export async function writeIfChanged(path: string, content: string): Promise<boolean> {
  const kind = await stat(path).catch(() => undefined)
  if (kind && !kind.isFile()) {
    await writeFile(path, content)
    return true
  }
  const bytes = Buffer.from(content, 'utf8')
  if (kind?.size === bytes.length) {
    const current = await readFile(path).catch(() => undefined)
    if (current?.equals(bytes)) return false
  }
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, bytes)
  return true
}

/** Whether `path` names something other than a regular file (a terminal, a pipe, `/dev/stdout`). */
export async function isSpecialFile(path: string): Promise<boolean> {
  const kind = await stat(path).catch(() => undefined)
  return kind !== undefined && !kind.isFile()
}

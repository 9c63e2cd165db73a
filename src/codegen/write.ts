import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * Writes `content` unless the file already holds exactly it. Returns whether it wrote. Only a
 * regular file of the same size is read first: reading `/dev/stdout` or a FIFO would wait for input
 * that never comes, and a file of another size cannot hold the same text.
 */
export async function writeIfChanged(path: string, content: string): Promise<boolean> {
  const kind = await stat(path).catch(() => undefined)
  if (kind && !kind.isFile()) {
    await writeFile(path, content)
    return true
  }
  if (kind?.size === Buffer.byteLength(content, 'utf8')) {
    const current = await readFile(path, 'utf8').catch(() => undefined)
    if (current === content) return false
  }
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, content)
  return true
}

/** Whether `path` names something other than a regular file (a terminal, a pipe, `/dev/stdout`). */
export async function isSpecialFile(path: string): Promise<boolean> {
  const kind = await stat(path).catch(() => undefined)
  return kind !== undefined && !kind.isFile()
}

import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

/** Writes `content` unless the file already holds exactly it. Returns whether it wrote. */
export async function writeIfChanged(path: string, content: string): Promise<boolean> {
  const current = await readFile(path, 'utf8').catch(() => undefined)
  if (current === content) return false
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, content)
  return true
}

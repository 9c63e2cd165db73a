import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'

export const REPO_ROOT = resolve(import.meta.dirname, '../..')
const TMP_ROOT = join(REPO_ROOT, 'test/.tmp')

/** A fresh folder under test/.tmp (inside the repo so packages resolve), removed by `cleanup`. */
export async function makeTempDir(prefix = 'case-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  await mkdir(TMP_ROOT, { recursive: true })
  const dir = await mkdtemp(join(TMP_ROOT, prefix))
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) }
}

/** Writes a tree of files: `{ 'a/manifest.json': {...} | 'text', 'b/link': { symlink: '../x' } }`. */
export async function writeTree(root: string, files: Record<string, unknown>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel)
    await mkdir(dirname(path), { recursive: true })
    if (content && typeof content === 'object' && 'symlink' in content)
      await symlink(String((content as { symlink: string }).symlink), path)
    else if (typeof content === 'string' || content instanceof Uint8Array) await writeFile(path, content)
    else await writeFile(path, `${JSON.stringify(content, null, 2)}\n`)
  }
}

import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { toPosix } from '../compiler/fs/paths'
import { DIGESTS_FILE, type PackFiles } from './package'

/** Files a pack holds besides those its digests list. */
const OWN_FILES = ['README.md', 'package.json', DIGESTS_FILE]

function listTree(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const rel = `${prefix}${entry.name}`
    return entry.isDirectory() && !entry.isSymbolicLink() ? listTree(join(dir, entry.name), `${rel}/`) : [toPosix(rel)]
  })
}

/**
 * Why `out` cannot take a pack, or undefined: it may be missing, an empty folder, or a pack this
 * command wrote (exactly its digests' files and its own three), which is then replaced whole.
 */
export function outProblem(out: string): string | undefined {
  if (!existsSync(out)) return undefined
  if (!lstatSync(out).isDirectory()) return 'is not a folder'
  const present = listTree(out)
  if (present.length === 0) return undefined
  let listed: string[]
  try {
    listed = Object.keys(JSON.parse(readFileSync(join(out, DIGESTS_FILE), 'utf8')).files ?? {})
  } catch {
    return 'is not empty and holds no pack (no digests.json): pick an empty or new folder'
  }
  const expected = new Set([...listed, ...OWN_FILES])
  const extra = present.find((rel) => !expected.has(rel))
  return extra ? `holds ${extra}, which is not part of the pack there: pick an empty or new folder` : undefined
}

/**
 * Writes a pack into `out`: into a new folder next to it first, which then takes the place of `out`
 * (a previous pack there goes only once the new one is complete).
 */
export function writePack(out: string, files: PackFiles): void {
  const staging = join(dirname(out), `.${basename(out)}.pack-${process.pid}`)
  rmSync(staging, { recursive: true, force: true })
  try {
    mkdirSync(staging, { recursive: true })
    for (const [rel, bytes] of files) {
      const path = join(staging, rel)
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, bytes, { flag: 'wx' })
    }
    if (existsSync(out)) rmSync(out, { recursive: true })
    renameSync(staging, out)
  } catch (error) {
    rmSync(staging, { recursive: true, force: true })
    throw error
  }
}

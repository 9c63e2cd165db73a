import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { FILE_LIMITS, isReadFailure, readRegularFile } from '../compiler/fs/files'
import { toPosix } from '../compiler/fs/paths'
import { DIGESTS_FILE, type PackFiles } from './contents'

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
    // Through the file guard: a digests.json that is a FIFO or huge is no pack's.
    const read = readRegularFile(join(out, DIGESTS_FILE), FILE_LIMITS.record)
    if (isReadFailure(read)) throw new Error(read.message)
    listed = Object.keys(JSON.parse(read.toString('utf8')).files ?? {})
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
  mkdirSync(dirname(out), { recursive: true })
  // A new folder, made here and now (never one that was there), whose files are all new (`wx`).
  const staging = mkdtempSync(join(dirname(out), `.${basename(out)}.pack-`))
  try {
    // mkdtemp makes it for its owner alone; a pack folder is read by others (npm, a CI user).
    chmodSync(staging, 0o755)
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

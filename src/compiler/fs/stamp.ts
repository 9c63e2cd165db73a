import { createHash } from 'node:crypto'
import { type BigIntStats, statSync } from 'node:fs'

/**
 * What a file looks like without reading it: size, modification time (nanosecond precision where
 * the file system has it), inode and mode. Caches compare stamps, so checking a skill tree for changes
 * costs one stat per file instead of reading and hashing every file.
 */
export function stampOf(path: string): string {
  try {
    return stampOfStats(statSync(path, { bigint: true }))
  } catch {
    return 'missing'
  }
}

/** The stamp of a file from its stats (as `stat` or `fstat` give them, in bigints). */
export function stampOfStats(info: BigIntStats): string {
  // The mode too: a file made readable again (chmod does not touch mtime) must be read again.
  return info.isDirectory() ? 'dir' : `${info.size}:${info.mtimeNs}:${info.ino}:${info.mode}`
}

/**
 * Stamps taken as files are read (by `readRegularFile`), by path, for one compile: the stamp of
 * what was read, without a second `stat`. The first read of a path wins: a cache that keeps that
 * stamp sees a later change as a change. With `digests`, each read also leaves the digest of the
 * bytes it read (see contentDigest), so a cache keyed by content need not read the files again.
 */
export type StampLog = Map<string, string> & { digests?: Map<string, string> }

/** The digest a StampLog keeps of a file's content. */
export function contentDigest(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('base64').slice(0, 32)
}

/** One string for a list of files: equal exactly when no file changed, appeared or went away. */
export function stampFiles(files: readonly string[], salt = '', known?: StampLog): string {
  let out = salt
  for (const file of files) out += `\n${file}\0${known?.get(file) ?? stampOf(file)}`
  return out
}

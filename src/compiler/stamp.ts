import { statSync } from 'node:fs'

/**
 * What a file looks like without reading it: size, modification time (nanosecond precision where
 * the file system has it), inode and mode. Caches compare stamps, so checking a skill tree for changes
 * costs one stat per file instead of reading and hashing every file.
 */
export function stampOf(path: string): string {
  try {
    const info = statSync(path, { bigint: true })
    // The mode too: a file made readable again (chmod does not touch mtime) must be read again.
    return info.isDirectory() ? 'dir' : `${info.size}:${info.mtimeNs}:${info.ino}:${info.mode}`
  } catch {
    return 'missing'
  }
}

/** One string for a list of files: equal exactly when no file changed, appeared or went away. */
export function stampFiles(files: readonly string[], salt = ''): string {
  let out = salt
  for (const file of files) out += `\n${file}\0${stampOf(file)}`
  return out
}

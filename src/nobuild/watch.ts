import { type FSWatcher, statSync, watch } from 'node:fs'
import { dirname, sep } from 'node:path'
import type { CompileResult } from '../compiler/compile'

/**
 * Non-recursive watchers, one per folder, each unref'd: unlike a recursive `fs.watch` on Linux
 * (whose per-folder watchers stay referenced), they never keep a process alive. A folder that is
 * deleted and created again is a new inode and gets a new watcher on the next `update`.
 */
export interface FolderWatcher {
  /**
   * Watches exactly `dirs`. Returns `added` (a watcher was created: changes made before it existed
   * were not seen) and `complete` (every folder is watched; a missing one or a system limit is not).
   */
  update: (dirs: Iterable<string>) => { added: boolean; complete: boolean }
  close: () => void
}

interface Watched {
  watcher: FSWatcher
  inode: string
}

function inodeOf(dir: string): string | undefined {
  try {
    const info = statSync(dir, { bigint: true })
    return info.isDirectory() ? `${info.dev}:${info.ino}` : undefined
  } catch {
    return undefined
  }
}

export function createFolderWatcher(onChange: () => void): FolderWatcher {
  const watched = new Map<string, Watched>()

  function unwatch(dir: string): void {
    watched.get(dir)?.watcher.close()
    watched.delete(dir)
  }

  function start(dir: string, inode: string): boolean {
    try {
      const watcher = watch(dir, { persistent: false }, onChange)
      watcher.on('error', () => {
        unwatch(dir)
        onChange()
      })
      watched.set(dir, { watcher, inode })
      return true
    } catch {
      return false
    }
  }

  return {
    update(dirs) {
      const wanted = new Set(dirs)
      for (const dir of [...watched.keys()]) if (!wanted.has(dir)) unwatch(dir)
      let added = false
      let complete = true
      for (const dir of wanted) {
        const inode = inodeOf(dir)
        if (inode !== undefined && watched.get(dir)?.inode === inode) continue
        unwatch(dir)
        if (inode !== undefined && start(dir, inode)) added = true
        else complete = false
      }
      return { added, complete }
    },
    close() {
      for (const dir of [...watched.keys()]) unwatch(dir)
    },
  }
}

/**
 * The folders whose entries decide a compile: the roots, every skill folder, and each folder
 * (up to its skill folder) that holds a file the skill reads.
 */
export function foldersOf(inputs: readonly string[], result: CompileResult): Set<string> {
  const dirs = new Set<string>(inputs)
  for (const scan of result.roots) dirs.add(scan.root)
  for (const record of result.records) {
    const top = record.folder.realDir
    dirs.add(record.folder.dir)
    dirs.add(top)
    for (const file of record.files) {
      for (let dir = dirname(file); dir.startsWith(top + sep) && !dirs.has(dir); dir = dirname(dir)) dirs.add(dir)
    }
  }
  return dirs
}

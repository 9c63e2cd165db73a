import { type FSWatcher, statSync, watch } from 'node:fs'
import { basename, dirname, join, sep } from 'node:path'
import type { CompileResult } from '../compiler/compile'
import { type RootInput, rootPath } from '../compiler/discover/roots'

/**
 * Non-recursive watchers, one per folder, each unref'd: unlike a recursive `fs.watch` on Linux
 * (whose per-folder watchers stay referenced), they never keep a process alive. A folder that is
 * deleted, renamed or created again gets a new watcher on the next `update`.
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

  /**
   * An entry of `dir` appeared, went away or was renamed: the watchers at or below it may watch a
   * folder that is gone, even when a new one has its path and its inode (a deleted folder's inode
   * is reused at once), so they are dropped and made again on the next `update`. An event that
   * names the watched folder itself is its own deletion or rename.
   */
  function forget(dir: string, name: string | null): void {
    const gone = name === null || name === basename(dir) ? dir : join(dir, name)
    for (const path of [...watched.keys()]) if (path === gone || path.startsWith(gone + sep)) unwatch(path)
  }

  function start(dir: string, inode: string): boolean {
    try {
      const watcher = watch(dir, { persistent: false }, (event, name) => {
        if (event === 'rename') forget(dir, name)
        onChange()
      })
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
export function foldersOf(inputs: readonly RootInput[], result: CompileResult): Set<string> {
  const dirs = new Set<string>(inputs.map(rootPath))
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

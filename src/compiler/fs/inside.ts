import { type ReadFailure, readPlainInside, readRegularFile } from './files'
import { inspectInsideNow, isInside } from './paths'
import type { StampLog } from './stamp'

/**
 * What reading a file named inside a folder gave: its real path and bytes (or why not), nothing there, or a way out.
 */
export type InsideRead =
  | { real: string; read: Buffer | ReadFailure }
  /** Nothing there, or (`directory`) a folder. */
  | { missing: true; directory: boolean }
  /** A symlink on the way or at the end leads to `real`, outside the folder: nothing was read. */
  | { escape: string }

/**
 * The one way a file named inside a folder is read (a skill's manifest, its verification record):
 * by the rules of `readRegularFile` (a regular file, at most `limit` bytes, a FIFO or device never
 * opened for long), and only where it really is inside `realDir` (a symlink may lead elsewhere in
 * the folder, never out of it). A plain path is opened at once (see readPlainInside); anything else
 * is inspected first. A path the system cannot resolve (a symlink loop, a name too long) throws.
 */
export function readFileInside(realDir: string, rel: string, limit: number, stamps?: StampLog): InsideRead {
  const direct = readPlainInside(realDir, rel, limit, { stamps })
  if (direct === 'missing') return { missing: true, directory: false }
  if (direct?.read) return { real: direct.real, read: direct.read }
  const state = inspectInsideNow(realDir, rel)
  if (state.kind === 'missing' || state.kind === 'directory')
    return { missing: true, directory: state.kind === 'directory' }
  if (!isInside(realDir, state.real)) return { escape: state.real }
  return { real: state.real, read: readRegularFile(state.real, limit, stamps) }
}

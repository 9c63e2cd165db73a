import { mkdirSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { readOwnFile } from './files'
import { type WriteFailure, fsReason, isWriteFailure, replaceFile } from './write-inside'

/**
 * The one way a file this package generates for the project (the d.ts of `virtual:site-skills`) is
 * written: compared first with what is there (read as readOwnFile reads: a regular file of this
 * user, never through a symlink, never a FIFO waited on, and only when it has the new text's size),
 * then, when it differs, replaced whole (see replaceFile). A symlink, FIFO, device or folder at
 * `path` is left alone: nothing is written through it or into it, and the failure says what it is.
 * Returns whether it wrote, or why not; never throws. `shown` names the file in messages.
 */
export function writeGeneratedFile(path: string, content: string, shown = basename(path)): boolean | WriteFailure {
  const bytes = Buffer.from(content)
  const before = readOwnFile(path, bytes.length)
  if (Buffer.isBuffer(before) && before.equals(bytes)) return false
  try {
    mkdirSync(dirname(path), { recursive: true })
  } catch (error) {
    return { code: 'file-unwritable', message: `cannot write ${shown}: ${fsReason(error)}` }
  }
  const written = replaceFile(dirname(path), basename(path), bytes, { shown })
  return isWriteFailure(written) ? written : true
}

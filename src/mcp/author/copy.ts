import { type Dirent, mkdirSync, readdirSync, realpathSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { FILE_LIMITS, isReadFailure, readRegularFile } from '../../compiler/fs/files'
import { isInside } from '../../compiler/fs/paths'
import { Refusal } from './author-results'

/** The most a skill staged for a write may hold. */
const MAX_ENTRIES = 10_000
const MAX_BYTES = 256 * 1024 * 1024
const MAX_DEPTH = 16

/** The largest file of any kind a skill reads: larger ones are not copied (validation names them). */
const MAX_FILE = Math.max(...Object.values(FILE_LIMITS))

interface Budget {
  entries: number
  bytes: number
}

/** The real file a link leads to, when it stays inside `top` and is a regular file. */
function linkedFile(path: string, top: string): string | undefined {
  try {
    const real = realpathSync(path)
    return isInside(top, real) && statSync(real).isFile() ? real : undefined
  } catch {
    return undefined
  }
}

function copyEntry(entry: Dirent, from: string, to: string, top: string, budget: Budget, depth: number): void {
  const source = join(from, entry.name)
  const target = join(to, entry.name)
  if (entry.isDirectory()) {
    if (depth >= MAX_DEPTH) throw new Refusal('too-large', `the skill's folders go deeper than ${MAX_DEPTH}`)
    mkdirSync(target)
    copyFolder(source, target, top, budget, depth + 1)
    return
  }
  // A link is copied as what it leads to when that is a file of the skill; one that leaves it, a
  // folder (a loop), a FIFO or a device is left out.
  const file = entry.isSymbolicLink() ? linkedFile(source, top) : entry.isFile() ? source : undefined
  if (!file) return
  const read = readRegularFile(file, MAX_FILE)
  if (isReadFailure(read)) return
  budget.bytes += read.length
  if (budget.bytes > MAX_BYTES) throw new Refusal('too-large', `the skill holds more than ${MAX_BYTES / 2 ** 20} MiB`)
  writeFileSync(target, read, { flag: 'wx' })
}

function copyFolder(from: string, to: string, top: string, budget: Budget, depth: number): void {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (++budget.entries > MAX_ENTRIES)
      throw new Refusal('too-large', `the skill holds more than ${MAX_ENTRIES.toLocaleString('en-US')} files`)
    copyEntry(entry, from, to, top, budget, depth)
  }
}

/**
 * Copies a skill's folder (its real path) into `to`, an empty folder, as the compiler would read
 * it: regular files and links to files inside the folder, each within the largest file limit; no
 * link out of the folder, no loop, no FIFO or device; at most MAX_ENTRIES files and MAX_BYTES in all.
 * The copy holds no link: what runs in it reads nothing outside it.
 */
export function copySkill(from: string, to: string): void {
  copyFolder(from, to, from, { entries: 0, bytes: 0 }, 0)
}

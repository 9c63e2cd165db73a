import { randomBytes } from 'node:crypto'
import { lstatSync, mkdirSync, readdirSync, rmdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { Refusal } from './author-results'

/**
 * The folder of the writable root where writes are staged: hidden (discovery skips dot-folders),
 * on the root's own file system (nothing of a skill is copied to the shared temporary folder), and
 * cleaned when a server starts.
 */
const STAGES = '.site-skills-stage'
/** A stage's folder: the pid of the server that made it, then a random part. */
const STAGE_NAME_RE = /^(\d+)-[0-9a-f]+$/

function isPlainFolder(path: string): boolean {
  const info = lstatSync(path, { throwIfNoEntry: false })
  return info?.isDirectory() === true && !info.isSymbolicLink()
}

/** A new empty stage folder of this process below the writable root `dir` (a real path). */
export function newStageRoot(dir: string): string {
  const area = join(dir, STAGES)
  mkdirSync(area, { recursive: true, mode: 0o700 })
  if (!isPlainFolder(area))
    throw new Refusal('path-escape', `${area} is not a plain folder (a link?): nothing is staged through it`)
  const root = join(area, `${process.pid}-${randomBytes(6).toString('hex')}`)
  mkdirSync(root, { mode: 0o700 })
  return root
}

/** Removes a stage, and the stage area when nothing else is staged. */
export function removeStage(root: string): void {
  rmSync(root, { recursive: true, force: true })
  try {
    rmdirSync(join(root, '..'))
  } catch {
    // Another stage is under way.
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Removes the stages that servers no longer running left behind (a killed server's copy of a
 * skill); those of a running server (another one on the same root) stay. Returns how many went.
 */
export function cleanStaleStages(dir: string): number {
  const area = join(dir, STAGES)
  if (!isPlainFolder(area)) return 0
  let removed = 0
  for (const name of readdirSync(area)) {
    const pid = Number(STAGE_NAME_RE.exec(name)?.[1])
    // A stage named with this process's pid is an older process's: this one stages nothing before it cleans.
    if (!pid || (pid !== process.pid && running(pid))) continue
    rmSync(join(area, name), { recursive: true, force: true })
    removed++
  }
  try {
    rmdirSync(area)
  } catch {
    // Some stage is left: a running server's.
  }
  return removed
}

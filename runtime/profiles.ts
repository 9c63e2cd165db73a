/**
 * The profile folders of the browsers `launchBrowser()` starts: `site-skills-chrome-*` in the OS temp
 * folder, each with the browser's pid in a file. `close()` removes its own; a process that was killed
 * or crashed leaves its folder behind, and the next launch removes it once its browser is gone.
 */
import { constants } from 'node:fs'
import { lstat, open, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/** What every profile folder's name starts with (mkdtemp adds six characters). */
export const PROFILE_PREFIX = 'site-skills-chrome-'
/** The file in a profile that names the pid of the browser using it. */
const PID_FILE = 'site-skills.pid'
/** A pid is a few digits: a longer file is not ours. */
const PID_FILE_MAX = 32
/** The most folders one launch looks at: a temp folder may hold thousands. */
const SWEEP_MAX = 100

/** Writes the browser's pid into its profile (never over a file that is there). */
export async function markProfile(profile: string, pid: number): Promise<void> {
  await writeFile(join(profile, PID_FILE), `${pid}\n`, { flag: 'wx' })
}

/** Whether a process runs with this pid (one of another user counts: it cannot be signalled, but lives). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * The pid a profile's pid file names: only a regular file, read without following a link and
 * without blocking (a FIFO is opened and refused, never waited on). Undefined for anything else.
 */
async function pidOf(profile: string): Promise<number | undefined> {
  const file = await open(
    join(profile, PID_FILE),
    constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
  ).catch(() => undefined)
  if (!file) return undefined
  try {
    const stats = await file.stat()
    if (!stats.isFile() || stats.size > PID_FILE_MAX) return undefined
    const { buffer, bytesRead } = await file.read(Buffer.alloc(PID_FILE_MAX), 0, PID_FILE_MAX, 0)
    const text = buffer.toString('utf8', 0, bytesRead).trim()
    return /^[1-9]\d{0,9}$/.test(text) ? Number(text) : undefined
  } finally {
    await file.close()
  }
}

/** A folder of ours (the prefix, a real folder and no link, this user's) whose browser is gone. */
async function isStale(path: string): Promise<boolean> {
  const stats = await lstat(path).catch(() => undefined)
  if (!stats?.isDirectory()) return false
  if (process.getuid && stats.uid !== process.getuid()) return false
  const pid = await pidOf(path)
  return pid !== undefined && !isAlive(pid)
}

/**
 * Removes the profile folders in `dir` whose browser is no longer running. Only folders named
 * `site-skills-chrome-*` that hold a pid file (a folder still being made has none yet) are looked
 * at, at most SWEEP_MAX a call; links are removed as links, never followed. Never throws.
 */
export async function sweepStaleProfiles(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[])
  const ours = names.filter((name) => name.startsWith(PROFILE_PREFIX)).slice(0, SWEEP_MAX)
  await Promise.all(
    ours.map(async (name) => {
      const path = join(dir, name)
      if (await isStale(path).catch(() => false)) await rm(path, { recursive: true, force: true }).catch(() => {})
    }),
  )
}

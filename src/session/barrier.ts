import { type FSWatcher, mkdtempSync, rmSync, unlinkSync, watch, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Waits until every file-system event of a change made before the call has reached its watcher.
 * `flush` resolves `false` when that cannot be known (then only reading the files tells).
 */
export interface EventBarrier {
  flush: () => Promise<boolean>
  release: () => void
}

interface Barrier {
  flush: () => Promise<boolean>
  close: () => void
}

/** Far longer than the barrier's own event takes on a working system: reached only if it never comes. */
const BARRIER_TIMEOUT_MS = 2000

/**
 * A session's event barrier, or undefined where events have no order or it cannot be made.
 * Linux only: libuv reads every `fs.watch` of a process from one inotify queue, in order, and the
 * kernel queues an event when the change is made. An event the barrier makes now, on a file of its
 * own, therefore arrives after the events of every change made before it, under every root. On
 * macOS (FSEvents) and Windows (one queue per folder) events have no such order: no barrier there.
 * Each session holds its own (a folder and a watcher), so no state is shared between sessions.
 */
export function acquireEventBarrier(platform: NodeJS.Platform = process.platform): EventBarrier | undefined {
  if (platform !== 'linux') return undefined
  const barrier = createBarrier()
  if (!barrier) return undefined
  let held = true
  return {
    flush: barrier.flush,
    release() {
      if (!held) return
      held = false
      barrier.close()
    },
  }
}

interface Waiter {
  mark: number
  done: (ok: boolean) => void
}

function createBarrier(): Barrier | undefined {
  let dir: string
  let watcher: FSWatcher
  try {
    dir = mkdtempSync(join(tmpdir(), 'site-skills-events-'))
    watcher = watch(dir, { persistent: false })
  } catch {
    return undefined
  }
  const remove = () => rmSync(dir, { recursive: true, force: true })
  process.once('exit', remove)
  let sent = 0
  let seen = 0
  let broken = false
  const waiters = new Set<Waiter>()
  watcher.on('change', (_event, name) => {
    const mark = Number(name)
    if (Number.isInteger(mark)) seen = Math.max(seen, mark)
    for (const waiter of waiters) if (waiter.mark <= seen) waiter.done(true)
  })
  watcher.on('error', () => {
    broken = true
    for (const waiter of waiters) waiter.done(false)
  })
  return {
    flush() {
      if (broken) return Promise.resolve(false)
      const mark = ++sent
      try {
        // A file made and removed at once: its events carry its name, so each flush knows its own.
        writeFileSync(join(dir, String(mark)), '')
        unlinkSync(join(dir, String(mark)))
      } catch {
        return Promise.resolve(false)
      }
      return new Promise((resolve) => waiters.add(waitFor(mark, waiters, resolve)))
    },
    close() {
      watcher.close()
      for (const waiter of waiters) waiter.done(false)
      process.off('exit', remove)
      remove()
    },
  }
}

/** A waiter for the barrier's event `mark`, given up after BARRIER_TIMEOUT_MS. */
function waitFor(mark: number, waiters: Set<Waiter>, resolve: (ok: boolean) => void): Waiter {
  // Referenced: the watchers are not, and a script awaiting a call must not exit while it waits.
  const timer = setTimeout(() => waiter.done(false), BARRIER_TIMEOUT_MS)
  const waiter: Waiter = {
    mark,
    done(ok) {
      clearTimeout(timer)
      waiters.delete(waiter)
      resolve(ok)
    },
  }
  return waiter
}

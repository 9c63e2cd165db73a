import { createFolderWatcher } from '../session/folder-watcher'

/** One check: its exit code and the folders whose changes call for another. */
export interface WatchedRun {
  code: number
  dirs: Iterable<string>
}

/** Changes closer together than this make one run. */
const SETTLE_MS = 80

/**
 * Runs `run`, then again whenever one of the folders it names changes, until SIGINT or SIGTERM.
 * Runs never overlap. Resolves with the last run's exit code once interrupted; nothing it started
 * (watchers, timers, signal handlers) outlives it.
 */
export function watchTypechecks(run: () => Promise<WatchedRun>, log: (text: string) => void): Promise<number> {
  return new Promise((done) => {
    let last = 1
    let running = false
    let again = false
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const watcher = createFolderWatcher(() => schedule())
    // The folder watchers never hold the process open; this does, until interrupted.
    const alive = setInterval(() => {}, 1 << 30)

    async function cycle(): Promise<void> {
      running = true
      const outcome = await run().catch((error: unknown) => {
        log(`site-skills: ${(error as Error).stack ?? String(error)}`)
        return { code: 1, dirs: [] }
      })
      running = false
      if (stopped) return
      last = outcome.code
      watcher.update(outcome.dirs)
      log('watching for changes (Ctrl+C to stop)')
      if (again) schedule()
    }

    function schedule(): void {
      if (stopped) return
      if (running) {
        again = true
        return
      }
      again = false
      clearTimeout(timer)
      timer = setTimeout(() => {
        log('\nchange detected, checking again')
        void cycle()
      }, SETTLE_MS)
    }

    function stop(): void {
      stopped = true
      clearTimeout(timer)
      clearInterval(alive)
      watcher.close()
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      done(last)
    }

    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
    void cycle()
  })
}

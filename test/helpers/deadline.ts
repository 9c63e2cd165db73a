import { Worker } from 'node:worker_threads'

/**
 * Runs the export `name` of the module `file` (an absolute path, TypeScript allowed) with `args` in a
 * worker thread, and resolves with what it returned. Past `deadlineMs` the worker is stopped and the
 * promise rejects, naming what it last said it was doing (the function gets a `progress(label)` as
 * its last argument): work that hangs (a regular expression backtracking for minutes, a quadratic
 * loop on a huge input) fails its test instead of stalling the suite. The deadline is generous, far
 * above the linear work's time: it is a deadline, not a timing assertion (speed is a bench row).
 */
export function finishesWithin(file: string, name: string, args: unknown[], deadlineMs: number): Promise<unknown> {
  const worker = new Worker(new URL('./deadline-worker.mjs', import.meta.url), { workerData: { file, name, args } })
  let doing = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate()
      reject(new Error(`${name} did not finish within ${deadlineMs} ms (it was stopped)${doing && `: at ${doing}`}`))
    }, deadlineMs)
    worker.on('message', (message: { progress?: string; done?: unknown }) => {
      if (message.progress !== undefined) {
        doing = message.progress
        return
      }
      clearTimeout(timer)
      void worker.terminate()
      resolve(message.done)
    })
    worker.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
  })
}

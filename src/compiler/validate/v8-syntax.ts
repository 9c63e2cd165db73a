import { Script } from 'node:vm'
import { Worker } from 'node:worker_threads'

/**
 * Syntax checks by V8: whether it compiles a text as a script (compiling runs nothing). The quick
 * checks of tool files (quick-shape.ts, quick-exports.ts) make thousands of them in a large tree.
 *
 * Branch: where a worker thread can be had, it takes them in batches, so that the main thread goes
 * on validating meanwhile (bench/branches.ts; bench/RESULTS.md, "Figures behind code comments");
 * where none can be had (a thread limit, a sandbox) or it fails, the checks are made here, with the
 * same answers. The worker is a few lines that need nothing but `node:vm` (it starts fast and has
 * no JavaScript to warm up), is started only for a batch large enough to pay for it, never keeps
 * the process alive, and stops when idle.
 */

/** Whether V8 accepts `code` as a script, checked on this thread. */
export function compilesHere(code: string): boolean {
  try {
    new Script(code)
    return true
  } catch {
    return false
  }
}

/** Checks waiting together for fewer than this are made here (a small tree never starts the worker). */
const WORKER_MIN_BATCH = 64
/** An idle worker stops after this long (a dev server's rebuilds check a skill or two). */
const IDLE_MS = 2000

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const { Script } = require('node:vm')
parentPort.on('message', (codes) => {
  parentPort.postMessage(codes.map((code) => {
    try {
      new Script(code)
      return true
    } catch {
      return false
    }
  }))
})
`

/** Checks made on each thread so far. */
interface SyntaxCheckCounts {
  readonly here: number
  readonly worker: number
}

export interface SyntaxChecker {
  /**
   * Whether V8 accepts `code` as a script. Checks asked for in the same turn of the event loop go
   * to the worker together, once the turn's other work has run.
   */
  compiles: (code: string) => Promise<boolean>
  counts: () => SyntaxCheckCounts
}

export interface SyntaxCheckerOptions {
  /** The thread class (tests give one that fails). @default Worker of node:worker_threads */
  Worker?: typeof Worker
}

interface Check {
  code: string
  done: (ok: boolean) => void
}

/** A checker with its own worker (one per process is enough: see `compiles`). */
export function createSyntaxChecker(options: SyntaxCheckerOptions = {}): SyntaxChecker {
  const Thread = options.Worker ?? Worker
  const counts = { here: 0, worker: 0 }
  let waiting: Check[] = []
  let flushing = false
  let worker: Worker | undefined
  let online = false
  /** A worker failed once: checks stay here from then on. */
  let broken = false
  /** Batches sent to the worker, answered in order. */
  const sent: Check[][] = []
  let idleTimer: NodeJS.Timeout | undefined

  function checkHere(batch: readonly Check[]): void {
    counts.here += batch.length
    for (const check of batch) check.done(compilesHere(check.code))
  }

  /** The worker is gone (failed, or stopped when idle): what it had not answered is checked here. */
  function dropWorker(): void {
    worker = undefined
    online = false
    for (const batch of sent.splice(0)) checkHere(batch)
  }

  function answered(own: Worker, answers: boolean[]): void {
    if (worker !== own) return
    const batch = sent.shift()
    if (!batch) return
    counts.worker += batch.length
    for (const [i, check] of batch.entries()) check.done(answers[i] === true)
    if (sent.length > 0) return
    own.unref()
    idleTimer = setTimeout(() => {
      if (worker !== own || sent.length > 0) return
      dropWorker()
      void own.terminate()
    }, IDLE_MS)
    idleTimer.unref()
  }

  function startWorker(): void {
    // Not the process's own flags: `--input-type=module`, loaders or `--import` are not for this code.
    const own = new Thread(WORKER_SOURCE, { eval: true, execArgv: [] })
    worker = own
    own.once('online', () => {
      if (worker === own) online = true
    })
    own.on('message', (answers: boolean[]) => answered(own, answers))
    const fail = () => {
      if (worker !== own) return
      broken = true
      dropWorker()
    }
    own.on('error', fail)
    own.on('messageerror', fail)
    own.on('exit', fail)
    // After the listeners: adding a 'message' listener refs the worker's port again.
    own.unref()
  }

  function flush(): void {
    flushing = false
    const batch = waiting
    waiting = []
    if (worker && online) {
      clearTimeout(idleTimer)
      sent.push(batch)
      // Referenced while it owes answers: a process waiting on them must not exit.
      worker.ref()
      worker.postMessage(batch.map((c) => c.code))
      return
    }
    // Until the worker is up, checks are made here; a batch this large says the tree is large.
    if (!worker && !broken && batch.length >= WORKER_MIN_BATCH) {
      try {
        startWorker()
      } catch {
        // No thread to be had (a limit, a sandbox): the checks stay here.
        broken = true
        worker = undefined
      }
    }
    checkHere(batch)
  }

  return {
    compiles: (code) =>
      new Promise((done) => {
        waiting.push({ code, done })
        if (flushing) return
        flushing = true
        setImmediate(flush)
      }),
    counts: () => ({ ...counts }),
  }
}

/** The process's checker: every compile of a process shares its one worker thread. */
const processChecker = createSyntaxChecker()

/** Whether V8 accepts `code` as a script, checked on the process's worker when a batch is large. */
export const compiles = processChecker.compiles

/** The checks of the process's checker so far (bench/build.ts reports them). */
export const syntaxCheckCounts = processChecker.counts

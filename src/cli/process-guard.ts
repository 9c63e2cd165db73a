import { type CliIO, writeLine } from './io'
import { reportFailure } from './failure'

const UNFINISHED =
  'unfinished: the command stopped with work pending that nothing could finish (a promise that never settled); ' +
  'this is a bug in site-skills or in a tool'

/**
 * Keeps the promise of the CLI's one line per failure for what no command can catch: an error
 * thrown outside any call (a tool's timer or event handler) is one `uncaught` line and exit 1, and
 * a process about to exit before its command finished says so and exits 1, never 0 in silence.
 * A reader that closed standard output (`site-skills types --out - | head -2`) ends the command
 * as it ends Unix tools: quietly, exit 0 (nobody reads what is left to print).
 * Returns what the command's exit code is handed to.
 */
export function guardProcess(io: CliIO): (code: number) => void {
  let finished = false
  const unfinished = () => {
    if (finished) return
    writeLine(io.stderr, `site-skills: ${UNFINISHED}`)
    process.exitCode = 1
  }
  process.once('exit', unfinished)
  io.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
    finished = true
    process.exit(0)
  })
  process.on('uncaughtException', (error) => {
    finished = true
    process.exit(reportFailure(io, error, 'uncaught', 'thrown outside any call, e.g. by a timer'))
  })
  return (code) => {
    finished = true
    process.off('exit', unfinished)
    process.exitCode = code
  }
}

import { type CliIO, writeLine } from './args'

const UNFINISHED =
  'unfinished: the command stopped with work pending that nothing could finish (a promise that never settled); ' +
  'this is a bug in site-skills or in a tool'

/** What a thrown value says; never throws (it runs when all else failed). */
function messageText(error: unknown): string {
  try {
    const message = (error as Error | null)?.message
    return typeof message === 'string' ? message : String(error)
  } catch {
    return `[unprintable ${typeof error}]`
  }
}

/**
 * A command's failure as one line with a code: a SiteToolError or a Node system error
 * (`EACCES`, `ENAMETOOLONG`) by its own code, anything else as `internal-error` (or `code`);
 * never a stack (`SITE_SKILLS_DEBUG=1` prints it after the line).
 */
export function failureLine(error: unknown, code = 'internal-error', why = 'a bug'): string {
  const own = (error as { code?: unknown } | null)?.code
  const message = messageText(error).replace(/\s*\n\s*/g, ' ')
  if (typeof own !== 'string' || !own) return `${code}: ${message} (${why}; SITE_SKILLS_DEBUG=1 prints the stack)`
  return message.startsWith(`${own}:`) ? message : `${own}: ${message}`
}

/**
 * Keeps the promise of the CLI's one line per failure for what no command can catch: an error
 * thrown outside any call (a tool's timer or event handler) is one `uncaught` line and exit 1, and
 * a process about to exit before its command finished says so and exits 1, never 0 in silence.
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
  process.on('uncaughtException', (error) => {
    finished = true
    writeLine(io.stderr, `site-skills: ${failureLine(error, 'uncaught', 'thrown outside any call, e.g. by a timer')}`)
    if (io.env.SITE_SKILLS_DEBUG && error instanceof Error && error.stack) writeLine(io.stderr, error.stack)
    process.exit(1)
  })
  return (code) => {
    finished = true
    process.off('exit', unfinished)
    process.exitCode = code
  }
}

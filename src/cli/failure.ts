import { type CliIO, UsageError, writeLine } from './io'

/** A command's failure that is not bad usage: a stable code and one line of message (exit 1). */
export class CommandFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

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
 * A command's failure as one line with a code: a runtime error, a command failure or a Node system
 * error (`EACCES`, `ENAMETOOLONG`) by its own code, anything else as `internal-error` (or `code`);
 * never a stack (`SITE_SKILLS_DEBUG=1` prints it after the line).
 */
function failureLine(error: unknown, code = 'internal-error', why = 'a bug'): string {
  const own = (error as { code?: unknown } | null)?.code
  const message = messageText(error)
  if (typeof own !== 'string' || !own) {
    return `${code}: ${message.replace(/\s*\n\s*/g, ' ')} (${why}; SITE_SKILLS_DEBUG=1 prints the stack)`
  }
  // A catalog message may add lines of its own (a browser's start log); a system error's is one line.
  return message.startsWith(`${own}:`) ? message : `${own}: ${message}`
}

/**
 * Prints a failure as one line, `site-skills: CODE: message` (`failureLine`), then its stack when
 * $SITE_SKILLS_DEBUG is set, and returns exit code 1. Bad usage is rethrown for the CLI's usage
 * line (exit 2).
 */
export function reportFailure(io: CliIO, error: unknown, code?: string, why?: string): number {
  if (error instanceof UsageError) throw error
  writeLine(io.stderr, `site-skills: ${failureLine(error, code, why)}`)
  if (io.env.SITE_SKILLS_DEBUG && error instanceof Error && error.stack) writeLine(io.stderr, error.stack)
  return 1
}

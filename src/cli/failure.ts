import { isSiteToolError } from '../../runtime/index'
import { messageOf } from '../../runtime/internal'
import { type CliIO, UsageError, writeLine } from './args'

/** A command's failure that is not bad usage: a stable code and one line of message (exit 1). */
export class CommandFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

/**
 * Prints a failure as one line, `site-skills: CODE: message`, and returns exit code 1: a runtime
 * error with its code, a command failure with its own, anything else (a bug, an I/O error no check
 * foresaw) as `internal-error` with the first line of its message; never a stack, unless
 * $SITE_SKILLS_DEBUG is set.
 * Bad usage is rethrown for the CLI's usage line (exit 2).
 */
export function reportFailure(io: CliIO, error: unknown): number {
  if (error instanceof UsageError) throw error
  const known = isSiteToolError(error) || error instanceof CommandFailure
  // A catalog message may add a second line of its own (a browser's start log); nothing else may.
  const text = known ? error.message : messageOf(error).split('\n')[0]
  writeLine(io.stderr, `site-skills: ${known ? error.code : 'internal-error'}: ${text}`)
  if (io.env.SITE_SKILLS_DEBUG && error instanceof Error && error.stack) writeLine(io.stderr, error.stack)
  return 1
}

import { resolve } from 'node:path'
import { generateDts } from '../../codegen/dts'
import { DEFAULT_DTS } from '../../ids'
import { formatReport, displayPath } from '../../compiler/diagnostics/report'
import { writeGeneratedFile } from '../../compiler/fs/generated'
import { isWriteFailure } from '../../compiler/fs/write-inside'
import { CommandFailure, reportFailure } from '../failure'
import { type CliIO, writeLine } from '../io'
import { givenRoots } from '../roots'
import { plural } from '../format'
import { compileRoots } from '../compile-roots'
import type { Args } from '../command-table'

/** `site-skills types [--out FILE]`: the d.ts of virtual:site-skills, without a bundler. */
export async function typesCommand(args: Args<'types'>, io: CliIO): Promise<number> {
  const result = await compileRoots(args, io)
  if (result.errors > 0) {
    writeLine(
      io.stderr,
      formatReport(
        result.reports.flatMap((r) => r.diagnostics),
        io.cwd,
        givenRoots(result),
      ),
    )
    return 1
  }
  if (args.out === '-' || args.out === '/dev/stdout') {
    // Standard output may be a socket, which `/dev/stdout` cannot be opened as: write to the stream.
    // Any other path is a file, written through the file guard (never through a link or into a pipe).
    // Said once written: a reader that closed the pipe ends the command first (see guardProcess).
    await new Promise<void>((done) => io.stdout.write(generateDts(result.skills), (error) => error || done()))
    writeLine(io.stderr, `wrote standard output (${plural(result.skills.length, 'skill')})`)
    return 0
  }
  const out = resolve(io.cwd, args.out ?? DEFAULT_DTS)
  const shown = displayPath(out, io.cwd, givenRoots(result))
  // Links in the d.ts are relative to where it is written.
  const wrote = writeGeneratedFile(out, generateDts(result.skills, out), shown)
  if (isWriteFailure(wrote)) return reportFailure(io, new CommandFailure('dts-unwritten', wrote.message))
  const count = plural(result.skills.length, 'skill')
  if (args.json) writeLine(io.stdout, JSON.stringify({ file: shown, written: wrote, skills: result.skills.length }))
  else writeLine(io.stdout, wrote ? `wrote ${shown} (${count})` : `${shown} is up to date`)
  return 0
}

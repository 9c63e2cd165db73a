import { resolve } from 'node:path'
import { generateDts } from '../../codegen/dts'
import { DEFAULT_DTS } from '../../plugin/ids'
import { createBuildError } from '../../compiler/diagnostics/report'
import { writeIfChanged } from '../../codegen/write'
import { type CliIO, type ParsedArgs, displayRoot, writeLine } from '../args'
import { plural } from '../format'
import { compileRoots } from '../session'

/** `site-skills types [--out FILE]`: the d.ts of virtual:site-skills, without a bundler. */
export async function typesCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const result = await compileRoots(args, io)
  if (result.errors > 0) {
    writeLine(io.stderr, createBuildError(result, io.cwd).message)
    return 1
  }
  const out = resolve(io.cwd, args.out ?? DEFAULT_DTS)
  const wrote = await writeIfChanged(out, generateDts(result.skills, out))
  const shown = displayRoot(out, io.cwd)
  const count = plural(result.skills.length, 'skill')
  if (args.json) writeLine(io.stdout, JSON.stringify({ file: shown, written: wrote, skills: result.skills.length }))
  else writeLine(io.stdout, wrote ? `wrote ${shown} (${count})` : `${shown} is up to date`)
  return 0
}

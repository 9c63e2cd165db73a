import { manifestSchema } from '../../compiler/validate/schema'
import { type CliIO, type ParsedArgs, writeLine } from '../args'

/** `site-skills schema`: the manifest JSON Schema on stdout. */
export async function schemaCommand(_args: ParsedArgs, io: CliIO): Promise<number> {
  writeLine(io.stdout, JSON.stringify(manifestSchema, null, 2))
  return 0
}

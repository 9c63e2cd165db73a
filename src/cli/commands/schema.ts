import { manifestSchema } from '../../compiler/validate/schema'
import { type CliIO, writeLine } from '../io'
import type { Args } from '../command-table'

/** `site-skills schema`: the manifest JSON Schema on stdout. */
export async function schemaCommand(_args: Args<'schema'>, io: CliIO): Promise<number> {
  writeLine(io.stdout, JSON.stringify(manifestSchema, null, 2))
  return 0
}

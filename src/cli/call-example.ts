import type { LearnedToolSignature, ValueSchema } from '../../runtime/index'

/** A value of the declared type to show in an example: the first enum value, `"…"` for a string. */
function placeholder(schema: ValueSchema): string {
  if (schema.enum?.length) return JSON.stringify(schema.enum[0])
  switch (schema.type) {
    case 'string':
      return '"…"'
    case 'number':
    case 'integer':
      return '1'
    case 'boolean':
      return 'false'
    case 'array':
      return '[]'
    case 'object':
      return '{}'
  }
}

const PLAIN_WORD_RE = /^[\w@%+=:,./-]+$/
/** A word for a POSIX shell: as it is when plain, else in single quotes (each single quote written as '\\''). */
export const shellWord = (text: string) => (PLAIN_WORD_RE.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`)

/**
 * The command that runs the tool, naming its real arguments (required first):
 * `npx site-skills run demo-shop search --args '{"query":"…"}'`, with `--cdp HOST:PORT` for a
 * browser tool. The `example` field of a LearnedContext (`--json`) is the no-build API's call.
 */
export function callExample(tool: LearnedToolSignature): string {
  const entries = Object.entries(tool.args)
  const ordered = [...entries.filter(([, s]) => s.required), ...entries.filter(([, s]) => !s.required)]
  const fields = ordered.map(([name, schema]) => `${JSON.stringify(name)}:${placeholder(schema)}`)
  const args = shellWord(`{${fields.join(',')}}`)
  const cdp = tool.toolType === 'browser' ? ' --cdp HOST:PORT' : ''
  return `npx site-skills run ${shellWord(tool.siteId)} ${shellWord(tool.toolName)} --args ${args}${cdp}`
}

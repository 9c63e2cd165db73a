import type { LearnedToolSignature, ValueSchema } from '../../runtime/index'

const IDENTIFIER_RE = /^[A-Za-z_$][\w$]*$/

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

/**
 * The call an agent script makes, naming the tool's real arguments (required first):
 * `await site.runTool("demo-shop", "search", { query: "…" })`. The `example` field of a
 * LearnedContext keeps the original's exact text (`{ ... }`), which ego-lite users compare against;
 * the CLI's text output shows this one instead.
 */
export function callExample(tool: LearnedToolSignature): string {
  const entries = Object.entries(tool.args)
  const ordered = [...entries.filter(([, s]) => s.required), ...entries.filter(([, s]) => !s.required)]
  const key = (name: string) => (IDENTIFIER_RE.test(name) ? name : JSON.stringify(name))
  const fields = ordered.map(([name, schema]) => `${key(name)}: ${placeholder(schema)}`)
  const args = fields.length ? `{ ${fields.join(', ')} }` : '{}'
  const method = tool.toolType === 'node' ? 'runTool' : 'runBrowserTool'
  return `await site.${method}(${JSON.stringify(tool.siteId)}, ${JSON.stringify(tool.toolName)}, ${args})`
}

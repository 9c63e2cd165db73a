/**
 * Writes the lists of codes of docs/codes.md from the catalogs: the diagnostic codes of validation
 * and builds, and the runtime's SiteToolError codes. Each list stands between its two marker
 * comments. `npm run docs:codes` rewrites docs/codes.md; test/package/codes.unit.test.ts fails when they differ.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { SITE_TOOL_ERRORS } from '../runtime/error-catalog'
import { DIAGNOSTIC_CATALOG } from '../src/compiler/diagnostics/catalog'

export const CODES_PATH = fileURLToPath(new URL('../docs/codes.md', import.meta.url))

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')
const row = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`

function diagnosticTable(): string[] {
  const head = [row(['Code', 'Severity', 'Title', 'Hint']), '| --- | --- | --- | --- |']
  const rows = Object.entries(DIAGNOSTIC_CATALOG).map(([code, e]) => row([`\`${code}\``, e.severity, e.title, e.hint]))
  return [...head, ...rows]
}

function runtimeTable(): string[] {
  const head = [row(['Code', 'Title', 'Hint']), '| --- | --- | --- |']
  const rows = Object.entries(SITE_TOOL_ERRORS).map(([code, e]) => row([`\`${code}\``, e.title, e.hint]))
  return [...head, ...rows]
}

/** The generated lists, by the name in their markers (`<!-- NAME:start -->`, `<!-- NAME:end -->`). */
export const GENERATED_BLOCKS: Record<string, () => string[]> = {
  'diagnostic-codes': diagnosticTable,
  'runtime-error-codes': runtimeTable,
}

/** The page with every marked block written anew; throws when a marker is missing. */
export function withCodeLists(page: string): string {
  let text = page
  for (const [name, render] of Object.entries(GENERATED_BLOCKS)) {
    const start = `<!-- ${name}:start -->`
    const end = `<!-- ${name}:end -->`
    const from = text.indexOf(start)
    const to = text.indexOf(end, from)
    if (from < 0 || to < 0) throw new Error(`docs/codes.md has no ${start} ... ${end} block`)
    text = `${text.slice(0, from + start.length)}\n${render().join('\n')}\n${text.slice(to)}`
  }
  return text
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const before = readFileSync(CODES_PATH, 'utf8')
  const after = withCodeLists(before)
  if (after !== before) writeFileSync(CODES_PATH, after)
  console.log(after === before ? 'docs/codes.md: code lists up to date' : 'docs/codes.md: code lists rewritten')
}

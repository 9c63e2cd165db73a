import type { Diagnostic } from '../compiler/diagnostics/catalog'
import type { Root } from '../compiler/discover/roots'
import { type Framer, displayFile } from '../compiler/diagnostics/report'

export interface Style {
  red: (s: string) => string
  yellow: (s: string) => string
  dim: (s: string) => string
  bold: (s: string) => string
  cyan: (s: string) => string
}

const plain = (s: string) => s
const PLAIN: Style = { red: plain, yellow: plain, dim: plain, bold: plain, cyan: plain }

export function createStyle(stream: NodeJS.WriteStream): Style {
  if (!stream.isTTY || process.env.NO_COLOR || process.env.TERM === 'dumb') return PLAIN
  const wrap = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`
  return { red: wrap(31, 39), yellow: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22), cyan: wrap(36, 39) }
}

/**
 * One diagnostic: severity, code, `file:line:col` (relative to `cwd`), message, code frame and hint.
 * A report of many passes one `framer` for all of them (see createFramer).
 */
export function formatDiagnostic(
  d: Diagnostic,
  cwd: string,
  roots: readonly Root[],
  style: Style,
  framer: Framer,
): string {
  const severity = d.severity === 'error' ? style.red('error') : style.yellow('warning')
  const file = displayFile(d, cwd, roots)
  const head = `  ${severity} ${style.dim(d.code)}  ${style.cyan(`${file}:${d.line}:${d.column}`)}`
  const frame = d.line === 1 && d.column === 1 && d.code.startsWith('manifest-missing') ? '' : framer(d, style)
  const body = [
    `    ${d.message}`,
    frame
      ?.split('\n')
      .map((l) => `    ${l}`)
      .join('\n'),
    d.hint && `    ${style.dim(`hint: ${d.hint}`)}`,
  ]
  return [head, ...body.filter(Boolean)].join('\n')
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

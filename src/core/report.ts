import { join, relative } from 'node:path'
import type { CompileResult } from './compiler'
import { LOG_PREFIX } from './constants'
import type { Diagnostic } from './diagnostics'
import { FILE_LIMITS, isReadFailure, readRegularFile } from './files'
import { toPosix } from './paths'

export interface FrameStyle {
  red: (s: string) => string
  dim: (s: string) => string
}

const plain = (s: string) => s
const PLAIN_FRAME: FrameStyle = { red: plain, dim: plain }

/** Two lines of context around `line`, with a caret under `column`. Empty when the file is unreadable. */
export function codeFrame(text: string, line: number, column: number, style: FrameStyle = PLAIN_FRAME): string {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  if (line < 1 || line > lines.length) return ''
  const first = Math.max(1, line - 2)
  const last = Math.min(lines.length, line + 1)
  const width = String(last).length
  const out: string[] = []
  for (let n = first; n <= last; n++) {
    const marker = n === line ? style.red('>') : ' '
    const content = lines[n - 1]!.length > 160 ? `${lines[n - 1]!.slice(0, 160)}…` : lines[n - 1]!
    out.push(`${marker} ${style.dim(`${String(n).padStart(width)} |`)} ${content}`)
    if (n === line) out.push(`  ${style.dim(`${' '.repeat(width)} |`)} ${' '.repeat(Math.max(0, Math.min(column - 1, 160)))}${style.red('^')}`)
  }
  return out.join('\n')
}

/** A diagnostic's file shown relative to `base` (the bundler's root). */
export function displayFile(d: Diagnostic, root: string, base: string): string {
  const abs = join(root, d.file)
  const rel = relative(base, abs)
  return toPosix(rel.startsWith('..') ? abs : rel)
}

/** `file:line:col  error code  message` on one line. */
export function formatDiagnosticLine(d: Diagnostic, root: string, base: string): string {
  return `${displayFile(d, root, base)}:${d.line}:${d.column}  ${d.severity} ${d.code}  ${d.message}`
}

/** A file's text for a code frame, or undefined: never a pipe or device, never more than a tool's limit. */
export function readQuietly(path: string): string | undefined {
  const read = readRegularFile(path, FILE_LIMITS.tool)
  return isReadFailure(read) ? undefined : read.toString('utf8')
}

export interface BuildError extends Error {
  id?: string
  loc?: { file: string; line: number; column: number }
  frame?: string
  diagnostics: Diagnostic[]
}

/**
 * One error for a failed build: every error diagnostic as `file:line:col`, and the first one as
 * the error's location (`id`, `loc`, `frame`: what Rollup and Vite's overlay show).
 */
export function createBuildError(result: CompileResult, base: string): BuildError {
  const lines: string[] = []
  let first: { d: Diagnostic; root: string } | undefined
  for (const report of result.reports) {
    for (const d of report.diagnostics) {
      if (d.severity !== 'error') continue
      first ??= { d, root: report.root }
      lines.push(`  ${formatDiagnosticLine(d, report.root, base)}${d.hint ? `\n      hint: ${d.hint}` : ''}`)
    }
  }
  const skills = new Set(result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.siteId)).size
  const error = new Error(`${LOG_PREFIX} ${result.errors} error${result.errors === 1 ? '' : 's'} in ${skills} skill${skills === 1 ? '' : 's'}:\n${lines.join('\n')}`) as BuildError
  error.name = 'SiteSkillsError'
  error.diagnostics = result.diagnostics
  if (first) {
    const file = join(first.root, first.d.file)
    error.id = file
    error.loc = { file, line: first.d.line, column: first.d.column - 1 }
    const text = readQuietly(file)
    if (text) error.frame = codeFrame(text, first.d.line, first.d.column)
  }
  return error
}

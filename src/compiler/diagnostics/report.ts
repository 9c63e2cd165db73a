import { isAbsolute, join, relative } from 'node:path'
import { LOG_PREFIX } from '../../ids'
import type { Diagnostic } from './catalog'
import { FILE_LIMITS, isReadFailure, readRegularFile } from '../fs/files'
import { stripBom } from '../bom'
import { toPosix } from '../fs/paths'
import { packagePath } from '../discover/skill-packages'
import type { Root } from '../discover/roots'

export interface FrameStyle {
  red: (s: string) => string
  dim: (s: string) => string
}

const plain = (s: string) => s
const PLAIN_FRAME: FrameStyle = { red: plain, dim: plain }

const FRAME_WIDTH = 160

/** The lines of a text, without its byte order mark. */
export const linesOf = (text: string): string[] => stripBom(text).split(/\r?\n/)

/**
 * Two lines of context around `line`, with a caret under `column`. Empty when the file is unreadable.
 * Long lines (a minified manifest) show a window of FRAME_WIDTH characters that holds the column.
 */
export function codeFrame(text: string, line: number, column: number, style: FrameStyle = PLAIN_FRAME): string {
  return frameOfLines(linesOf(text), line, column, style)
}

function frameOfLines(lines: readonly string[], line: number, column: number, style: FrameStyle): string {
  if (line < 1 || line > lines.length) return ''
  const first = Math.max(1, line - 2)
  const last = Math.min(lines.length, line + 1)
  const width = String(last).length
  const start = column - 1 < FRAME_WIDTH ? 0 : column - 1 - FRAME_WIDTH / 2
  const clip = (full: string) => {
    const window = full.slice(start, start + FRAME_WIDTH)
    const head = start > 0 && window ? `…${window}` : window
    return full.length > start + FRAME_WIDTH ? `${head}…` : head
  }
  const out: string[] = []
  for (let n = first; n <= last; n++) {
    const marker = n === line ? style.red('>') : ' '
    out.push(`${marker} ${style.dim(`${String(n).padStart(width)} |`)} ${clip(lines[n - 1]!)}`)
    if (n !== line) continue
    const offset = Math.max(0, column - 1 - start) + (start > 0 ? 1 : 0)
    out.push(`  ${style.dim(`${' '.repeat(width)} |`)} ${' '.repeat(offset)}${style.red('^')}`)
  }
  return out.join('\n')
}

/** A diagnostic's file, absolute. */
export const fileOf = (d: Diagnostic): string => join(d.root, d.file)

/**
 * How a path of the roots (a file, a skill folder, a root) is shown, the one way: in a package root
 * of `roots` by the package's name (`@acme/site-skills-github/github/manifest.json`), else relative
 * to `base` (the working directory, the bundler's root) when inside it, else whole.
 */
export function displayPath(path: string, base: string, roots: readonly Root[]): string {
  const named = packagePath(path, roots)
  if (named !== undefined) return named
  const rel = relative(base, path)
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? toPosix(path) : toPosix(rel)
}

/** A diagnostic's file as displayPath shows it (a finding about `base` itself names no file). */
export function displayFile(d: Diagnostic, base: string, roots: readonly Root[]): string {
  const abs = fileOf(d)
  return relative(base, abs) === '' ? '' : displayPath(abs, base, roots)
}

/** `file:line:col  error code  message` on one line. */
export function formatDiagnosticLine(d: Diagnostic, base: string, roots: readonly Root[]): string {
  return `${displayFile(d, base, roots)}:${d.line}:${d.column}  ${d.severity} ${d.code}  ${d.message}`
}

/** A file's text for a code frame, or undefined: never a pipe or device, never more than a tool's limit. */
export function readQuietly(path: string): string | undefined {
  const read = readRegularFile(path, FILE_LIMITS.tool)
  return isReadFailure(read) ? undefined : read.toString('utf8')
}

/** Makes the code frame of a diagnostic, or '' when its file cannot be read (see createFramer). */
export type Framer = (d: Diagnostic, style?: FrameStyle) => string

/**
 * The code frames of one report: a file is read and split into lines once for a run of findings
 * in it (a report lists a file's findings together), not once a finding, so thousands of findings
 * in one large file cost one read; only the last file's lines are kept.
 */
export function createFramer(): Framer {
  let path: string | undefined
  let lines: string[] | undefined
  return (d, style = PLAIN_FRAME) => {
    const file = fileOf(d)
    if (file !== path) {
      path = file
      const text = readQuietly(file)
      lines = text ? linesOf(text) : undefined
    }
    return lines ? frameOfLines(lines, d.line, d.column, style) : ''
  }
}

/** A diagnostic's own block: `file:line:col  error code  message`, its code frame (file readable), its hint. */
function formatDiagnosticBlock(d: Diagnostic, base: string, roots: readonly Root[], framer: Framer): string {
  const frame = framer(d)
  const lines = [formatDiagnosticLine(d, base, roots), frame && indent(frame, '  '), d.hint && `  hint: ${d.hint}`]
  return lines.filter(Boolean).join('\n')
}

const indent = (text: string, by: string) =>
  text
    .split('\n')
    .map((line) => `${by}${line}`)
    .join('\n')

/**
 * The report of a failed compile: a count, then every error diagnostic (in the order given: the
 * compile's reports, folder by folder) with its frame and hint.
 */
export function formatReport(diagnostics: readonly Diagnostic[], base: string, roots: readonly Root[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error')
  const skills = new Set(errors.map((d) => d.siteId)).size
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  const head = `${LOG_PREFIX} ${count(errors.length, 'error')} in ${count(skills, 'skill')}:`
  const framer = createFramer()
  const blocks = errors.map((d) => formatDiagnosticBlock(d, base, roots, framer))
  return [head, ...blocks].join('\n\n')
}

import { statSync } from 'node:fs'
import { relative } from 'node:path'
import type { PartialMessage } from 'esbuild'
import { PLUGIN_NAME } from '../../ids'
import type { BuildError, LocatedDiagnostic } from '../../compiler/diagnostics/report'
import { linesOf, readQuietly } from '../../compiler/diagnostics/report'
import { toPosix } from '../../compiler/paths'

/**
 * The files esbuild may be given to watch: esbuild reads each one (to see later whether it
 * changed), so a named pipe, a device or a socket among the skills' files (reported by validation)
 * would block or never end. Missing files stay: their creation is a change to notice.
 */
export function watchableFiles(files: readonly string[]): string[] {
  return files.filter((file) => {
    const info = statSync(file, { throwIfNoEntry: false })
    return !info || info.isFile()
  })
}

/** Whether an error is the report of invalid learnings. */
export const isBuildError = (error: unknown): error is BuildError =>
  error instanceof Error && error.name === 'SiteSkillsError' && Array.isArray((error as Partial<BuildError>).located)

/**
 * One esbuild message per diagnostic: esbuild prints each with its location, its own code frame
 * and the hint as a note. esbuild's columns are 0-based bytes (and so are the ones it prints).
 */
export function toEsbuildMessages(error: BuildError, workingDir: string): PartialMessage[] {
  return error.located.map((entry) => toEsbuildMessage(entry, workingDir))
}

function toEsbuildMessage({ diagnostic: d, file }: LocatedDiagnostic, workingDir: string): PartialMessage {
  const text = readQuietly(file)
  const lineText = text === undefined ? undefined : linesOf(text)[d.line - 1]
  const at = { file: toPosix(relative(workingDir, file)), line: d.line }
  const location =
    lineText === undefined
      ? { ...at, column: 0 }
      : { ...at, column: Buffer.byteLength(lineText.slice(0, d.column - 1)), lineText }
  const notes = d.hint ? [{ text: `hint: ${d.hint}` }] : []
  return { id: d.code, pluginName: PLUGIN_NAME, text: `${d.code}  ${d.message}`, location, notes }
}

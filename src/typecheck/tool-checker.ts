import { FILE_LIMITS, isReadFailure, readRegularFile } from '../compiler/fs/files'
import { stripBom } from '../compiler/parse'
import type { TypeScriptBackend, TypeScriptError } from './backend'
import { type Harness, type ToolTarget, createHarness, isChecked, statementAt } from './harness'

/** One type error, in a tool or a file it imports. */
export interface TypeProblem {
  /** Absolute path, forward slashes. */
  file: string
  /** 1-based. */
  line: number
  /** 1-based. */
  column: number
  /** `TS2322`. */
  code: string
  /** The message with its chain of reasons, one per line. */
  message: string
}

/**
 * A bare tool as TypeScript reads it: `export default ` inserted before the function, after the
 * leading comments (so `// @ts-check` and a JSDoc `@type` keep their places and meaning).
 */
interface Rewritten {
  original: string
  text: string
  at: number
}

const EXPORT_DEFAULT = 'export default '
const SPACE_RE = /\s/

/** Where the code of a text starts: past its leading comments and the blank space after them. */
function afterLeadingComments(text: string): number {
  let at = 0
  let end = 0
  for (;;) {
    while (at < text.length && SPACE_RE.test(text[at]!)) at++
    if (text.startsWith('//', at)) at = text.includes('\n', at) ? text.indexOf('\n', at) : text.length
    else if (text.startsWith('/*', at) && text.includes('*/', at + 2)) at = text.indexOf('*/', at + 2) + 2
    else break
    end = at
  }
  while (end < text.length && SPACE_RE.test(text[end]!)) end++
  return end
}

function rewriteBare(original: string): Rewritten {
  const at = afterLeadingComments(original)
  return { original, at, text: `${original.slice(0, at)}${EXPORT_DEFAULT}${original.slice(at)}` }
}

/** Where a position of a rewritten file is in the file itself. */
function originalOffset(rewritten: Rewritten | undefined, offset: number): number {
  if (!rewritten || offset < rewritten.at) return offset
  return Math.max(rewritten.at, offset - EXPORT_DEFAULT.length)
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n')
  return { line: before.length, column: before.at(-1)!.length + 1 }
}

/** A file's text as TypeScript reads it (a byte-order mark left out), read once per check. */
function createReader(rewritten: Map<string, Rewritten>) {
  const texts = new Map<string, string>()
  return (file: string): string => {
    const shown = rewritten.get(file)
    if (shown) return shown.original
    let text = texts.get(file)
    if (text === undefined) {
      text = readText(file) ?? ''
      texts.set(file, text)
    }
    return text
  }
}

/** Through the file guard: a tool or an import swapped for a FIFO or grown past the limit reads as nothing. */
function readText(file: string): string | undefined {
  const read = readRegularFile(file, FILE_LIMITS.fixture)
  return isReadFailure(read) ? undefined : stripBom(read.toString('utf8'))
}

/** An error at its place in the file on disk. */
function place(file: string, offset: number, rewritten: Map<string, Rewritten>, read: (file: string) => string) {
  return { file, ...lineAndColumn(read(file), originalOffset(rewritten.get(file), offset)) }
}

/** The outcome of one type check. */
export interface TypeCheck {
  problems: TypeProblem[]
  /** The user's files it read: the tools and what they import (absolute paths), for watchers. */
  files: string[]
}

/** A type checker of tool files against the generated declarations; each run reuses the last program. */
export interface ToolTypeChecker {
  check: (dtsFile: string, targets: readonly ToolTarget[]) => Promise<TypeCheck>
}

const byPlace = (a: TypeProblem, b: TypeProblem) =>
  a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.code.localeCompare(b.code)

/** The tools to check, their rewritten texts, and the harness that holds them up against their manifests. */
function prepare(dtsFile: string, targets: readonly ToolTarget[]) {
  const rewritten = new Map<string, Rewritten>()
  const checked: ToolTarget[] = []
  for (const target of targets) {
    const text = readText(target.file)
    if (text === undefined) continue
    if (target.bare) rewritten.set(target.file, rewriteBare(text))
    if (isChecked(target.file, text)) checked.push(target)
  }
  const harness = createHarness(dtsFile, checked)
  const texts = new Map([...rewritten].map(([file, r]) => [file, r.text]))
  texts.set(harness.file, harness.text)
  return { rewritten, harness, texts }
}

export function createToolTypeChecker(typescript: TypeScriptBackend): ToolTypeChecker {
  return {
    async check(dtsFile, targets) {
      const { rewritten, harness, texts } = prepare(dtsFile, targets)
      const rootNames = [dtsFile, harness.file, ...new Set(targets.map((t) => t.file))]
      const program = await typescript.check({ rootNames, texts })
      const read = createReader(rewritten)
      const toProblem = async (e: TypeScriptError): Promise<TypeProblem> => {
        const code = `TS${e.code}`
        if (!e.file || e.start === undefined) return { file: '', line: 1, column: 1, code, message: e.message }
        const problem = { ...place(e.file, e.start, rewritten, read), code, message: e.message }
        return e.file === harness.file ? harnessProblem(harness, e.start, problem) : problem
      }
      /**
       * A harness error is the tool's: reported where the tool's export is declared, naming the tool
       * (a tool that cannot be found there keeps the harness's place).
       */
      const harnessProblem = async (h: Harness, offset: number, problem: TypeProblem): Promise<TypeProblem> => {
        const index = statementAt(h, offset)
        const target = index === undefined ? undefined : h.targets[index]
        const at = target && (await program.declarationAt(h.file, h.exportAt[index!]!))
        if (!target || !at) return problem
        const what = `${target.kind === 'node' ? 'Node' : 'browser'} tool ${JSON.stringify(target.tool)}`
        const message = `${what} does not match its manifest (${target.siteId}): ${problem.message}`
        return { ...problem, ...place(at.file, at.start, rewritten, read), message }
      }
      const problems = (await Promise.all(program.errors.map(toProblem))).sort(byPlace)
      return { problems, files: program.files.filter((f) => f !== harness.file) }
    },
  }
}

import { type Message, type TransformOptions, transform } from 'esbuild'
import { forEachSegment } from '../../../runtime/internal'
import { createMappingsWriter } from './mappings'
import { lineStarts } from '../parse'

/**
 * Bare-function browser tools compiled many to one esbuild transform, then split per tool.
 *
 * esbuild's cost for a small tool is mostly per call (and per output file of a build): 2,000 tools
 * of a few hundred bytes cost ten times more CPU as 2,000 transforms than as 20 transforms of 100
 * tools each, and 1,000 of them compiled in 0.47x the time (bench/branches.ts, both ways in one
 * run). Each tool is one exported constant of the batch behind a marker comment, so the
 * output is a list of declarations split again at the markers; the source map is cut along the
 * same lines. A batch esbuild rejects, or whose output has another shape, is compiled tool by tool,
 * which also gives each error its own tool and position.
 */

export interface ExpressionInput {
  /** The tool file's text: one function expression. */
  text: string
  /** Shown in esbuild's messages and the source map. */
  file: string
}

export interface ExpressionOptions {
  minify: boolean
  sourcemap: boolean
  typescript: boolean
}

/**
 * One tool's output: `var <local>=<expression>;` (compiled alone, with whatever esbuild put before
 * it), to be called as `<local>`, with a map of that text to the tool's own lines.
 */
export interface CompiledExpression {
  body: string
  local: string
  /** Mappings of `body` into the tool file (one source), when source maps were asked for. */
  mappings?: string
}

export type ExpressionResult = CompiledExpression | { errors: Message[] }

/** Exported names are `<base><index>`; the base is one that no tool of the batch contains. */
function baseName(inputs: readonly ExpressionInput[]): string {
  let base = '$site_skills_'
  while (inputs.some((i) => i.text.includes(base))) base += '$'
  return base
}

interface Layout {
  code: string
  /** Per tool: the line of its first source line in `code`, and the width of the prefix on that line. */
  starts: { line: number; prefix: number }[]
}

/** Each tool gets a legal comment before it, which esbuild keeps in place and never merges across. */
const marker = (base: string, i: number) => `/*! ${base} ${i} */`

function layout(inputs: readonly ExpressionInput[], base: string): Layout {
  const parts: string[] = []
  const starts: Layout['starts'] = []
  let line = 0
  inputs.forEach((input, i) => {
    const prefix = `export const ${base}${i}=(`
    starts.push({ line: line + 1, prefix: prefix.length })
    parts.push(`${marker(base, i)}\n${prefix}${input.text}\n);\n`)
    line += lineStarts(input.text).length + 2
  })
  return { code: parts.join(''), starts }
}

/** One tool's part of the output: its local name and the range of what it is declared as. */
interface Part {
  local: string
  start: number
  end: number
}

const DECLARATION_RE = /^\s*(?:const|let|var)\s+([\w$]+)\s*=\s*/
const EXPORTS_RE = /\bexport\s*\{([^}]*)\}\s*;?\s*$/
const SPECIFIER_RE = /^([\w$]+)(?:\s+as\s+([\w$]+))?$/

/**
 * Each tool's declaration in the output, in order, or undefined when the output is not the list of
 * declarations and export clause the batch was written as (esbuild added a helper, say).
 */
function split(code: string, base: string, count: number): Part[] | undefined {
  const clause = EXPORTS_RE.exec(code)
  if (!clause) return undefined
  const exported = new Map<string, string>()
  for (const specifier of clause[1]!.split(',')) {
    const m = SPECIFIER_RE.exec(specifier.trim())
    if (m) exported.set(m[2] ?? m[1]!, m[1]!)
  }
  const marks: number[] = []
  for (let i = 0, from = 0; i < count; i++) {
    const at = code.indexOf(marker(base, i), from)
    if (at < 0) return undefined
    marks.push(at)
    from = at + marker(base, i).length
  }
  if (code.slice(0, marks[0]).trim() !== '') return undefined
  const parts: Part[] = []
  for (const [i, at] of marks.entries()) {
    const from = at + marker(base, i).length
    const to = i + 1 < count ? marks[i + 1]! : clause.index
    const text = code.slice(from, to).trimEnd()
    const declaration = DECLARATION_RE.exec(text)
    if (!declaration || !text.endsWith(';') || exported.get(`${base}${i}`) !== declaration[1]) return undefined
    // No tool holds the base, but one may spell it with escapes that the output prints plainly.
    if (text.includes(base, declaration[0].length)) return undefined
    parts.push({ local: declaration[1]!, start: from + declaration[0].length, end: from + text.length - 1 })
  }
  return new Set(parts.map((p) => p.local)).size === count ? parts : undefined
}

/**
 * Cuts the batch's source map per tool, in one pass over its segments (both are in output order):
 * a segment moves to the tool whose part holds it, at its place in the tool's body (`heads[i]`
 * characters, then the part), and to the tool's own lines. What maps into a tool's wrapper maps to
 * nothing. A part's lines are the output's: only its first line is shifted, by the head.
 */
function cutMap(
  mappings: string,
  output: string,
  parts: readonly Part[],
  heads: readonly number[],
  starts: Layout['starts'],
): string[] {
  const outputStarts = lineStarts(output)
  const writer = createMappingsWriter()
  const maps: string[] = []
  let tool = 0
  // The output line of the current part's start (-1 until a segment needs it); parts are in order.
  let partLine = -1
  let cursor = 0
  const nextTool = () => {
    maps.push(writer.take())
    tool++
    partLine = -1
  }
  forEachSegment(mappings, (outLine, outColumn, source, sourceLine, sourceColumn) => {
    const offset = outputStarts[outLine]! + outColumn
    while (tool < parts.length && offset >= parts[tool]!.end) nextTool()
    const part = parts[tool]
    if (!part) return true
    if (offset < part.start) return
    if (partLine < 0) {
      while (cursor + 1 < outputStarts.length && outputStarts[cursor + 1]! <= part.start) cursor++
      partLine = cursor
    }
    const line = outLine - partLine
    const column = line === 0 ? heads[tool]! + offset - part.start : outColumn
    if (source < 0) return writer.add(line, column)
    const start = starts[tool]!
    const ownLine = sourceLine - start.line
    const ownColumn = ownLine === 0 ? sourceColumn - start.prefix : sourceColumn
    if (ownLine >= 0 && ownColumn >= 0) writer.add(line, column, ownLine, ownColumn)
  })
  while (tool < parts.length) nextTool()
  return maps
}

/** The transform options of a batch and of a tool alone. */
function transformOptions(options: ExpressionOptions, sourcefile: string): TransformOptions {
  return {
    loader: options.typescript ? 'ts' : 'js',
    format: 'esm',
    target: 'es2022',
    minify: options.minify,
    sourcemap: options.sourcemap ? 'external' : false,
    sourcefile,
    legalComments: 'inline',
    logLevel: 'silent',
  }
}

async function transformBatch(
  inputs: readonly ExpressionInput[],
  options: ExpressionOptions,
): Promise<CompiledExpression[] | undefined> {
  const base = baseName(inputs)
  const { code, starts } = layout(inputs, base)
  const out = await transform(code, transformOptions(options, '<site-skills batch>'))
  const parts = split(out.code, base, inputs.length)
  if (!parts) return undefined
  const heads = parts.map((p) => `var ${p.local}=`)
  const mappings = out.map ? (JSON.parse(out.map) as { mappings: string }).mappings : undefined
  const lengths = heads.map((h) => h.length)
  const maps = mappings === undefined ? undefined : cutMap(mappings, out.code, parts, lengths, starts)
  return parts.map((p, i) => ({
    body: `${heads[i]}${out.code.slice(p.start, p.end)};`,
    local: p.local,
    ...(maps ? { mappings: maps[i]! } : {}),
  }))
}

/** esbuild ends a module with its export clause: `export{s as default};`. */
export const EXPORT_CLAUSE_RE = /\bexport\s*\{\s*([\w$]+)\s+as\s+default\s*\};?\s*$/
/** A tool alone is the default export of a module of one expression, whatever esbuild adds around it. */
const ALONE_PREFIX = 'export default ('

/** One tool in its own transform: its output may hold more than the declaration (helpers esbuild adds). */
async function compileAlone(input: ExpressionInput, options: ExpressionOptions): Promise<ExpressionResult> {
  let out: { code: string; map: string }
  try {
    out = await transform(`${ALONE_PREFIX}${input.text}\n);`, transformOptions(options, input.file))
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors
    if (!errors) throw error
    return {
      errors: errors.map((m) =>
        m.location?.line === 1
          ? { ...m, location: { ...m.location, column: Math.max(0, m.location.column - ALONE_PREFIX.length) } }
          : m,
      ),
    }
  }
  const clause = EXPORT_CLAUSE_RE.exec(out.code)
  if (!clause) throw new Error(`site-skills: unexpected esbuild output for ${input.file}`)
  const body = out.code.slice(0, clause.index).trimEnd()
  if (!out.map) return { body, local: clause[1]! }
  const map = (JSON.parse(out.map) as { mappings: string }).mappings
  const part = { local: clause[1]!, start: 0, end: body.length }
  const start = { line: 0, prefix: ALONE_PREFIX.length }
  const [mappings] = cutMap(map, out.code, [part], [0], [start])
  return { body, local: part.local, mappings: mappings! }
}

/**
 * Compiles function expressions that share a loader, in one transform when it works; otherwise
 * each alone. Errors are esbuild's, at the position in the tool's file.
 */
export async function compileExpressions(
  inputs: readonly ExpressionInput[],
  options: ExpressionOptions,
): Promise<ExpressionResult[]> {
  const batch = inputs.length > 1 ? await transformBatch(inputs, options).catch(() => undefined) : undefined
  return batch ?? Promise.all(inputs.map((input) => compileAlone(input, options)))
}

import { dirname, resolve, sep } from 'node:path'
import { toolTargets } from '../../typecheck/harness'
import type { TypeScriptBackend } from '../../typecheck/backend'
import { type TypeCheck, type TypeProblem, createToolTypeChecker } from '../../typecheck/tool-checker'
import { TypeScriptSetupError, startTypeScript } from '../../typecheck/typescript'
import { type WatchedRun, watchTypechecks } from '../../typecheck/watch-typechecks'
import { generateDts } from '../../codegen/dts'
import { writeGeneratedFile } from '../../compiler/fs/generated'
import { isWriteFailure } from '../../compiler/fs/write-inside'
import type { CompileResult } from '../../compiler/compile'
import type { SkillModel } from '../../compiler/model'
import { codeFrame, readQuietly, displayPath } from '../../compiler/diagnostics/report'
import { createBudgetedCompiler } from '../../tokens/budget'
import { foldersOf } from '../../session/folder-watcher'
import { DEFAULT_DTS } from '../../ids'
import { type CliIO, writeLine } from '../io'
import { givenRoots } from '../roots'
import { type Root, rootPath } from '../../compiler/discover/roots'
import { type Style, createStyle, plural } from '../format'
import { existingRoots } from '../compile-roots'
import { jsonReport, printReports } from './validate'
import type { Args } from '../command-table'

function printProblem(p: TypeProblem, io: CliIO, style: Style, roots: readonly Root[]): void {
  const [first = '', ...rest] = p.message.split('\n')
  const where = p.file ? `${displayPath(p.file, io.cwd, roots)}:${p.line}:${p.column}` : 'typescript'
  writeLine(io.stdout, `  ${style.red('error')} ${style.dim(p.code)}  ${style.cyan(where)}`)
  writeLine(io.stdout, `    ${first}`)
  for (const line of rest) writeLine(io.stdout, `    ${line}`)
  const text = p.file ? readQuietly(p.file) : undefined
  const frame = text ? codeFrame(text, p.line, p.column, style) : ''
  if (frame) writeLine(io.stdout, frame.replace(/^/gm, '    '))
}

/** The skill whose folder holds a file, for grouping type errors as validate groups its findings. */
function skillOf(result: CompileResult, file: string | undefined) {
  if (!file) return undefined
  return result.skills.find(({ model }) => [model.dir, model.realDir].some((dir) => file.startsWith(dir + sep)))?.model
}

/** Type errors grouped by skill, each group under the header validate prints (`✖ id  root/id`). */
function printProblems(result: CompileResult, problems: readonly TypeProblem[], io: CliIO, style: Style): void {
  const groups = new Map<SkillModel | undefined, TypeProblem[]>()
  for (const p of problems) {
    const model = skillOf(result, p.file)
    const group = groups.get(model)
    if (group) group.push(p)
    else groups.set(model, [p])
  }
  const roots = givenRoots(result)
  for (const [model, list] of groups) {
    const title = model
      ? `${style.bold(model.id)}${style.dim(`  ${displayPath(model.root, io.cwd, roots)}/${model.id}`)}`
      : style.bold('types')
    writeLine(io.stdout, `${style.red('✖')} ${title}`)
    for (const p of list) printProblem(p, io, style, roots)
    writeLine(io.stdout)
  }
}

function printHuman(result: CompileResult, typed: TypeCheck | undefined, dts: string, io: CliIO): void {
  const style = createStyle(io.stdout as NodeJS.WriteStream)
  printReports(result, io)
  if (!typed) {
    writeLine(io.stdout, style.red(`${plural(result.errors, 'error')} in ${plural(result.records.length, 'skill')}`))
    return
  }
  printProblems(result, typed.problems, io, style)
  const tools = plural(toolTargets(result.skills).length, 'tool')
  const summary =
    `${plural(typed.problems.length, 'type error')} in ${tools} of ` + `${plural(result.skills.length, 'skill')}`
  writeLine(io.stdout, typed.problems.length ? style.red(summary) : `${style.bold('✔')} ${summary} (types: ${dts})`)
}

function printJson(result: CompileResult, typed: TypeCheck | undefined, dts: string, io: CliIO): void {
  const report = jsonReport(result, io.cwd)
  const typeErrors = (typed?.problems ?? []).map((p) => ({
    ...p,
    file: p.file && displayPath(p.file, io.cwd, givenRoots(result)),
  }))
  const ok = report.ok && typeErrors.length === 0
  writeLine(io.stdout, JSON.stringify({ ...report, ok, dts, typeErrors }, null, 2))
}

/**
 * `site-skills check`: validates, writes the d.ts and type-checks every TypeScript tool and every
 * `// @ts-check` JavaScript tool against its manifest, with the project's own TypeScript (5, 6 or 7,
 * found from the working directory). Exit 0 when all is clean, 1 otherwise, 2 without a TypeScript;
 * `--watch` runs again on every change until interrupted.
 */
export async function checkCommand(args: Args<'check'>, io: CliIO): Promise<number> {
  const roots = await existingRoots(args, io, args.positionals)
  let typescript: TypeScriptBackend
  try {
    typescript = await startTypeScript(io.cwd)
  } catch (error) {
    return setupFailure(error, io)
  }
  try {
    return await checkWith(typescript, roots, args, io)
  } catch (error) {
    return setupFailure(error, io)
  } finally {
    await typescript.close()
  }
}

/** A TypeScript that cannot check (none, too old, broken) as one line, exit 2; anything else is rethrown. */
function setupFailure(error: unknown, io: CliIO): number {
  if (!(error instanceof TypeScriptSetupError)) throw error
  const line = error.code ? `${error.code}: ${error.message}; ${error.hint}` : error.message
  writeLine(io.stderr, `site-skills: ${line}`)
  return 2
}

async function checkWith(
  typescript: TypeScriptBackend,
  roots: readonly Root[],
  args: Args<'check'>,
  io: CliIO,
): Promise<number> {
  const skills = createBudgetedCompiler({
    roots,
    compat: args.compat === 'ego-lite' ? 'ego-lite' : undefined,
    checkOnly: true,
  })
  const checker = createToolTypeChecker(typescript)
  const out = resolve(io.cwd, args.out ?? DEFAULT_DTS)
  const dts = displayPath(out, io.cwd, roots)

  async function run(): Promise<WatchedRun> {
    const result = await skills.compile()
    let typed: TypeCheck | undefined
    if (result.errors === 0) {
      const wrote = writeGeneratedFile(out, generateDts(result.skills, out), dts)
      // Not written (a FIFO or a symlink there): nothing to check the tools against.
      if (isWriteFailure(wrote)) {
        writeLine(io.stderr, `site-skills: dts-unwritten: ${wrote.message}`)
        return { code: 1, dirs: foldersOf(roots, result) }
      }
      typed = await checker.check(out, toolTargets(result.skills))
    }
    if (args.json) printJson(result, typed, dts, io)
    else printHuman(result, typed, dts, io)
    const code = result.errors === 0 && typed?.problems.length === 0 ? 0 : 1
    const dirs = foldersOf(roots, result)
    for (const file of typed?.files ?? []) dirs.add(dirname(file))
    return { code, dirs }
  }

  if (!args.watch) return (await run()).code
  // A TypeScript that fails is said in one line; the watch goes on (it may be reinstalled meanwhile).
  let dirs: Iterable<string> = roots.map(rootPath)
  const watched = async (): Promise<WatchedRun> => {
    try {
      const outcome = await run()
      dirs = outcome.dirs
      return outcome
    } catch (error) {
      return { code: setupFailure(error, io), dirs }
    }
  }
  return watchTypechecks(watched, (text) => writeLine(io.stdout, text))
}

import { dirname, join } from 'node:path'
import type { ToolAnnotations, ToolKind, ValueSchema } from '../../../runtime/index'
import { wantsEgoLite } from '../compat'
import { checkCursorArg, resultBudgetOf } from './result-budget'
import { checkUrls } from './urls'
import type { TokenBudget, ToolModel } from '../model'
import { RESERVED_PRODUCTS, inspectPath, isInside, unsafeRelativePath } from '../fs/paths'
import {
  type FolderValidation,
  readSkillText,
  readText,
  report,
  reportAt,
  reportTempRefs,
  resolveSkillFile,
} from './folder-validation'
import type { ModuleExports, NotOneFunction, SourceError } from './module-types'
import { analyzeModule, checkFunctionExpression, describeDefaultExport, looksLikeModule } from './module-shape'
import type { ToolMapKey } from './schema'

const NODE_EXT_RE = /\.(?:js|mjs|ts)$/
const BROWSER_EXT_RE = /\.(?:js|ts)$/

const KIND_OF: Record<ToolMapKey, ToolKind> = { nodeTools: 'node', browserTools: 'browser' }

/** The original's isNodeToolPath (release line included), with .mjs and .ts allowed. */
/** A manifest's `tokenBudget` as the model holds it; anything else (reported by the schema check) is none. */
export function tokenBudgetOf(value: unknown): { tokenBudget?: TokenBudget } {
  if (Number.isInteger(value) && (value as number) > 0) return { tokenBudget: { max: value as number } }
  const { max, fail } = (value ?? {}) as { max?: unknown; fail?: unknown }
  if (!Number.isInteger(max) || (max as number) < 1) return {}
  return { tokenBudget: { max: max as number, ...(fail === true ? { fail } : {}) } }
}

function isNodeToolPath(path: string): boolean {
  const [dir, file, ...rest] = path.split('/')
  if (rest.length || !dir || !file || !NODE_EXT_RE.test(file)) return false
  return dir === 'tools' || (/^functions\.(?:js|mjs|ts)$/.test(file) && !RESERVED_PRODUCTS.has(dir))
}

function isBrowserToolPath(path: string): boolean {
  const [dir, file, ...rest] = path.split('/')
  return !rest.length && dir === 'browser-tools' && !!file && BROWSER_EXT_RE.test(file)
}

/** Checks the shape of a tool's path. Returns true when the file may be looked at. */
function checkToolPath(check: FolderValidation, mapKey: ToolMapKey, name: string, path: string): boolean {
  const kind = KIND_OF[mapKey]
  const tool = `${mapKey}.${name}`
  const at = [mapKey, name, 'path']
  const unsafe = unsafeRelativePath(path)
  if (unsafe === 'escape') {
    reportAt(check, at, { code: 'path-escape', data: { via: 'tool-path', tool } })
    return false
  }
  if (unsafe === 'backslash') {
    reportAt(check, at, { code: 'tool-path', data: { tool, problem: 'backslash' } })
    return false
  }
  if (unsafe || !(kind === 'node' ? isNodeToolPath(path) : isBrowserToolPath(path))) {
    reportAt(check, at, { code: 'tool-path', data: { tool, problem: kind } })
    return false
  }
  if (wantsEgoLite(check.options) && !path.endsWith('.js')) {
    reportAt(check, at, { code: 'compat-ego-lite', data: { problem: 'extension', tool } })
  }
  return true
}

function moduleExports(check: FolderValidation, real: string): Promise<ModuleExports | SourceError> {
  let found = check.exports.get(real)
  if (!found) {
    // A module re-exported by a tool may be unreadable: its exports are then unknown.
    const failed = (message: string): SourceError => ({ message, line: 1, column: 1 })
    found = readText(check, real).then((text) =>
      typeof text === 'string' ? analyzeModule(text, real) : failed(text.message),
    )
    check.exports.set(real, found)
  }
  return found
}

/** Whether `name` is a function export of the module, following local `export *` one level down. */
async function findExport(
  check: FolderValidation,
  real: string,
  name: string,
  depth = 0,
): Promise<'function' | 'other' | 'unknown' | 'missing'> {
  const shape = await moduleExports(check, real)
  if ('message' in shape) return 'unknown'
  const kind = shape.exports.get(name)
  if (kind) return kind
  for (const from of shape.starFrom) {
    if (!from.startsWith('.') || depth > 4) return 'unknown'
    const target = await resolveLocalImport(dirname(real), from)
    if (!target || !isInside(check.folder.realDir, target)) return 'unknown'
    const inner = await findExport(check, target, name, depth + 1)
    if (inner !== 'missing') return inner
  }
  return 'missing'
}

async function resolveLocalImport(dir: string, spec: string): Promise<string | undefined> {
  for (const candidate of [spec, `${spec}.js`, `${spec}.mjs`, `${spec}.ts`, spec.replace(/\.js$/, '.ts')]) {
    const state = await inspectPath(join(dir, candidate))
    if (state.kind === 'file') return state.real
  }
  return undefined
}

/** Returns whether the file parses (callable problems are reported but do not count). */
async function checkNodeToolFile(
  check: FolderValidation,
  name: string,
  path: string,
  real: string,
  callable: unknown,
): Promise<boolean> {
  const shape = await moduleExports(check, real)
  if ('message' in shape) {
    const data = { problem: 'node-syntax', path, reason: shape.message } as const
    report(check, path, { code: 'tool-parse', data, line: shape.line, column: shape.column })
    return false
  }
  if (typeof callable !== 'string' || callable.trim() === '') return true
  const found = await findExport(check, real, callable)
  if (found === 'missing' || found === 'other') {
    const data = { callable, tool: name, notFunction: found === 'other' }
    reportAt(check, ['nodeTools', name, 'callable'], { code: 'tool-callable-missing', data })
  }
  return true
}

/** Why a bare browser tool is not one function: it does not parse, or it holds something else. */
function notOneFunction(path: string, problem: SourceError | NotOneFunction) {
  if ('message' in problem) return { problem: 'syntax', path, reason: problem.message } as const
  if ('follows' in problem) return { problem: 'shape', path, follows: problem.follows } as const
  return { problem: 'shape', path, found: problem.found, ...(problem.script ? { script: true } : {}) } as const
}

const positionOf = ({ line, column }: { line: number; column: number }) => ({ line, column })

/** Whether the browser tool passed its checks, and whether it is an ES module rather than a bare function. */
async function checkBrowserToolFile(
  check: FolderValidation,
  name: string,
  path: string,
  real: string,
  text: string,
): Promise<{ ok: boolean; module: boolean }> {
  const isModule = looksLikeModule(text)
  if (wantsEgoLite(check.options) && isModule) {
    const data = { problem: 'module', tool: `browserTools.${name}` } as const
    reportAt(check, ['browserTools', name, 'path'], { code: 'compat-ego-lite', data })
  }
  if (!isModule) {
    const problem = await checkFunctionExpression(text, real)
    if (problem) {
      report(check, path, { code: 'tool-parse', data: notOneFunction(path, problem), ...positionOf(problem) })
    } else check.sources.set(real, text)
    return { ok: !problem, module: false }
  }
  const shape = await moduleExports(check, real)
  if ('message' in shape) {
    const data = { problem: 'syntax', path, reason: shape.message } as const
    report(check, path, { code: 'tool-parse', data, line: shape.line, column: shape.column })
    return { ok: false, module: true }
  }
  const kind = await findExport(check, real, 'default')
  if (kind === 'missing') {
    report(check, path, { code: 'tool-parse', data: { problem: 'no-default', path } })
    return { ok: false, module: true }
  }
  if (kind === 'other') {
    const found = await describeDefaultExport(text, real)
    const data = { problem: 'default-not-function', path, found: found?.message } as const
    report(check, path, { code: 'tool-parse', data, line: found?.line, column: found?.column })
    return { ok: false, module: true }
  }
  return { ok: true, module: true }
}

/** Checks one tool's path and file. Returns its model when the file is usable (for bundling and the skill). */
export async function checkTool(
  check: FolderValidation,
  mapKey: ToolMapKey,
  name: string,
  schema: Record<string, unknown>,
): Promise<ToolModel | undefined> {
  const kind = KIND_OF[mapKey]
  const path = schema.path
  if (typeof path !== 'string' || !checkToolPath(check, mapKey, name, path)) return undefined
  const real = await resolveSkillFile(
    check,
    path,
    (directory) => ({ code: 'tool-file-missing', data: { kind, path, tool: name, directory } }),
    'tool',
  )
  if (typeof real !== 'string') {
    reportAt(check, [mapKey, name, 'path'], real)
    return undefined
  }
  const text = await readSkillText(check, path, real, 'tool', { kind, name: path })
  if (text === undefined) return undefined
  reportTempRefs(check, path, text, { kind, name })
  const shape =
    kind === 'node'
      ? { ok: await checkNodeToolFile(check, name, path, real, schema.callable), module: undefined }
      : await checkBrowserToolFile(check, name, path, real, text)
  const urls = await checkUrls(check, [mapKey, name, 'urls'], schema.urls, `${mapKey}.${name}.urls`)
  checkCursorArg(check, [mapKey, name], schema.args)
  if (!shape.ok) return undefined
  return {
    name,
    kind,
    description: String(schema.description),
    path,
    absPath: real,
    ...(kind === 'node' ? { callable: String(schema.callable) } : { module: shape.module }),
    args: (schema.args ?? {}) as Record<string, ValueSchema>,
    returns: schema.returns as ValueSchema,
    ...(typeof schema.timeoutMs === 'number' ? { timeoutMs: schema.timeoutMs } : {}),
    ...(schema.annotations ? { annotations: schema.annotations as ToolAnnotations } : {}),
    ...tokenBudgetOf(schema.tokenBudget),
    ...resultBudgetOf(schema.resultBudget),
    ...(urls ? { urls } : {}),
    ...(kind === 'browser' && schema.webmcp === 'prefer' ? { webmcp: 'prefer' as const } : {}),
  }
}

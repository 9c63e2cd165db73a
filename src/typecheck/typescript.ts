import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  FILE_LIMITS,
  READ_FAILURE_CODES,
  inspectRegularFile,
  isReadFailure,
  readRegularFile,
} from '../compiler/fs/files'
import type { TypeScriptBackend } from './backend'
import { type ClassicTypeScript, createClassicBackend } from './classic'
import { type NativeTypeScript, createNativeBackend } from './native'
import { checkCompilerOptions } from './compiler-options'
import { resolutionProblem } from './resolution'

/** The majors `check` drives: 5 and 6 through the compiler API, 7 through its `unstable/async` API. */
const FIRST_MAJOR = 5
const NATIVE_MAJOR = 7

/** The line that installs what `check` needs, as the error says it. */
const INSTALL_TYPESCRIPT = 'npm i -D typescript'

/** The hint of a project TypeScript that is there but broken. */
const REINSTALL_TYPESCRIPT = 'reinstall it: npm i -D typescript --force'

/**
 * The project has no TypeScript, or one `check` cannot drive (too old, or broken: `code` then says
 * so, and `hint` what to do): exit 2 with what to install.
 */
export class TypeScriptSetupError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    readonly hint?: string,
  ) {
    super(message)
  }
}

/** The first line of what went wrong, at most 300 characters (a stack or a compiler's log is not for users). */
function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  const line = text.trim().split('\n')[0] ?? ''
  return line.length > 300 ? `${line.slice(0, 299)}…` : line
}

/** The project's TypeScript failed to load, to start, or in a check: `typescript-broken`, what failed and why. */
function broken(where: string, what: string, error: unknown): TypeScriptSetupError {
  const message = `the project's TypeScript (${where}) ${what}: ${reasonOf(error)}`
  return new TypeScriptSetupError(message, 'typescript-broken', REINSTALL_TYPESCRIPT)
}

/** The project's TypeScript: where its package is and which version it is. */
interface ProjectTypeScript {
  version: string
  /** Its folder, relative to the project (`node_modules/typescript`). */
  where: string
  major: number
  /** Resolves a module as the project would, e.g. `typescript/unstable/async`. */
  resolve: (id: string) => string
}

/**
 * The TypeScript of the project in `projectDir`, resolved as the project's own code resolves it
 * (its `node_modules` and those above it). Never from a skill root: skills hold data, and a
 * `node_modules` inside a root is not the project's tooling.
 */
function findTypeScript(projectDir: string): ProjectTypeScript | undefined {
  guardResolution(projectDir)
  const require = createRequire(join(projectDir, 'package.json'))
  let manifest: string
  try {
    manifest = require.resolve('typescript/package.json')
  } catch (error) {
    // Not found is "none"; anything else (a package.json Node cannot parse) is a broken one.
    if ((error as { code?: unknown }).code === 'MODULE_NOT_FOUND') return undefined
    throw broken('node_modules/typescript', 'has an unreadable package.json', error)
  }
  const where = relative(projectDir, join(manifest, '..')) || '.'
  let version: unknown
  try {
    const read = readRegularFile(manifest, FILE_LIMITS.manifest)
    if (isReadFailure(read)) throw new Error(`package.json ${read.message}`)
    version = (JSON.parse(read.toString('utf8')) as { version?: unknown }).version
  } catch (error) {
    throw broken(where, 'has an unreadable package.json', error)
  }
  if (typeof version !== 'string')
    throw broken(where, 'has no version', new Error('its package.json has no "version" string'))
  return { version, where, major: Number.parseInt(version, 10), resolve: (id) => require.resolve(id) }
}

/**
 * Before Node's resolver looks for the project's TypeScript: a package.json on its way that the file
 * guard refuses (a FIFO would hang the resolver) is the project's broken TypeScript, or a broken project.
 */
function guardResolution(projectDir: string): void {
  const problem = resolutionProblem(projectDir, 'typescript')
  if (!problem) return
  const why = new Error(`${problem.file} ${problem.failure.message}`)
  if (problem.own) throw broken(dirname(problem.file), 'has an unreadable package.json', why)
  throw new TypeScriptSetupError(
    `check cannot look for the project's TypeScript: ${why.message}`,
    READ_FAILURE_CODES[problem.failure.problem],
    'put a regular file there',
  )
}

/** Whether the project has Node's types, which `check` then gives every tool (`process`, `Buffer`, ...). */
function hasNodeTypes(projectDir: string): boolean {
  // A package.json Node's resolver cannot read safely (a FIFO) is no types.
  if (resolutionProblem(projectDir, '@types/node')) return false
  try {
    createRequire(join(projectDir, 'package.json')).resolve('@types/node/package.json')
    return true
  } catch {
    return false
  }
}

/** The largest module of a TypeScript loaded (typescript.js of 5 and 6 is about 9 MiB). */
const MODULE_LIMIT = 64 * 1024 * 1024

async function importFile<T>(path: string): Promise<T> {
  // Node's loader opens it without care: a FIFO there would hang the check.
  const failure = inspectRegularFile(path, MODULE_LIMIT)
  if (failure) throw new Error(`${path} ${failure.message}`)
  const loaded = (await import(pathToFileURL(path).href)) as T & { default?: T }
  return loaded.default ?? loaded
}

/** Starts the project's TypeScript for `check`, whichever supported major it is. */
export async function startTypeScript(projectDir: string): Promise<TypeScriptBackend> {
  const found = findTypeScript(projectDir)
  if (!found) {
    throw new TypeScriptSetupError(
      `check type-checks tools with the project's TypeScript, and ${projectDir} has none; install it: ` +
        `${INSTALL_TYPESCRIPT}`,
    )
  }
  if (!(found.major >= FIRST_MAJOR)) {
    throw new TypeScriptSetupError(
      `check needs TypeScript ${FIRST_MAJOR} or later, and the project has ${found.version}; update it: ` +
        `${INSTALL_TYPESCRIPT}@latest`,
    )
  }
  const options = checkCompilerOptions(hasNodeTypes(projectDir))
  const where = `${found.where}, ${found.version}`
  let backend: TypeScriptBackend
  try {
    if (found.major < NATIVE_MAJOR) {
      const ts = await importFile<ClassicTypeScript>(found.resolve('typescript'))
      backend = createClassicBackend(ts, projectDir, options)
    } else {
      const ts = await importFile<NativeTypeScript>(found.resolve('typescript/unstable/async'))
      backend = createNativeBackend(ts, found.version, projectDir, options)
    }
  } catch (error) {
    throw broken(where, 'cannot be loaded', error)
  }
  return guarded(backend, where)
}

/** A backend whose failures in a check are the project's TypeScript's, said as such (see `broken`). */
function guarded(backend: TypeScriptBackend, where: string): TypeScriptBackend {
  return {
    ...backend,
    check: (input) =>
      backend.check(input).catch((error: unknown) => {
        throw broken(where, 'failed', error)
      }),
  }
}

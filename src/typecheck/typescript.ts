import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { CompilerBackend } from './backend'
import { type ClassicTypeScript, createClassicBackend } from './classic'
import { type NativeTypeScript, createNativeBackend } from './native'
import { checkCompilerOptions } from './options'

/** The majors `check` drives: 5 and 6 through the compiler API, 7 through its `unstable/async` API. */
const FIRST_MAJOR = 5
const NATIVE_MAJOR = 7

/** The line that installs what `check` needs, as the error says it. */
const INSTALL_TYPESCRIPT = 'npm i -D typescript'

/** The project has no TypeScript (or one `check` cannot drive): exit 2 with what to install. */
export class TypeScriptSetupError extends Error {}

/** The project's TypeScript: where its package is and which version it is. */
interface ProjectTypeScript {
  version: string
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
  const require = createRequire(join(projectDir, 'package.json'))
  let manifest: string
  try {
    manifest = require.resolve('typescript/package.json')
  } catch {
    return undefined
  }
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }
  return { version, major: Number.parseInt(version, 10), resolve: (id) => require.resolve(id) }
}

/** Whether the project has Node's types, which `check` then gives every tool (`process`, `Buffer`, ...). */
function hasNodeTypes(projectDir: string): boolean {
  try {
    createRequire(join(projectDir, 'package.json')).resolve('@types/node/package.json')
    return true
  } catch {
    return false
  }
}

async function importFile<T>(path: string): Promise<T> {
  const loaded = (await import(pathToFileURL(path).href)) as T & { default?: T }
  return loaded.default ?? loaded
}

/** Starts the project's TypeScript for `check`, whichever supported major it is. */
export async function startCompiler(projectDir: string): Promise<CompilerBackend> {
  const found = findTypeScript(projectDir)
  if (!found) {
    throw new TypeScriptSetupError(
      `check type-checks tools with the project's TypeScript, and ${projectDir} has none; install it: ${INSTALL_TYPESCRIPT}`,
    )
  }
  if (!(found.major >= FIRST_MAJOR)) {
    throw new TypeScriptSetupError(
      `check needs TypeScript ${FIRST_MAJOR} or later, and the project has ${found.version}; update it: ${INSTALL_TYPESCRIPT}@latest`,
    )
  }
  const options = checkCompilerOptions(hasNodeTypes(projectDir))
  if (found.major < NATIVE_MAJOR) {
    const ts = await importFile<ClassicTypeScript>(found.resolve('typescript'))
    return createClassicBackend(ts, projectDir, options)
  }
  const ts = await importFile<NativeTypeScript>(found.resolve('typescript/unstable/async'))
  return createNativeBackend(ts, found.version, projectDir, options)
}

import { createRequire } from 'node:module'
import { basename, dirname, join, relative } from 'node:path'
import { FILE_LIMITS, type ReadFailure, inspectFileAt } from '../compiler/fs/files'

/** A file Node's resolver would open on its way to a package, that the file guard refuses. */
export interface ResolutionProblem {
  /** The file, relative to the project. */
  file: string
  failure: ReadFailure
  /** Whether it is the package's own package.json (else one of the project's, above it). */
  own: boolean
}

/** The first failure, or `found` when a regular file is there, or `missing`. */
function inspect(path: string): ReadFailure | 'found' | 'missing' {
  return inspectFileAt(path, FILE_LIMITS.manifest) ?? 'found'
}

/**
 * What Node's resolver would open before it resolves `name` (a package: `typescript`,
 * `@types/node`) from `projectDir`, inspected by the file guard first: Node opens each package.json
 * without care, so a FIFO there hangs the process and a device never ends. Those are the project's
 * own package.json (the first from `projectDir` up: its package scope), then `name`'s package.json
 * in each folder of the lookup paths, up to the first there. Undefined when all are regular files.
 */
export function resolutionProblem(projectDir: string, name: string): ResolutionProblem | undefined {
  const at = (path: string) => relative(projectDir, path) || path
  for (let dir = projectDir; ; dir = dirname(dir)) {
    const path = join(dir, 'package.json')
    const found = inspect(path)
    if (typeof found === 'object') return { file: at(path), failure: found, own: false }
    if (found === 'found' || dirname(dir) === dir || basename(dir) === 'node_modules') break
  }
  const paths = createRequire(join(projectDir, 'package.json')).resolve.paths(name) ?? []
  for (const folder of paths) {
    const path = join(folder, name, 'package.json')
    const found = inspect(path)
    if (typeof found === 'object') return { file: at(path), failure: found, own: true }
    if (found === 'found') return undefined
  }
  return undefined
}

import { fileURLToPath } from 'node:url'
import { FILE_LIMITS, isReadFailure, readRegularFile } from '../compiler/fs/files'

const PACKAGE_NAME = 'unplugin-site-skills'
// Built chunks sit one folder below the package root (dist/); src/own/version.ts two.
const CANDIDATES = ['../package.json', '../../package.json']

/** The fields of the package's own package.json that the CLI reads. */
interface OwnManifest {
  name: string
  version: string
  peerDependencies?: Record<string, string>
}

/** The package's own package.json, found from this module's location. */
export function ownManifest(): OwnManifest {
  for (const candidate of CANDIDATES) {
    try {
      const read = readRegularFile(fileURLToPath(new URL(candidate, import.meta.url)), FILE_LIMITS.manifest)
      if (isReadFailure(read)) continue
      const pkg = JSON.parse(read.toString('utf8')) as Partial<OwnManifest>
      if (pkg.name === PACKAGE_NAME && pkg.version) return pkg as OwnManifest
    } catch {
      // Not there from this location: try the next.
    }
  }
  throw new Error(`cannot find the package.json of ${PACKAGE_NAME}`)
}

/** The version in the package's own package.json. */
export function packageVersion(): string {
  return ownManifest().version
}

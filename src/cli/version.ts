import { readFileSync } from 'node:fs'

const PACKAGE_NAME = 'unplugin-site-skills'
// dist/cli.js sits one folder below the package root; src/cli/version.ts two.
const CANDIDATES = ['../package.json', '../../package.json']

/** The version in the package's own package.json, found from this module's location. */
export function packageVersion(): string {
  for (const candidate of CANDIDATES) {
    try {
      const text = readFileSync(new URL(candidate, import.meta.url), 'utf8')
      const pkg = JSON.parse(text) as { name?: string; version?: string }
      if (pkg.name === PACKAGE_NAME && pkg.version) return pkg.version
    } catch {
      // Not there from this location: try the next.
    }
  }
  throw new Error(`cannot find the package.json of ${PACKAGE_NAME}`)
}

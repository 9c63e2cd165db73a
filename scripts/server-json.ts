/**
 * Keeps `server.json` (the MCP Registry's entry of the package) at the package's version: its own
 * `version` and its npm package's. `npm run version-packages` runs it after `changeset version`;
 * `test/package/server-json.unit.test.ts` fails when the two disagree.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(fileURLToPath(import.meta.url), '../..')

/** The `"version": "..."` members of server.json: its own, and its packages'. */
const VERSION_RE = /("version":\s*)"[^"]*"/g

/** `server.json`'s text with every version set to `version`; the rest (and its formatting) untouched. */
export function withVersion(text: string, version: string): string {
  return text.replace(VERSION_RE, (_, key: string) => `${key}${JSON.stringify(version)}`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
  const path = join(ROOT, 'server.json')
  writeFileSync(path, withVersion(readFileSync(path, 'utf8'), version))
}

import { createHash } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Message, build } from 'esbuild'
import { SiteToolError } from '../../runtime/index'
import { createBundleGuard } from '../compiler/bundle-guard'
import { FILE_LIMITS, isReadFailure, readRegularFile } from '../compiler/files'
import { isTypeScript } from '../compiler/paths'

const CACHE_DIR = join(tmpdir(), 'site-skills-node-tools')

/** A short digest of a file's content: the import version of a Node tool (read as validation reads it). */
export async function fileVersion(path: string): Promise<string> {
  const read = readRegularFile(path, FILE_LIMITS.tool)
  if (isReadFailure(read)) throw new SiteToolError('unavailable', `Node tool ${JSON.stringify(path)} ${read.message}`)
  return createHash('sha256').update(read).digest('hex').slice(0, 16)
}

/** esbuild's first error, with its place, as one line. */
function firstError(error: unknown): string {
  const first = (error as { errors?: Message[] }).errors?.[0]
  if (!first) return error instanceof Error ? error.message : String(error)
  const at = first.location ? `${first.location.file}:${first.location.line}:${first.location.column + 1}: ` : ''
  return `${at}${first.text}`
}

/**
 * The file to import for a Node tool. JavaScript is imported as is; Node 20 cannot import
 * TypeScript, so a `.ts` tool is bundled with esbuild into a cached `.mjs` (keyed by content).
 * Every file esbuild reads for it is a regular file within its limit (see bundle-guard.ts);
 * `skillDir` is the skill's real folder.
 */
export async function compileNodeTool(absPath: string, skillDir: string): Promise<string> {
  if (!isTypeScript(absPath)) return absPath
  const guard = createBundleGuard({ skillDirs: [skillDir], anywhere: true })
  const out = await build({
    entryPoints: [absPath],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'silent',
    plugins: [guard.plugin],
    banner: {
      js:
        "import { createRequire as __siteSkillsRequire } from 'node:module'; " +
        'const require = __siteSkillsRequire(import.meta.url);',
    },
  }).catch((error: unknown) => {
    throw new SiteToolError(
      'unavailable',
      `Node tool ${JSON.stringify(absPath)} cannot be compiled: ${firstError(error)}`,
    )
  })
  const code = out.outputFiles[0]!.text
  const file = join(CACHE_DIR, `${createHash('sha256').update(absPath).update(code).digest('hex').slice(0, 24)}.mjs`)
  await mkdir(CACHE_DIR, { recursive: true })
  await writeFile(file, code)
  return file
}

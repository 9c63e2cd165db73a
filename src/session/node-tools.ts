import { createHash, randomBytes } from 'node:crypto'
import { lstatSync, mkdirSync, mkdtempSync } from 'node:fs'
import { rename, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Message, build } from 'esbuild'
import { SiteToolError } from '../../runtime/index'
import { createBundleGuard } from '../compiler/bundle/bundle-guard'
import { FILE_LIMITS, isReadFailure, readRegularFile } from '../compiler/fs/files'
import { isTypeScript } from '../compiler/fs/paths'

/**
 * Where compiled tools are written and imported from: a folder of this user's in the temporary
 * folder, used only when it is a real folder (no symlink), owned by this user and closed to
 * others (mode 0700), so that nobody else can plant or redirect what is imported. Otherwise (made
 * by someone else, or opened up) a fresh private folder for this compile. Checked at each compile
 * of a TypeScript tool (two system calls beside an esbuild build): nothing is kept between calls.
 */
function privateCacheDir(): string {
  const uid = process.getuid?.()
  const shared = join(tmpdir(), `site-skills-node-tools-${uid ?? 'user'}`)
  try {
    mkdirSync(shared, { mode: 0o700 })
  } catch {}
  const info = lstatSync(shared, { throwIfNoEntry: false })
  const ours = info?.isDirectory() && (uid === undefined || (info.uid === uid && (info.mode & 0o077) === 0))
  return ours ? shared : mkdtempSync(join(tmpdir(), 'site-skills-node-tools-'))
}

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
  const dir = privateCacheDir()
  const file = join(dir, `${createHash('sha256').update(absPath).update(code).digest('hex').slice(0, 24)}.mjs`)
  // Written aside and renamed: a process importing the same tool meanwhile never reads half a file.
  const aside = join(dir, `.${process.pid}-${randomBytes(6).toString('hex')}.tmp`)
  await writeFile(aside, code, { flag: 'wx', mode: 0o600 })
  await rename(aside, file)
  return file
}

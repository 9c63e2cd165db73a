import { createHash } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { isTypeScript } from '../compiler/paths'

const CACHE_DIR = join(tmpdir(), 'site-skills-node-tools')

/** A short digest of a file's content: the import version of a Node tool. */
export async function fileVersion(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex')
    .slice(0, 16)
}

/**
 * The file to import for a Node tool. JavaScript is imported as is; Node 20 cannot import
 * TypeScript, so a `.ts` tool is bundled with esbuild into a cached `.mjs` (keyed by content).
 */
export async function compileNodeTool(absPath: string): Promise<string> {
  if (!isTypeScript(absPath)) return absPath
  const out = await build({
    entryPoints: [absPath],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'silent',
    banner: {
      js:
        "import { createRequire as __siteSkillsRequire } from 'node:module'; " +
        'const require = __siteSkillsRequire(import.meta.url);',
    },
  })
  const code = out.outputFiles[0]!.text
  const file = join(CACHE_DIR, `${createHash('sha256').update(absPath).update(code).digest('hex').slice(0, 24)}.mjs`)
  await mkdir(CACHE_DIR, { recursive: true })
  await writeFile(file, code)
  return file
}

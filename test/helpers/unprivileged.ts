import { existsSync } from 'node:fs'
import { chmod, cp, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { REPO_ROOT } from './tmp'

/** The user that permission tests run as (`nobody`), for `setpriv`. */
export const NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups']

interface LockEntry {
  dev?: boolean
  link?: boolean
  optional?: boolean
}

/**
 * The installed packages the built binary needs at run time: package-lock's entries that are not
 * dev-only, less optional ones this platform did not install (esbuild's other binaries).
 */
async function productionPackages(): Promise<string[]> {
  const lock = JSON.parse(await readFile(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>
  }
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path.startsWith('node_modules/') && !entry.dev && !entry.link)
    .filter(([path, entry]) => !entry.optional || existsSync(join(REPO_ROOT, path)))
    .map(([path]) => path)
}

/**
 * A copy of the built package (`bin/`, `dist/`, its run-time packages) in a fresh folder below the
 * system's temporary folder, readable by every user: an unprivileged process cannot read a clone
 * that lives below a folder of mode 0700 (a home folder, a `mktemp -d`). Test data for that
 * process goes in `dir` too.
 */
export async function unprivilegedCopy(): Promise<{ dir: string; bin: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'site-skills-nobody-'))
  await chmod(dir, 0o755)
  const pkg = join(dir, 'pkg')
  for (const part of ['package.json', 'bin', 'dist', ...(await productionPackages())])
    await cp(join(REPO_ROOT, part), join(pkg, part), { recursive: true, dereference: true })
  return { dir, bin: join(pkg, 'bin/site-skills.js'), cleanup: () => rm(dir, { recursive: true, force: true }) }
}

import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

/** Bundler and binary tests use the built package, as users do: build it once per run. */
export default function setup(): void {
  const root = join(import.meta.dirname, '..')
  execFileSync(process.execPath, [join(root, 'node_modules/tsdown/dist/run.mjs'), '--silent'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
}

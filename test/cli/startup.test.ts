import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, runNode } from '../helpers/spawn'
import { REPO_ROOT, makeTempDir } from '../helpers/tmp'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let preload: string
beforeAll(async () => {
  tmp = await makeTempDir('cli-startup-')
  // Says at exit which CommonJS packages the process loaded (ESM imports of them fill require.cache too).
  preload = join(tmp.dir, 'loaded.mjs')
  await writeFile(
    preload,
    [
      "import { createRequire } from 'node:module'",
      'const cache = createRequire(import.meta.url).cache',
      "process.on('exit', () => {",
      '  const names = Object.keys(cache).flatMap((f) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(f)?.[1] ?? [])',
      '  process.stderr.write(`\\nloaded: ${JSON.stringify([...new Set(names)].sort())}\\n`)',
      '})',
      '',
    ].join('\n'),
  )
})
afterAll(() => tmp.cleanup())

/** Runs the real binary with the preload; the CommonJS packages it loaded, and how it ended. */
async function packagesLoaded(argv: string[]): Promise<{ code: number | null; loaded: string[] }> {
  const run = await runNode(['--import', pathToFileURL(preload).href, BIN, ...argv], { cwd: REPO_ROOT })
  const line = /\nloaded: (.*)\n$/.exec(run.stderr)
  expect(line, run.stderr).not.toBeNull()
  return { code: run.code, loaded: JSON.parse(line![1]!) as string[] }
}

describe('what a command loads', () => {
  it('validate loads neither the MCP server nor its schema checker (each command loads its own modules)', async () => {
    const validate = await packagesLoaded(['validate', 'learnings'])
    expect(validate.code).toBe(0)
    expect(validate.loaded).not.toContain('ajv')
    const version = await packagesLoaded(['--version'])
    expect(version).toEqual({ code: 0, loaded: [] })
    // A command's help comes from its declaration: mcp --help loads neither the SDK nor the command.
    expect(await packagesLoaded(['mcp', '--help'])).toEqual({ code: 0, loaded: [] })
    // The probe sees ajv where a command needs it: the MCP SDK checks tool results with it.
    const mcp = await packagesLoaded(['mcp', '--http', 'x'])
    expect(mcp.code).toBe(2)
    expect(mcp.loaded).toContain('ajv')
  })
})

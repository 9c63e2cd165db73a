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
  // Says at exit which packages the process loaded: CommonJS ones from require.cache (ESM imports of
  // them fill it too), ES modules from a resolve hook, which posts each URL to this thread.
  preload = join(tmp.dir, 'loaded.mjs')
  const hooks =
    'let port; export function initialize(data) { port = data.port }' +
    ' export async function resolve(specifier, context, next) {' +
    ' const found = await next(specifier, context); port.postMessage(found.url); return found }'
  await writeFile(
    preload,
    [
      "import { createRequire, register } from 'node:module'",
      "import { MessageChannel } from 'node:worker_threads'",
      'const cache = createRequire(import.meta.url).cache',
      'const { port1, port2 } = new MessageChannel()',
      'const urls = new Set()',
      "port1.on('message', (url) => urls.add(url))",
      'port1.unref()',
      `register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)}, import.meta.url, { data: { port: port2 }, transferList: [port2] })`,
      "process.on('exit', () => {",
      '  const files = [...Object.keys(cache), ...urls]',
      '  const names = files.flatMap((f) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(f)?.[1] ?? [])',
      '  process.stderr.write(`\\nloaded: ${JSON.stringify([...new Set(names)].sort())}\\n`)',
      '})',
      '',
    ].join('\n'),
  )
})
afterAll(() => tmp.cleanup())

/** Runs the real binary with the preload; the packages it loaded, and how it ended. */
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
    expect(validate.loaded).not.toContain('@modelcontextprotocol/server')
    expect(validate.loaded).not.toContain('ajv')
    const version = await packagesLoaded(['--version'])
    expect(version).toEqual({ code: 0, loaded: [] })
    // A command's help comes from its declaration: mcp --help loads neither the SDK nor the command.
    expect(await packagesLoaded(['mcp', '--help'])).toEqual({ code: 0, loaded: [] })
    // The probe sees the SDK (ES modules) where a command loads it.
    const mcp = await packagesLoaded(['mcp', '--http', 'x'])
    expect(mcp.code).toBe(2)
    expect(mcp.loaded).toContain('@modelcontextprotocol/server')
  })
})

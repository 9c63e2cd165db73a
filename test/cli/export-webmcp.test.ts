import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LaunchedBrowser } from '../../runtime/launch'
import { readFolder } from '../../src/export/read'
import { evaluate } from '../helpers/browser'
import { startServer, type TestServer } from '../helpers/server'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { launchWithWebMcp, watchPageTools } from '../helpers/webmcp'
import { runBin } from '../helpers/spawn'

// `site-skills export --webmcp --out DIR`: a Manifest V3 extension, loaded in real Chromium 150
// with WebMCP, whose content scripts register the skills' browser tools on their pages only.
const READ = 'async function () {\n  return { title: document.title, path: location.pathname }\n}\n'
const args = { text: { type: 'string', required: true, description: 'Some text.' } }
const returns = { type: 'object', description: 'What the page says.' }

const SKILLS = {
  'shop/manifest.json': {
    id: 'shop',
    name: 'Shop',
    domains: ['127.0.0.1'],
    browserTools: {
      read: { description: 'Reads the page.', path: 'browser-tools/read.js', args: {}, returns },
      echo: { description: 'Echoes.', path: 'browser-tools/echo.js', args, returns },
      cart: { description: 'The cart.', path: 'browser-tools/read.js', args: {}, returns, urls: ['/app/:id?'] },
    },
    nodeTools: {
      double: {
        description: 'Doubles n.',
        path: 'tools/double.js',
        callable: 'double',
        args: { n: { type: 'integer', required: true, description: 'A number.' } },
        returns: { type: 'integer', description: 'Twice n.' },
      },
    },
  },
  'shop/browser-tools/read.js': READ,
  'shop/browser-tools/echo.js':
    'async function (args) {\n  if (args.text === "boom") throw new Error("boom")\n  return { text: args.text, title: document.title }\n}\n',
  'shop/tools/double.js': 'export function double(ctx, args) {\n  return args.n * 2\n}\n',
  'docs/manifest.json': { id: 'docs', name: 'Docs', domains: ['*.docs.test'], urls: ['/guide/*'], nodeTools: {} },
}

let tmp: { dir: string; cleanup: () => Promise<void> }
let root: string
let browser: LaunchedBrowser | undefined
let server: TestServer

const exportTo = (out: string, ...more: string[]) =>
  runBin(['export', '--webmcp', '--root', root, '--out', out, ...more], { limitMs: 30_000 })

beforeAll(async () => {
  tmp = await makeTempDir('export-webmcp-')
  root = join(tmp.dir, 'learnings')
  await writeTree(root, SKILLS)
  server = await startServer()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await tmp?.cleanup()
})

describe('site-skills export --webmcp', () => {
  it('writes the extension, says what it left out, and writes the same bytes on a second run', async () => {
    const out = join(tmp.dir, 'ext')
    const run = await exportTo(out)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('wrote a WebMCP extension to')
    expect(run.stdout).toContain('3 browser tools of shop')
    expect(run.stdout).toContain('left out 1 Node tool (WebMCP tools run in the page): shop/double')
    expect(run.stdout).toContain('left out skills without browser tools: docs')
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'))
    expect(manifest).toMatchObject({ manifest_version: 3, version: '0.1.0' })
    expect(manifest.content_scripts).toEqual([
      { matches: ['*://127.0.0.1/*'], js: ['skills/shop.js'], run_at: 'document_start' },
    ])
    const again = join(tmp.dir, 'ext-again')
    expect((await exportTo(again)).code).toBe(0)
    const [first, second] = await Promise.all([readFolder(out), readFolder(again)])
    expect([...second.files.keys()]).toEqual([...first.files.keys()])
    for (const [path, bytes] of first.files) expect(second.files.get(path)!.equals(bytes), path).toBe(true)
    expect((await exportTo(out, '--json')).code).toBe(0)
  })

  it('refuses bad usage (exit 2) and a folder it did not write (exit 1), writing nothing', async () => {
    const unused = join(tmp.dir, 'unused')
    const both = await runBin(['export', '--webmcp', '--agent-skills', '--root', root, '--out', unused])
    const check = await runBin(['export', '--webmcp', '--root', root, '--out', unused, '--check'])
    const noOut = await runBin(['export', '--webmcp', '--root', root])
    expect([both.code, check.code, noOut.code]).toEqual([2, 2, 2])
    expect(both.stderr).toContain('export writes one format, --agent-skills or --webmcp')
    expect(noOut.stderr).toContain('export --webmcp needs --out DIR')
    expect(existsSync(unused)).toBe(false)
    const mine = join(tmp.dir, 'mine')
    await mkdir(mine)
    await writeFile(join(mine, 'notes.txt'), 'mine')
    const refused = await exportTo(mine)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('not written by site-skills export')
    expect(await readFile(join(mine, 'notes.txt'), 'utf8')).toBe('mine')
  })

  it('loads in Chromium: its tools appear to WebMCP on a matching page, run there, and nowhere else', async () => {
    const out = join(tmp.dir, 'loaded')
    expect((await exportTo(out)).code).toBe(0)
    browser = await launchWithWebMcp([`--load-extension=${out}`, `--disable-extensions-except=${out}`])
    const page = await browser.newPage(server.url('/app/7'))
    const tools = await watchPageTools(page.client)
    await expect.poll(() => tools.names()).toEqual(['shop__cart', 'shop__echo', 'shop__read'])
    expect(tools.tool('shop__echo')!.annotations).toEqual({ readOnly: true, untrustedContent: true })
    const called = await tools.invoke('shop__echo', { text: 'hi' })
    // The result as compact text, as site-skills mcp sends a runBrowserTool result.
    expect(called.output).toBe('text:hi\ntitle:/app/7')
    const missing = await tools.invoke('shop__echo', {})
    expect(missing.output).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'invalid-args: shop -> echo: missing required argument "text"' }],
    })
    // A throw names the tool's file and line: the script carries the tools' source maps.
    expect((await tools.invoke('shop__echo', { text: 'boom' })).output).toMatchObject({
      content: [
        {
          text: expect.stringMatching(
            /^tool-threw: shop -> echo: threw Error: boom \(shop\/browser-tools\/echo\.js:2:\d+\)$/,
          ),
        },
      ],
    })
    // The match pattern takes every path of the host; the page code keeps cart to /app and /app/:id.
    await page.client.send('Page.navigate', { url: server.url('/checkout') })
    await expect.poll(() => tools.names()).toEqual(['shop__echo', 'shop__read'])
    await page.client.send('Page.navigate', { url: server.url('/app') })
    await expect.poll(() => tools.names()).toEqual(['shop__cart', 'shop__echo', 'shop__read'])
    tools.stop()
    await page.close()
    const foreign = await browser.newPage(server.url('/app/7').replace('127.0.0.1', 'localhost'))
    const none = await watchPageTools(foreign.client)
    const count = evaluate(foreign.client, '(async () => (await document.modelContext.getTools()).length)()')
    expect(await count).toBe(0)
    expect(none.names()).toEqual([])
    none.stop()
  })
})

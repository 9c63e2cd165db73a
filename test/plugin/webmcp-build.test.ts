import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LaunchedBrowser } from '../../runtime/launch'
import { buildApp, runMain } from '../helpers/bundlers'
import { startServer, type TestServer } from '../helpers/server'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { launchWithWebMcp, watchPageTools } from '../helpers/webmcp'

// A built agent registers its skills' browser tools as WebMCP tools with the export of
// virtual:site-skills (Vite build, run in its own Node process against a tab of Chromium 150).
// The agent registers the tools, then calls one as a WebMCP host does (its own CDP connection).
const ENTRY = `import CDP from 'chrome-remote-interface'
import { exposeWebMcpTools } from 'virtual:site-skills'

export async function main() {
  const target = process.env.SITE_SKILLS_TEST_PAGE
  const handle = await exposeWebMcpTools(target)
  const host = await CDP({ target, local: true })
  try {
    const { frameTree } = await host.send('Page.getFrameTree')
    const answered = new Promise((resolve) => host.on('WebMCP.toolResponded', resolve))
    const added = new Promise((resolve) => host.on('WebMCP.toolsAdded', resolve))
    await host.send('WebMCP.enable')
    const listed = (await added).tools.map((t) => t.name)
    await host.send('WebMCP.invokeTool', { frameId: frameTree.frame.id, toolName: 'shop__heading', input: {} })
    return { registered: handle.tools.map((t) => t.name), listed, output: (await answered).output }
  } finally {
    await host.close()
    await handle.close()
  }
}
`

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let browser: LaunchedBrowser
let server: TestServer

beforeAll(async () => {
  tmp = await makeTempDir('webmcp-build-')
  await writeTree(tmp.dir, {
    'entry.js': ENTRY,
    'learnings/shop/manifest.json': {
      id: 'shop',
      name: 'Shop',
      domains: ['127.0.0.1'],
      browserTools: {
        heading: {
          description: 'Reads the heading.',
          path: 'browser-tools/heading.js',
          args: {},
          returns: { type: 'string', description: 'The h1.' },
        },
      },
    },
    'learnings/shop/browser-tools/heading.js':
      'async function () {\n  return document.querySelector("h1").textContent\n}\n',
  })
  ;[browser, server] = await Promise.all([
    launchWithWebMcp(),
    startServer({ '/shop': '<!doctype html><title>Shop</title><h1>Tea shop</h1>' }),
  ])
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await tmp?.cleanup()
})

describe('exposeWebMcpTools of virtual:site-skills in a Vite build', () => {
  it("registers the built skill's tools in the tab, which a WebMCP host then calls", async () => {
    const file = await buildApp('vite', {
      outDir: join(tmp.dir, 'dist'),
      app: tmp.dir,
      entry: join(tmp.dir, 'entry.js'),
      options: { roots: join(tmp.dir, 'learnings') },
    })
    const page = await browser.newPage(server.url('/shop'))
    process.env.SITE_SKILLS_TEST_PAGE = `ws://127.0.0.1:${browser.port}/devtools/page/${page.targetId}`
    try {
      expect(await runMain(file)).toEqual({
        registered: ['shop__heading'],
        listed: ['shop__heading'],
        output: 'Tea shop',
      })
      // close() in the agent took them away again.
      const tools = await watchPageTools(page.client)
      expect(tools.names()).toEqual([])
      tools.stop()
    } finally {
      delete process.env.SITE_SKILLS_TEST_PAGE
      await page.close()
    }
  }, 120_000)
})

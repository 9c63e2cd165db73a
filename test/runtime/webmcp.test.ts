import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { isSiteToolError, type SiteToolError } from '../../runtime/errors'
import { type LaunchedBrowser, type LaunchedPage, launchBrowser } from '../../runtime/launch'
import type { SiteSkills } from '../../runtime/registry'
import { loadUrlPattern } from '../../runtime/urls'
import { evaluate, failure, navigate } from '../helpers/browser'
import { startServer, type TestServer } from '../helpers/server'
import { launchWithWebMcp, type PageTools, testRegistry, watchPageTools } from '../helpers/webmcp'

// exposeWebMcpTools in real Chromium 150 with --enable-features=WebMCP: which pages get the tools,
// and that they follow the tab (navigation, reload, same-document moves) until closed.
let browser: LaunchedBrowser
let server: TestServer
let api: SiteSkills

const READ = 'async function () {\n  return { title: document.title, path: location.pathname }\n}\n'
/** A page that registers a tool of our name in its first script, and notes how that went. */
const OWN_PAGE = `<!doctype html><title>own</title><script>
try {
  document.modelContext.registerTool({ name: 'shop__read', description: 'the page', execute: () => 'the page' })
  window.pageSaw = 'registered'
} catch (error) { window.pageSaw = error.name }
</script>`

beforeAll(async () => {
  await loadUrlPattern()
  ;[browser, server, api] = await Promise.all([
    launchWithWebMcp(),
    startServer({ '/own': OWN_PAGE }),
    testRegistry([
      {
        id: 'shop',
        domains: ['127.0.0.1'],
        tools: {
          read: { source: READ },
          cart: { source: READ, urls: ['/app/*'], annotations: { readOnlyHint: false, title: 'Add to cart' } },
        },
      },
      { id: 'admin', domains: ['127.0.0.1'], urls: ['/admin/*'], tools: { users: { source: READ } } },
      { id: 'elsewhere', domains: ['example.com'], tools: { read: { source: READ } } },
    ]),
  ])
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

/** The same path on a host no skill claims (localhost, a secure context too). */
const foreign = (path: string) => server.url(path).replace('127.0.0.1', 'localhost')

async function withTab(url: string, test: (page: LaunchedPage, tools: PageTools) => Promise<void>): Promise<void> {
  const page = await browser.newPage(url)
  const tools = await watchPageTools(page.client)
  try {
    await test(page, tools)
  } finally {
    tools.stop()
    await page.close()
  }
}

const SHOP = ['shop__cart', 'shop__read']

describe('exposeWebMcpTools registers the tools of the skills a page matches', () => {
  it('lists the browser tools of the matching skills, with their schema and hints, and no other', async () => {
    await withTab(server.url('/app/list'), async (page, tools) => {
      const handle = await api.exposeWebMcpTools(page.client)
      await expect.poll(() => tools.names()).toEqual(SHOP)
      expect(handle.tools.map((t) => t.name)).toEqual(['shop__read', 'shop__cart', 'admin__users', 'elsewhere__read'])
      const cart = tools.tool('shop__cart')!
      expect(cart.description).toBe('The cart tool of shop.')
      // The cursor of a result over its budget (SPEC 12), as toolDefinitions gives it.
      const cursor = { type: 'string', description: 'pageInfo.cursor of the last page.' }
      expect(cart.inputSchema).toEqual({
        type: 'object',
        properties: { cursor },
        required: [],
        additionalProperties: false,
      })
      expect(cart.annotations).toEqual({ readOnly: false, untrustedContent: true })
      expect(tools.tool('shop__read')!.annotations).toEqual({ readOnly: true, untrustedContent: true })
      const titles = await evaluate(
        page.client,
        '(async () => (await document.modelContext.getTools()).map((t) => t.title))()',
      )
      expect(titles).toEqual(['SHOP: read', 'Add to cart'])
      await handle.close()
    })
  })

  it('registers nothing on another host, and a skill scoped by urls only on its paths', async () => {
    await withTab(foreign('/app/list'), async (page, tools) => {
      const handle = await api.exposeWebMcpTools(page.client)
      await navigate(page.client, server.url('/admin/users'))
      await expect.poll(() => tools.names()).toEqual(['admin__users', 'shop__read'])
      await navigate(page.client, foreign('/admin/users'))
      const seen = await evaluate(page.client, '(async () => (await document.modelContext.getTools()).length)()')
      expect(seen).toBe(0)
      expect(tools.names()).toEqual([])
      await handle.close()
    })
  })

  it('registers again after a reload and a navigation, before the page runs its own scripts', async () => {
    await withTab(server.url('/app/a'), async (page, tools) => {
      const handle = await api.exposeWebMcpTools(page.client)
      await expect.poll(() => tools.names()).toEqual(SHOP)
      const reloaded = new Promise((resolve) => page.client.once('Page.loadEventFired', resolve))
      await page.client.send('Page.reload')
      await reloaded
      await expect.poll(() => tools.names()).toEqual(SHOP)
      await navigate(page.client, server.url('/own'))
      await expect.poll(() => tools.names()).toEqual(['shop__read'])
      expect(await evaluate(page.client, 'window.pageSaw')).toBe('InvalidStateError')
      expect(tools.tool('shop__read')!.description).toBe('The read tool of shop.')
      await handle.close()
    })
  })

  it('follows same-document moves: a tool leaves when the path leaves its urls and comes back with it', async () => {
    await withTab(server.url('/app/a'), async (page, tools) => {
      const handle = await api.exposeWebMcpTools(page.client)
      await expect.poll(() => tools.names()).toEqual(SHOP)
      await evaluate(page.client, 'history.pushState(null, "", "/checkout"), 1')
      await expect.poll(() => tools.names()).toEqual(['shop__read'])
      await evaluate(page.client, 'history.replaceState(null, "", "/admin/x"), 1')
      await expect.poll(() => tools.names()).toEqual(['admin__users', 'shop__read'])
      await evaluate(page.client, 'history.back(), 1')
      await expect.poll(() => tools.names()).toEqual(SHOP)
      await handle.close()
    })
  })

  it('close() unregisters from the page and stops registering in new documents', async () => {
    await withTab(server.url('/app/a'), async (page, tools) => {
      const handle = await api.exposeWebMcpTools(page.client)
      await expect.poll(() => tools.names()).toEqual(SHOP)
      await handle.close()
      await expect.poll(() => tools.names()).toEqual([])
      await navigate(page.client, server.url('/app/b'))
      expect(await evaluate(page.client, '(async () => (await document.modelContext.getTools()).length)()')).toBe(0)
    })
  })

  it('exposes only the skills asked for, and names an unknown one', async () => {
    await withTab(server.url('/admin/x'), async (page, tools) => {
      const handle = await api.exposeWebMcpTools(page.client, { skills: ['admin'] })
      await expect.poll(() => tools.names()).toEqual(['admin__users'])
      await handle.close()
      await failure(api.exposeWebMcpTools(page.client, { skills: ['nope'] }), 'skill-not-found')
    })
  })
})

describe('without WebMCP in the browser', () => {
  it('fails with webmcp-unavailable naming the flag, and later pages report it through onError', async () => {
    const plain = await launchBrowser()
    try {
      const page = await plain.newPage(server.url('/app/a'))
      const error = await failure(api.exposeWebMcpTools(page.client), 'webmcp-unavailable')
      expect(error.message).toContain('--enable-features=WebMCP')
      const blank = await plain.newPage('about:blank')
      const errors: SiteToolError[] = []
      const handle = await api.exposeWebMcpTools(blank.client, { onError: (e) => errors.push(e) })
      await navigate(blank.client, server.url('/app/a'))
      await vi.waitFor(() => expect(errors.map((e) => isSiteToolError(e) && e.code)).toEqual(['webmcp-unavailable']))
      expect(errors[0]!.message).toContain(server.url('/app/a'))
      await handle.close()
    } finally {
      await plain.close()
    }
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callBrowserTool } from '../../runtime/browser'
import type { CdpSendable } from '../../runtime/cdp'
import { type LaunchedBrowser, type LaunchedPage, launchBrowser } from '../../runtime/launch'
import { loadUrlPattern } from '../../runtime/urls'
import { type CompiledTool, compileTools, evaluate, failure, navigate } from '../helpers/browser'
import { startServer, type TestServer } from '../helpers/server'

// A tool scoped with `urls` in real Chromium, when the tab moves between the runtime's read of
// its URL and the call: the guard in the page must check host and path in the call itself.
const SITE = 'site'
const DOMAINS = ['127.0.0.1']
const URLS = [['/app/*']]

let browser: LaunchedBrowser
let server: TestServer
let tool: CompiledTool

beforeAll(async () => {
  await Promise.all([
    launchBrowser().then((b) => (browser = b)),
    loadUrlPattern(),
    startServer().then((s) => (server = s)),
    compileTools(
      SITE,
      { 'browser-tools/mark.js': 'async function () {\n  window.__ran = true\n  return location.pathname\n}\n' },
      {
        mark: { file: 'browser-tools/mark.js' },
      },
    ).then((t) => (tool = t.mark!)),
  ])
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

/** The same page on a host the skill does not own (localhost instead of 127.0.0.1). */
const foreign = (path: string) => server.url(path).replace('127.0.0.1', 'localhost')

/**
 * The page's session, through which the page moves to `to` right after the runtime has read its
 * URL (the answer of that read reaches the runtime once the page is there): a redirect in the
 * window between the check and the call, made certain.
 */
function movingAfterRead(page: LaunchedPage, to: string): CdpSendable {
  const { client } = page
  let moved = false
  return {
    send: async (method, params) => {
      const answer = await client.send(method, params)
      const read = method === 'Runtime.evaluate' && (params as { expression?: string }).expression === 'location.href'
      if (read && !moved) {
        moved = true
        await navigate(client, to)
      }
      return answer
    },
    on: (event, listener) => client.on(event, listener),
    off: (event, listener) => client.off(event, listener),
  }
}

async function onPage(url: string, test: (page: LaunchedPage) => Promise<void>): Promise<void> {
  const page = await browser.newPage(url)
  try {
    await test(page)
  } finally {
    await page.close()
  }
}

const call = (session: CdpSendable) =>
  callBrowserTool(session, { siteId: SITE, tool: 'mark', ...tool, args: {}, domains: DOMAINS, urls: URLS })

describe('a tool scoped with urls, when the tab moves between the check and the call', () => {
  it('never runs on a path outside its patterns after the tab came from another host', async () => {
    await onPage(foreign('/elsewhere'), async (page) => {
      const error = await failure(call(movingAfterRead(page, server.url('/admin'))), 'domain-mismatch')
      expect(error.message).toContain(foreign('/elsewhere'))
      expect(await evaluate(page.client, 'location.pathname')).toBe('/admin')
      expect(await evaluate(page.client, 'window.__ran')).toBeUndefined()
    })
  })

  it('refuses when the path it checked on another host is not the path the tool would run on', async () => {
    await onPage(foreign('/app/home'), async (page) => {
      const error = await failure(call(movingAfterRead(page, server.url('/admin'))), 'url-mismatch')
      expect(error.message).toContain(server.url('/admin'))
      expect(await evaluate(page.client, 'window.__ran')).toBeUndefined()
    })
  })

  it('runs when the tab came to the checked path on an owned host', async () => {
    await onPage(foreign('/app/home'), async (page) => {
      expect(await call(movingAfterRead(page, server.url('/app/home')))).toBe('/app/home')
    })
  })

  it('refuses the move from an owned path to another path of the same host', async () => {
    await onPage(server.url('/app/home'), async (page) => {
      await failure(call(movingAfterRead(page, server.url('/admin'))), 'url-mismatch')
      expect(await evaluate(page.client, 'window.__ran')).toBeUndefined()
    })
  })
})

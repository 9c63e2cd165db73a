import { describe, expect, it, vi } from 'vitest'
import { type BrowserCall, type BrowserTarget, callBrowserTool } from '../../runtime/browser'
import { command } from '../../runtime/cdp'
import type { LaunchedPage } from '../../runtime/launch'
import { evaluate, waitForTitle } from '../helpers/browser'
import { usePageToolWorld } from '../helpers/page-tools'
import { failure } from '../helpers/browser'

const SITE = 'site'
const OWN = ['127.0.0.1']

const FILES: Record<string, string> = {
  'browser-tools/title.js': 'async function () {\n  return document.title\n}\n',
  'browser-tools/dialogs.js': [
    'async function () {',
    '  window.__alert = alert("one")',
    '  window.__confirm = confirm("two")',
    '  await new Promise((resolve) => setTimeout(resolve, 50))',
    '  window.__prompt = prompt("three")',
    '  window.__dialogsDone = true',
    '  return "done"',
    '}',
    '',
  ].join('\n'),
  'browser-tools/work.js': [
    'async function ({ ms }) {',
    '  const end = Date.now() + ms',
    '  while (Date.now() < end) {}',
    '  window.__worked = true',
    '  return "worked"',
    '}',
    '',
  ].join('\n'),
  'browser-tools/hang.js': 'async function () {\n  window.__hanging = true\n  await new Promise(() => {})\n}\n',
}
const TOOLS = {
  title: { file: 'browser-tools/title.js' },
  dialogs: { file: 'browser-tools/dialogs.js' },
  work: { file: 'browser-tools/work.js' },
  hang: { file: 'browser-tools/hang.js' },
}
type ToolName = keyof typeof TOOLS

/** What the owned page posted to `/token` (the secret of its call), for the foreign page to read. */
let leaked = ''

const world = usePageToolWorld(SITE, FILES, TOOLS, {
  // foreign.test is another site on the same server: another renderer, a page no skill here owns.
  launch: { args: ['--host-resolver-rules=MAP *.test 127.0.0.1'] },
  routes: {
    '/token': (req, res) => {
      const value = new URL(req.url ?? '/', 'http://x').searchParams.get('value')
      if (value !== null) leaked = value
      res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' })
      res.end(leaked)
    },
  },
})

function call(target: BrowserTarget, tool: ToolName, args = {}, extra: Partial<BrowserCall> = {}) {
  const { code, file } = world.tools[tool]!
  return callBrowserTool(target, { siteId: SITE, tool, code, file, args, domains: OWN, ...extra })
}

async function withPage(url: string, test: (page: LaunchedPage) => Promise<void>): Promise<void> {
  const page = await world.browser.newPage(url)
  try {
    await test(page)
  } finally {
    await page.close()
  }
}

/** Resolves once `expression` is true in the page; fails after 10 s (also when the page stays blocked). */
async function until(page: LaunchedPage, expression: string): Promise<void> {
  // vi.waitFor fails at its timeout even while an evaluation is still pending in a blocked page.
  const holds = async () => expect(await evaluate(page.client, expression), expression).toBe(true)
  await vi.waitFor(holds, { timeout: 10_000, interval: 20 })
}

const address = (page: LaunchedPage) => ({ host: world.browser.host, port: world.browser.port, target: page.targetId })

describe('dialogs are dismissed until the tool is done with the page (issue 24.5)', () => {
  it('alert, then confirm and prompt: the call fails at the first, the others are dismissed too', async () => {
    await withPage(world.server.url('/dialogs'), async (page) => {
      const error = await failure(call(page.client, 'dialogs', {}, { timeoutMs: 10_000 }), 'dialog-blocking')
      expect(error.message).toContain('"one"')
      // The page is free again: confirm and prompt were dismissed, and the tool ran to its end.
      expect(await call(page.client, 'title', {}, { timeoutMs: 10_000 })).toBe('/dialogs')
      await until(page, 'window.__dialogsDone === true')
      expect(await evaluate(page.client, '[window.__confirm, window.__prompt]')).toEqual([false, null])
    })
  })

  it('also over a connection of its own, which stays open until the tool is done', async () => {
    await withPage(world.server.url('/dialogs-own'), async (page) => {
      await failure(call(address(page), 'dialogs', {}, { timeoutMs: 10_000 }), 'dialog-blocking')
      // Nothing of this test's own connection is watching: the runtime's connection dismissed them.
      await until(page, 'window.__dialogsDone === true')
      expect(await evaluate(page.client, '[window.__confirm, window.__prompt]')).toEqual([false, null])
      expect(await call(page.client, 'title', {}, { timeoutMs: 10_000 })).toBe('/dialogs-own')
    })
  })
})

describe("another tab cannot speak for the runtime's calls (issue 24.15)", () => {
  it('a foreign page that sends "synchronous part done" for every run does not keep a busy tool alive', async () => {
    const port = new URL(world.server.origin).port
    await withPage(`http://foreign.test:${port}/foreign`, async (foreign) => {
      await withPage(world.server.url('/owned'), async (owned) => {
        // The foreign page met the runtime once (refused there), so the binding is on its window.
        await failure(call(foreign.client, 'title'), 'domain-mismatch')
        const names = 'Object.keys(window).filter((k) => k.startsWith("__siteSkills"))'
        expect(await evaluate(foreign.client, `${names}.length`)).toBe(1)
        // A first call, so the next one starts at once (its page's handle and binding are ready).
        expect(await call(owned.client, 'title')).toBe('/owned')
        // Until stopped, it signals "y" for every run it can guess, every 20 ms.
        const forge = `(() => { const send = window[${names}[0]]; let last = 0
          for (;;) if (Date.now() - last > 20) { last = Date.now()
            for (let i = 1; i <= 100; i++) { send('y' + i); send('ysite-skills-' + i) } } })()`
        command(foreign.client, 'Runtime.evaluate', { expression: forge }).catch(() => undefined)
        try {
          await failure(call(owned.client, 'work', { ms: 8000 }, { timeoutMs: 1000 }), 'timeout')
          // Terminated at its timeout: the loop never finished.
          expect(await evaluate(owned.client, 'window.__worked')).toBeUndefined()
        } finally {
          await command(foreign.client, 'Runtime.terminateExecution')
        }
      })
    })
  })
})

describe('a signal counts only from the tab of its own call (issue 35.7)', () => {
  it("a foreign page that holds the call's own secret cannot keep a busy tool alive", async () => {
    const port = new URL(world.server.origin).port
    await withPage(`http://foreign.test:${port}/foreign-token`, async (foreign) => {
      await withPage(world.server.url('/owned-token'), async (owned) => {
        await failure(call(foreign.client, 'title'), 'domain-mismatch')
        expect(await call(owned.client, 'title')).toBe('/owned-token')
        // The strongest foreign page: the owned page hands it each call's secret (a synchronous
        // request before the runtime's own signal), and it sends "synchronous part over" with it.
        const name = 'Object.keys(window).find((k) => k.startsWith("__siteSkills"))'
        await evaluate(
          owned.client,
          `(() => { const name = ${name}, real = window[name]; window[name] = (payload) => {
            const xhr = new XMLHttpRequest(); xhr.open('GET', '/token?value=' + payload.slice(1), false); xhr.send()
            real(payload) } })()`,
        )
        await evaluate(
          foreign.client,
          `(() => { const send = window[${name}]; setInterval(async () => {
            const token = await (await fetch(${JSON.stringify(world.server.url('/token'))})).text()
            if (token) for (let i = 0; i < 20; i++) send('y' + token) }, 2) })()`,
        )
        leaked = ''
        await failure(call(owned.client, 'work', { ms: 8000 }, { timeoutMs: 1000 }), 'timeout')
        expect(leaked, 'the secret the foreign page had').not.toBe('')
        // Terminated at its timeout: the loop never finished.
        expect(await evaluate(owned.client, 'window.__worked')).toBeUndefined()
      })
    })
  })
})

describe("the page's renderer crashing (issue 24.16)", () => {
  it('fails the call at once with page-crashed, then every call until the tab is reloaded', async () => {
    await withPage(world.server.url('/crash'), async (page) => {
      const during = failure(call(page.client, 'hang', {}, { timeoutMs: 30_000 }), 'page-crashed')
      await until(page, 'window.__hanging === true')
      command(page.client, 'Page.crash').catch(() => undefined)
      expect((await during).message).toBe('site -> hang: the page crashed during the call (site/browser-tools/hang.js)')
      // The same session knows; a new connection hears of it when it attaches.
      const again = await failure(call(page.client, 'title', {}, { timeoutMs: 30_000 }), 'page-crashed')
      expect(again.message).toContain('the page crashed before the call (reload it)')
      await failure(call(address(page), 'title', {}, { timeoutMs: 30_000 }), 'page-crashed')
      // Reloaded, the tab works again.
      await command(page.client, 'Page.reload')
      await waitForTitle(page.client, '/crash')
      expect(await call(page.client, 'title', {}, { timeoutMs: 10_000 })).toBe('/crash')
    })
  })
})

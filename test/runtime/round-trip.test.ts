import { describe, expect, it } from 'vitest'
import { type BrowserCall, callBrowserTool } from '../../runtime/browser'
import type { CdpSendable } from '../../runtime/cdp'
import type { LaunchedPage } from '../../runtime/launch'
import { evaluate, navigate } from '../helpers/browser'
import { failure } from '../helpers/browser'
import { PAGE_TOOL_SOURCES, usePageToolWorld } from '../helpers/page-tools'

const SITE = 'site'
const DOMAINS = ['127.0.0.1']

const FILES: Record<string, string> = {
  ...PAGE_TOOL_SOURCES,
  'browser-tools/echo.js': 'async function (args) {\n  return { args, title: document.title }\n}\n',
  'browser-tools/later.js': 'async function () {\n  await new Promise((r) => setTimeout(r, 5))\n  return "later"\n}\n',
  'browser-tools/activation.js': 'async function () {\n  return navigator.userActivation.isActive\n}\n',
  'browser-tools/popup.js': [
    'async function () {',
    "  const popup = window.open('about:blank')",
    '  popup?.close()',
    '  return { opened: Boolean(popup), active: navigator.userActivation.isActive }',
    '}',
    '',
  ].join('\n'),
}
const TOOLS = {
  echo: { file: 'browser-tools/echo.js' },
  busy: { file: 'browser-tools/busy.js' },
  throws: { file: 'browser-tools/throws.js' },
  throwsInline: { file: 'browser-tools/throws-inline.js' },
  later: { file: 'browser-tools/later.js' },
  activation: { file: 'browser-tools/activation.js' },
  popup: { file: 'browser-tools/popup.js' },
}
type ToolName = keyof typeof TOOLS

const world = usePageToolWorld(SITE, FILES, TOOLS)

interface Sent {
  method: string
  params?: { functionDeclaration?: string; userGesture?: boolean }
}

/**
 * The page's client, through a session that records every command the runtime sends and the
 * names of the events the runtime hears (each once per event, whatever the listeners).
 */
function recording(page: LaunchedPage): { session: CdpSendable; sent: Sent[]; heard: string[] } {
  const sent: Sent[] = []
  const heard: string[] = []
  const { client } = page
  // chrome-remote-interface emits every event once as 'event', with its method.
  client.on('event', (message) => heard.push((message as { method: string }).method))
  const session: CdpSendable = {
    send: (method, params) => {
      sent.push({ method, params: params as Sent['params'] })
      return client.send(method, params)
    },
    on: (event, listener) => client.on(event, listener),
    off: (event, listener) => client.off(event, listener),
  }
  return { session, sent, heard }
}

function call(
  session: CdpSendable,
  tool: ToolName,
  args: Record<string, unknown> = {},
  extra: Partial<BrowserCall> = {},
): Promise<unknown> {
  const { code, file } = world.tools[tool]!
  return callBrowserTool(session, { siteId: SITE, tool, code, file, args, domains: DOMAINS, ...extra })
}

async function withPage(path: string, test: (page: LaunchedPage) => Promise<void>): Promise<void> {
  const own = await world.browser.newPage(world.server.url(path))
  try {
    await test(own)
  } finally {
    await own.close()
  }
}

/** Calls `tool` `n` times one after the other and returns what those calls sent. */
async function commandsOf(sent: Sent[], n: number, once: () => Promise<unknown>): Promise<Sent[]> {
  const from = sent.length
  for (let i = 0; i < n; i++) await once()
  return sent.slice(from)
}

/** What a steady-state call sends: one callFunctionOn of the short declaration, not the tool's source. */
function expectSteady(commands: Sent[], n: number, tool: ToolName) {
  expect(commands.map((c) => c.method)).toEqual(Array(n).fill('Runtime.callFunctionOn'))
  for (const c of commands) expect(c.params?.functionDeclaration).not.toContain(world.tools[tool]!.code.source)
}

describe('a browser tool call in the steady state is one CDP command', () => {
  it('sends one Runtime.callFunctionOn per call once the tool is cached in the page, in either world', async () => {
    await withPage('/steady', async (page) => {
      const { session, sent } = recording(page)
      for (const isolatedWorld of [false, true]) {
        // The first calls of a world set it up and make the cached function.
        await commandsOf(sent, 2, () => call(session, 'echo', { n: 0 }, { isolatedWorld }))
        const commands = await commandsOf(sent, 5, async () =>
          expect(await call(session, 'echo', { n: 1 }, { isolatedWorld })).toEqual({
            args: { n: 1 },
            title: '/steady',
          }),
        )
        expectSteady(commands, 5, 'echo')
      }
    })
  })

  it('still refuses a foreign page after a navigation, then runs again in one command per call', async () => {
    await withPage('/home', async (page) => {
      const { session, sent } = recording(page)
      await commandsOf(sent, 3, () => call(session, 'echo'))
      const foreign = world.server.url('/foreign').replace('127.0.0.1', 'localhost')
      await navigate(page.client, foreign)
      const error = await failure(call(session, 'echo'), 'domain-mismatch')
      expect(error.message).toContain(foreign)
      // Again on a foreign page, now that the new document's function is cached.
      await failure(call(session, 'echo'), 'domain-mismatch')
      await failure(call(session, 'echo'), 'domain-mismatch')
      await navigate(page.client, world.server.url('/back'))
      await commandsOf(sent, 2, () => call(session, 'echo'))
      const commands = await commandsOf(sent, 3, async () =>
        expect(await call(session, 'echo')).toMatchObject({ title: '/back' }),
      )
      expectSteady(commands, 3, 'echo')
    })
  })

  it('refuses a foreign page reached without a new document (same host, the guard reads location each call)', async () => {
    await withPage('/spa', async (page) => {
      const { session, sent } = recording(page)
      await commandsOf(sent, 3, () => call(session, 'echo'))
      await evaluate(page.client, 'history.pushState(null, "", "/other-path")')
      expect(await call(session, 'echo')).toMatchObject({ title: '/spa' })
      await failure(call(session, 'echo', {}, { domains: ['example.com'] }), 'domain-mismatch')
    })
  })

  it('times out and terminates a busy tool called through its cached function; the page lives on', async () => {
    await withPage('/busy', async (page) => {
      const { session, sent } = recording(page)
      await failure(call(session, 'busy', {}, { timeoutMs: 300 }), 'timeout')
      await commandsOf(sent, 2, () => call(session, 'echo'))
      for (let i = 0; i < 2; i++) {
        const from = sent.length
        const error = await failure(call(session, 'busy', {}, { timeoutMs: 300 }), 'timeout')
        expect(error.message).toContain('300 ms')
        // (An exception's remote objects are released afterwards: not part of the call.)
        const methods = sent.slice(from).map((c) => c.method)
        expect(methods.filter((m) => m !== 'Runtime.releaseObjectGroup')).toEqual([
          'Runtime.callFunctionOn',
          'Runtime.terminateExecution',
        ])
        expect(sent[from]!.params?.functionDeclaration).not.toContain(world.tools.busy!.code.source)
        expect(await evaluate(page.client, 'document.title')).toBe('/busy')
      }
    })
  })

  it('maps a throw through the cached function to the same file, line and column as the first call', async () => {
    await withPage('/throws', async (page) => {
      const { session, sent } = recording(page)
      const inline = FILES['browser-tools/throws-inline.js']!.indexOf('new RangeError') + 1
      const cases = [
        { tool: 'throws', args: { n: 5 }, at: { file: 'site/browser-tools/throws.js', line: 5, column: 11 } },
        {
          tool: 'throwsInline',
          args: { n: 2 },
          at: { file: 'site/browser-tools/throws-inline.js', line: 1, column: inline },
        },
      ] as const
      for (const { tool, args, at } of cases) {
        const errors = []
        for (let i = 0; i < 4; i++) errors.push(await failure(call(session, tool, args), 'tool-threw'))
        const calls = sent.filter((c) => c.method === 'Runtime.callFunctionOn')
        expect(calls.at(-1)!.params?.functionDeclaration).not.toContain(world.tools[tool]!.code.source)
        for (const error of errors) {
          expect(error).toMatchObject(at)
          expect(error.message).toContain(`${at.file}:${at.line}:${at.column}`)
        }
      }
    })
  })

  it('hears one event per call from a tool that settles at once, two from one that awaits a timer', async () => {
    await withPage('/events', async (page) => {
      const { session, heard } = recording(page)
      await commandsOf([], 2, () => call(session, 'echo'))
      await commandsOf([], 2, () => call(session, 'later'))
      const from = heard.length
      for (let i = 0; i < 5; i++) expect(await call(session, 'echo')).toMatchObject({ title: '/events' })
      // The tool started (for the timeout); its answer follows in the same task of the page.
      expect(heard.slice(from)).toEqual(Array(5).fill('Runtime.bindingCalled'))
      const later = heard.length
      for (let i = 0; i < 3; i++) expect(await call(session, 'later')).toBe('later')
      // Started, then its synchronous part over while it waits: a timeout now leaves the page alone.
      expect(heard.slice(later)).toEqual(Array(6).fill('Runtime.bindingCalled'))
    })
  })
})

describe('a user gesture comes with the calls that need one', () => {
  it('every call starts with transient activation; steady calls in a row carry no gesture of their own', async () => {
    await withPage('/gesture', async (page) => {
      const { session, sent } = recording(page)
      expect(await evaluate(page.client, 'navigator.userActivation.isActive')).toBe(false)
      const first = await commandsOf(sent, 1, async () => expect(await call(session, 'activation')).toBe(true))
      expect(first.find((c) => c.method === 'Runtime.callFunctionOn')?.params?.userGesture).toBe(true)
      await commandsOf(sent, 1, () => call(session, 'activation'))
      const commands = await commandsOf(sent, 5, async () => expect(await call(session, 'activation')).toBe(true))
      expectSteady(commands, 5, 'activation')
      // At most one of them renews the gesture (once a second); the others rely on the page's activation.
      expect(commands.filter((c) => c.params?.userGesture).length).toBeLessThanOrEqual(1)
    })
  })

  it('a tool that used up the activation (a popup) leaves the next call its own gesture', async () => {
    await withPage('/popup', async (page) => {
      const { session, sent } = recording(page)
      await commandsOf(sent, 2, () => call(session, 'activation'))
      const gestures: boolean[][] = []
      for (let i = 0; i < 3; i++) {
        expect(await call(session, 'popup')).toEqual({ opened: true, active: false })
        const from = sent.length
        expect(await call(session, 'activation')).toBe(true)
        const calls = sent.slice(from).filter((c) => c.method === 'Runtime.callFunctionOn')
        gestures.push(calls.map((c) => Boolean(c.params?.userGesture)))
      }
      // Within a second of the last gesture the guard refuses for want of activation (nothing ran),
      // and the call goes again with one; a call after that second carries one at once.
      for (const g of gestures) expect([[false, true], [true]]).toContainEqual(g)
      expect(gestures).toContainEqual([false, true])
    })
  })
})

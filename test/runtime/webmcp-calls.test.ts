import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { compactText } from '../../runtime/compact'
import type { SiteToolError } from '../../runtime/errors'
import type { LaunchedBrowser, LaunchedPage } from '../../runtime/launch'
import type { SiteSkills } from '../../runtime/registry'
import { pageResult } from '../../runtime/pages'
import { loadUrlPattern } from '../../runtime/urls'
import { evaluate } from '../helpers/browser'
import { decodeCompact } from '../helpers/compact-decode'
import { startServer, type TestServer } from '../helpers/server'
import { errorTextOf, launchWithWebMcp, type PageTools, testRegistry, watchPageTools } from '../helpers/webmcp'

// Calls of the tools exposeWebMcpTools registers, in real Chromium 150 with WebMCP: what they
// return (the compact text and pages a runBrowserTool result has over MCP), and the checks
// runBrowserTool makes (arguments, guard, timeout, results), also on a page that tampers with
// everything it can reach.
let browser: LaunchedBrowser
let server: TestServer
let api: SiteSkills

const ECHO =
  'async function (args) {\n  return { text: args.text, title: document.title, list: [1, 2].map((n) => n * 2) }\n}\n'
const TEXT = { type: 'string' as const, required: true, description: 'Some text.' }
const COUNT = { type: 'integer' as const, required: true, description: 'How many rows.' }
const ROWS =
  'function (args) {\n  return { rows: Array.from({ length: args.n }, (_, i) => ({ id: i, name: "row " + i })) }\n}\n'

/** A page that replaces what a page can replace, before anything of ours runs in it. */
const HOSTILE = `<!doctype html><title>hostile</title><script>
const mc = document.modelContext
const then = Promise.prototype.then
const execute = mc.executeTool.bind(mc)
const getTools = mc.getTools.bind(mc)
window.callEcho = () => then.call(getTools(), (all) => {
  const echo = all.filter((t) => t.name === 'shop__echo')[0]
  then.call(execute(echo, '{"text":"x"}'), (text) => { window.got = text })
})
const proto = Object.getPrototypeOf(mc)
proto.registerTool = function () { window.stolen = arguments[0]; throw new Error('no') }
Object.defineProperty(document, 'modelContext', { get: () => ({ registerTool() {} }) })
JSON.stringify = () => '"forged"'
JSON.parse = () => ({ forged: true })
Array.prototype.map = function () { return ['forged'] }
Array.prototype.some = () => true
Promise.prototype.then = function () { return 'forged' }
Object.freeze = (o) => o
window.URLPattern = function () { return { test: () => true } }
Object.defineProperty(Object.prototype, 'execute', { set(v) { window.stolenExecute = v }, configurable: true })
navigation.addEventListener('currententrychange', (e) => e.stopImmediatePropagation(), true)
</script>`

beforeAll(async () => {
  await loadUrlPattern()
  ;[browser, server, api] = await Promise.all([
    launchWithWebMcp(),
    startServer({ '/app/hostile': HOSTILE }),
    testRegistry(
      [
        {
          id: 'shop',
          domains: ['127.0.0.1'],
          tools: {
            echo: { source: ECHO, args: { text: TEXT } },
            scoped: { source: 'function () {\n  return location.pathname\n}\n', urls: ['/app/*'] },
            slow: { source: 'async function () {\n  await new Promise(() => {})\n}\n', timeoutMs: 300 },
            spin: { source: 'function () {\n  for (;;) {}\n}\n', timeoutMs: 500 },
            forge: {
              source:
                'function () {\n  for (const key of Object.keys(globalThis)) if (key.startsWith("__siteSkillsWebMcp") && typeof globalThis[key] === "function")\n    for (const signal of ["c{not json", "c[1]", "s1.forever", "u"]) globalThis[key](signal)\n  return { forged: true }\n}\n',
            },
            quick: { source: 'function () {\n  return { n: 1 }\n}\n', timeoutMs: 200 },
            throws: { source: 'function () {\n  throw new Error("boom")\n}\n' },
            late: {
              source:
                'async function () {\n  await null\n  const fail = () => {\n    throw new TypeError("no")\n  }\n  return fail()\n}\n',
            },
            wrong: {
              source: 'function () {\n  return { n: "x" }\n}\n',
              returns: { type: 'object', description: 'N.', properties: { n: { type: 'number', required: true } } },
            },
            rows: { source: ROWS, args: { n: COUNT }, resultBudget: 300 },
            long: { source: 'function () {\n  return { body: "word ".repeat(2000) }\n}\n', resultBudget: 300 },
            own: {
              source: ROWS,
              args: { n: COUNT, cursor: { type: 'string', description: 'Its own.' } },
              resultBudget: 300,
            },
          },
        },
      ],
      { validateReturns: 'throw' },
    ),
  ])
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

async function exposed(url: string, test: (page: LaunchedPage, tools: PageTools) => Promise<void>): Promise<void> {
  const page = await browser.newPage(url)
  const tools = await watchPageTools(page.client)
  const handle = await api.exposeWebMcpTools(page.client)
  try {
    await expect.poll(() => tools.names()).toContain('shop__echo')
    await test(page, tools)
  } finally {
    await handle.close()
    tools.stop()
    await page.close()
  }
}

/** The value a call's compact text says. */
const said = (event: { output?: unknown }) => decodeCompact(event.output as string)

const pageCall = (name: string, input: string) =>
  `(async () => { const t = (await document.modelContext.getTools()).find((t) => t.name === ${JSON.stringify(name)}); return document.modelContext.executeTool(t, ${JSON.stringify(input)}) })()`

describe('a call of a registered tool', () => {
  it("returns runBrowserTool's result as compact text, to CDP (WebMCP.invokeTool) and to the page (executeTool)", async () => {
    await exposed(server.url('/app/a'), async (page, tools) => {
      const direct = await api.runBrowserTool('shop', 'echo', { text: 'hi' }, page.client)
      expect(direct).toEqual({ text: 'hi', title: '/app/a', list: [2, 4] })
      const called = await tools.invoke('shop__echo', { text: 'hi' })
      expect(called.status).toBe('Completed')
      expect(called.output).toBe('text:hi\ntitle:/app/a\nlist[2]:2,4')
      expect(called.output).toBe(compactText(direct))
      expect(said(called)).toEqual(direct)
      expect(await evaluate(page.client, pageCall('shop__echo', '{"text":"hi"}'))).toBe(compactText(direct))
    })
  })

  it('checks the arguments against the manifest first', async () => {
    await exposed(server.url('/app/a'), async (_page, tools) => {
      expect(errorTextOf(await tools.invoke('shop__echo', {}))).toBe(
        'invalid-args: shop -> echo: missing required argument "text"',
      )
      expect(errorTextOf(await tools.invoke('shop__echo', { text: 1 }))).toBe(
        'invalid-args: shop -> echo: argument "text" must be a string (got number)',
      )
      expect(errorTextOf(await tools.invoke('shop__echo', { text: 'a', more: 1 }))).toBe(
        'invalid-args: shop -> echo: unknown argument "more"',
      )
    })
  })

  it("survives a tool that sends Node signals of its own through the world's binding", async () => {
    await exposed(server.url('/app/a'), async (_page, tools) => {
      expect(said(await tools.invoke('shop__forge', {}))).toEqual({ forged: true })
      expect(said(await tools.invoke('shop__echo', { text: 'still' }))).toMatchObject({ text: 'still' })
    })
  })

  it("reports the tool's throw at its file and line as runBrowserTool does, and a result that breaks its returns", async () => {
    await exposed(server.url('/app/a'), async (page, tools) => {
      expect(errorTextOf(await tools.invoke('shop__throws', {}))).toBe(
        'tool-threw: shop -> throws: threw Error: boom (shop/browser-tools/throws.js:2:9)',
      )
      const direct = await api.runBrowserTool('shop', 'late', {}, page.client).catch((e: Error) => e.message)
      expect(direct).toBe('shop -> late: threw TypeError: no (shop/browser-tools/late.js:4:11)')
      expect(errorTextOf(await tools.invoke('shop__late', {}))).toBe(`tool-threw: ${direct}`)
      expect(errorTextOf(await tools.invoke('shop__wrong', {}))).toMatch(
        /^invalid-result: shop -> wrong: result does not match the manifest's returns: result\.n must be a number \(got "x"\)/,
      )
    })
  })
})

describe("a result over the tool's resultBudget", () => {
  it('is the page site-skills mcp sends, with a cursor the next call takes, good for runBrowserTool too', async () => {
    await exposed(server.url('/app/a'), async (page, tools) => {
      const whole = await api.runBrowserTool('shop', 'rows', { n: 200 }, page.client)
      const first = await tools.invoke('shop__rows', { n: 200 })
      // The page the MCP server makes of the same result, in Node, is the same text.
      const expected = pageResult(whole, { siteId: 'shop', tool: 'rows', args: { n: 200 }, budget: 300 })
      expect(expected.paged).toBe(true)
      expect(first.output).toBe(compactText(expected.value))
      const page1 = said(first) as { pageInfo: { total: number; count: number; cursor: string }; rows: unknown[] }
      expect(page1.pageInfo).toMatchObject({ field: 'rows', total: 200, offset: 0 })
      expect(page1.rows).toHaveLength(page1.pageInfo.count)
      const second = await tools.invoke('shop__rows', { n: 200, cursor: page1.pageInfo.cursor })
      const page2 = said(second) as { pageInfo: { offset: number }; rows: { id: number }[] }
      expect(page2.pageInfo.offset).toBe(page1.pageInfo.count)
      expect(page2.rows[0]!.id).toBe(page1.pageInfo.count)
      const direct = await api.runBrowserTool('shop', 'rows', { n: 200, cursor: page1.pageInfo.cursor }, page.client)
      expect(second.output).toBe(compactText(direct))
    })
  })

  it('has its long string cut with a marker that names the cursor of the rest', async () => {
    await exposed(server.url('/app/a'), async (_page, tools) => {
      const first = (await tools.invoke('shop__long', {})).output as string
      expect(first).toMatch(/…\[cut at \d+ of 10000 characters; the rest: cursor [\w-]+\]/)
      const cursor = /cursor ([\w-]+)\]/.exec(first)![1]!
      const rest = said(await tools.invoke('shop__long', { cursor })) as { body: string }
      const at = /cut at (\d+) of/.exec(first)![1]
      expect(rest.body.startsWith(`[…from character ${at}] `)).toBe(true)
    })
  })

  it("refuses a cursor that is not the call's, and leaves a tool's own cursor to the tool", async () => {
    await exposed(server.url('/app/a'), async (_page, tools) => {
      expect(errorTextOf(await tools.invoke('shop__rows', { n: 200, cursor: 'nope!' }))).toMatch(
        /^invalid-cursor: shop -> rows: argument "cursor" is not a cursor this tool gave/,
      )
      const first = said(await tools.invoke('shop__rows', { n: 200 })) as { pageInfo: { cursor: string } }
      expect(errorTextOf(await tools.invoke('shop__rows', { n: 201, cursor: first.pageInfo.cursor }))).toMatch(
        /^invalid-cursor: shop -> rows: argument "cursor" belongs to another call/,
      )
      expect(errorTextOf(await tools.invoke('shop__rows', { n: 200, cursor: 7 }))).toMatch(/^invalid-cursor: /)
      // A tool that declares `cursor` gets it, and its result is not paged.
      const own = said(await tools.invoke('shop__own', { n: 200, cursor: 'mine' })) as { rows: unknown[] }
      expect(own.rows).toHaveLength(200)
    })
  })
})

describe('the timeout of a call', () => {
  it('fails a call that never settles with timeout, and the page goes on', async () => {
    await exposed(server.url('/app/a'), async (_page, tools) => {
      expect(errorTextOf(await tools.invoke('shop__slow', {}))).toBe(
        'timeout: shop -> slow: did not finish within 300 ms (shop/browser-tools/slow.js)',
      )
      expect(said(await tools.invoke('shop__echo', { text: 'after' }))).toMatchObject({ text: 'after' })
    })
  })

  it('terminates a tool whose synchronous part outlives its timeout, and only that', async () => {
    await exposed(server.url('/app/a'), async (page, tools) => {
      const stopped = await tools.invoke('shop__spin', {})
      expect(stopped.status).toBe('Error')
      expect(await evaluate(page.client, '1 + 1')).toBe(2)
      // A call that ended leaves no deadline behind: the page's own long task after it runs to its end.
      expect(said(await tools.invoke('shop__quick', {}))).toEqual({ n: 1 })
      const busy = '(() => { const end = Date.now() + 600; while (Date.now() < end); return "ran to its end" })()'
      expect(await evaluate(page.client, busy)).toBe('ran to its end')
    })
  })
})

describe('a page that tampers with everything it can reach', () => {
  it('cannot change the code or the results of the tools, nor stop them being registered', async () => {
    await exposed(server.url('/app/hostile'), async (page, tools) => {
      expect(tools.names()).toEqual([
        'shop__echo',
        'shop__forge',
        'shop__late',
        'shop__long',
        'shop__own',
        'shop__quick',
        'shop__rows',
        'shop__scoped',
        'shop__slow',
        'shop__spin',
        'shop__throws',
        'shop__wrong',
      ])
      const expected = { text: 'x', title: 'hostile', list: [2, 4] }
      expect(said(await tools.invoke('shop__echo', { text: 'x' }))).toEqual(expected)
      expect(await evaluate(page.client, 'typeof window.stolen + typeof window.stolenExecute')).toBe(
        'undefinedundefined',
      )
      // The page's own JSON and Promise are replaced: it gets our text as it was made.
      await evaluate(page.client, 'callEcho(), 1')
      await expect.poll(() => evaluate(page.client, 'window.got')).toBe(compactText(expected))
    })
  })

  it("moves out of a tool's urls unseen: the guard refuses the call, host and path in the same step", async () => {
    await exposed(server.url('/app/hostile'), async (page, tools) => {
      await evaluate(page.client, 'history.pushState(null, "", "/elsewhere"), 1')
      // The page stopped the event the tools follow the URL by: the registration is stale.
      expect(tools.names()).toContain('shop__scoped')
      const refused = errorTextOf(await tools.invoke('shop__scoped', {}))
      expect(refused).toMatch(/^url-mismatch: shop -> scoped: refused to run on http:\/\/127\.0\.0\.1:\d+\/elsewhere:/)
    })
  })

  it('holds a name first in the current page: the conflict goes to onError', async () => {
    const page = await browser.newPage(server.url('/app/a'))
    try {
      await evaluate(
        page.client,
        'document.modelContext.registerTool({ name: "shop__echo", description: "page", execute: () => "page" }), 1',
      )
      const errors: SiteToolError[] = []
      const handle = await api.exposeWebMcpTools(page.client, { onError: (e) => errors.push(e) })
      await vi.waitFor(() => expect(errors.map((e) => e.code)).toEqual(['webmcp-conflict']))
      expect(errors[0]!.message).toContain('"shop__echo"')
      await handle.close()
    } finally {
      await page.close()
    }
  })
})

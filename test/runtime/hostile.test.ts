import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { type BrowserCall, type BrowserTarget, callBrowserTool } from '../../runtime/browser'
import { SiteToolError } from '../../runtime/errors'
import type { LaunchedPage } from '../../runtime/launch'
import { createDomainTableData } from '../../runtime/match'
import { callNodeTool } from '../../runtime/node'
import { createSiteSkills } from '../../runtime/registry'
import type { SkillMeta } from '../../runtime/skill-data'
import { evaluate, navigate, waitForTitle } from '../helpers/browser'
import { REPO_ROOT } from '../helpers/tmp'
import { failure } from '../helpers/browser'
import { PAGE_TOOL_SOURCES, usePageToolWorld } from '../helpers/page-tools'
import { runBin, runNode } from '../helpers/spawn'

const SITE = 'site'
const OWN = ['127.0.0.1']

const FILES: Record<string, string> = {
  ...PAGE_TOOL_SOURCES,
  'browser-tools/mark.js': [
    'async function () {',
    '  window.__ran = (window.__ran || 0) + 1',
    '  return location.protocol',
    '}',
    '',
  ].join('\n'),
  'browser-tools/work.js': [
    'async function ({ ms }) {',
    '  const end = Date.now() + ms',
    '  while (Date.now() < end) {}',
    '  return "worked " + ms',
    '}',
    '',
  ].join('\n'),
}
const TOOLS = {
  mark: { file: 'browser-tools/mark.js' },
  title: { file: 'browser-tools/title.js' },
  echo: { file: 'browser-tools/echo.js' },
  work: { file: 'browser-tools/work.js' },
}
type ToolName = keyof typeof TOOLS

/** A page that moves to a blob: document of its own whose script replaces one String method. */
const BLOB_PAGE = `<!doctype html><title>loader</title><script>
const method = new URLSearchParams(location.search).get('m')
const fakes = {
  replace: 'function () { return "example.com" }',
  slice: 'function (a, b) { return b === undefined ? "example.com" : "http:" }',
  indexOf: 'function () { return -1 }',
}
const script = 'String.prototype.' + method + ' = ' + fakes[method]
const html = '<title>blob ' + method + '</title><script>' + script + '<' + '/script>'
location.href = URL.createObjectURL(new Blob([html], { type: 'text/html' }))
</script>`

const world = usePageToolWorld(SITE, FILES, TOOLS, { routes: { '/blob': BLOB_PAGE } })
let page: LaunchedPage

beforeAll(async () => {
  page = await world.browser.newPage(world.server.url('/home'))
})

type Args = Record<string, unknown>

function call(target: BrowserTarget, tool: ToolName, args: Args = {}, extra: Partial<BrowserCall> = {}) {
  const { code, file } = world.tools[tool]!
  return callBrowserTool(target, { siteId: SITE, tool, code, file, args, domains: OWN, ...extra })
}

async function withPage(path: string, test: (page: LaunchedPage) => Promise<void>): Promise<void> {
  const own = await world.browser.newPage(world.server.url(path))
  try {
    await test(own)
  } finally {
    await own.close()
  }
}

describe('the domain guard on blob: documents whose script replaced a String method (issue 11.1)', () => {
  for (const method of ['replace', 'slice', 'indexOf']) {
    it(`decides by the real origin with String.prototype.${method} replaced`, async () => {
      await withPage(`/blob?m=${method}`, async (own) => {
        await waitForTitle(own.client, `blob ${method}`)
        expect(await evaluate(own.client, 'location.protocol + " " + location.origin')).toBe(
          `blob: ${world.server.origin}`,
        )
        // The page is 127.0.0.1; a skill for example.com must not run on it.
        const foreign = { domains: ['example.com', '*.example.com'] }
        const refused = await failure(call(own.client, 'mark', {}, foreign), 'domain-mismatch')
        expect(refused.message).toContain('blob:')
        expect(await evaluate(own.client, 'window.__ran')).toBeUndefined()
        // A skill that owns 127.0.0.1 still runs there.
        expect(await call(own.client, 'mark')).toBe('blob:')
        expect(await evaluate(own.client, 'window.__ran')).toBe(1)
      })
    })
  }
})

describe('bad CDP targets (issue 11.3)', () => {
  const PORT = 'port must be an integer from 1 to 65535'
  const EXPECTED = 'expected ws://..., HOST:PORT or { host, port, target }'
  const NOT_URL = 'not a valid ws:// URL'
  const BAD: [BrowserTarget, string][] = [
    [{ host: '127.0.0.1', port: 70000 }, PORT],
    [{ host: '127.0.0.1', port: -1 }, PORT],
    [{ port: 0 }, PORT],
    [{ port: 92.5 }, PORT],
    [{ port: '9222' } as never, PORT],
    [{ host: 7, port: 9222 } as never, 'host must be a string'],
    ['127.0.0.1:99999', PORT],
    ['9222', EXPECTED],
    ['ws://127.0.0.1:99999/devtools/page/x', NOT_URL],
    ['ws://[oops/devtools/page/x', NOT_URL],
    ['ws://', NOT_URL],
    ['ws://127.0.0.1:0/devtools/page/x', PORT],
    ['not a target', EXPECTED],
    // An object without a port is not an address with a bad port: the message says what a target is.
    [{} as never, EXPECTED],
    [null as never, EXPECTED],
  ]

  it('runs on the page object launchBrowser().newPage() returns, which holds its client', async () => {
    expect(await call(page, 'title')).toBe('/home')
    expect(await call({ client: page.client }, 'title')).toBe('/home')
  })

  it('shows a target of any size in at most a few hundred characters, by its keys', async () => {
    // The client under another key: JSON of it would be the whole protocol (730,000 characters).
    const error = await failure(
      call({ targetId: page.targetId, session: page.client } as never, 'title'),
      'invalid-target',
    )
    expect(error.message).toBe(
      `bad CDP target an object with keys targetId, session: ${EXPECTED}, or a CDP session (with send) or a page of launchBrowser() (with client)`,
    )
    const long = await failure(call('x'.repeat(100_000), 'title'), 'invalid-target')
    expect(long.message.length).toBeLessThan(400)
    expect(long.message).toContain('… (100002 characters)')
    const unreachable = await failure(call(`ws://${'x'.repeat(100_000)}`, 'title'), 'disconnected')
    expect(unreachable.message.length).toBeLessThan(400)
    const port = await failure(call({ host: 'h'.repeat(5000), port: 70000 }, 'title'), 'invalid-target')
    expect(port.message.length).toBeLessThan(400)
  })

  it('rejects each with invalid-target before connecting, and the process lives on', async () => {
    for (const [target, hint] of BAD) {
      const error = await failure(call(target, 'title'), 'invalid-target')
      expect(error.message, JSON.stringify(target)).toContain(hint)
    }
    // The real browser is still reachable by a good address afterwards.
    expect(await call({ host: '127.0.0.1', port: world.browser.port, target: page.targetId }, 'title')).toBe('/home')
  })

  it('the CLI answers --cdp 127.0.0.1:99999 with a usage error (exit 2) and exits promptly', async () => {
    const started = Date.now()
    const run = await runBin(['run', 'demo-shop', 'page_info', '--cdp', '127.0.0.1:99999'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('99999')
    expect(run.stderr).not.toContain('    at ')
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('a script that calls the runtime with port 70000 gets a typed error and exits 0 on its own', async () => {
    const script = [
      // callBrowserTool is internal now (not a package export): the script imports the runtime's source.
      `import { callBrowserTool } from ${JSON.stringify(join(REPO_ROOT, 'runtime/browser.ts'))}`,
      "const call = { siteId: 's', tool: 't', code: { source: 'async function(){}' }, args: {}, domains: ['x'] }",
      "await callBrowserTool({ host: '127.0.0.1', port: 70000 }, call).catch((e) => console.log(e.code))",
      "await callBrowserTool('127.0.0.1:99999', call).catch((e) => console.log(e.code))",
    ].join('\n')
    const run = await runNode(['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      env: process.env,
      limitMs: 15_000,
    })
    expect(run).toMatchObject({ code: 0, stdout: 'invalid-target\ninvalid-target\n' })
  })
})

describe('timeouts touch only the tool that is running (issue 11.4)', () => {
  it('a queued call that times out leaves the running call alone', async () => {
    await withPage('/queue', async (own) => {
      const started = Date.now()
      const long = call(own.client, 'work', { ms: 2000 }, { timeoutMs: 10_000 })
      const short = failure(call(own.client, 'title', {}, { timeoutMs: 300 }), 'timeout')
      expect(await long).toBe('worked 2000')
      await short
      expect(Date.now() - started).toBeLessThan(5000)
    })
  })

  it("a queued tool's timeout does not stop the page's own long task", async () => {
    await withPage('/long-task', async (own) => {
      // A first call caches the page's global object, so the next is sent at once.
      expect(await call(own.client, 'title')).toBe('/long-task')
      const longTask = 'const end = Date.now() + 1500; while (Date.now() < end) {} window.__pageDone = true'
      // Sent before the call on the same connection: the page is in this task when the call comes.
      const pageTask = evaluate(own.client, `${longTask}; 'page done'`)
      await failure(call(own.client, 'title', {}, { timeoutMs: 300 }), 'timeout')
      expect(await pageTask).toBe('page done')
      expect(await evaluate(own.client, 'window.__pageDone')).toBe(true)
    })
  })

  it('still terminates the timed-out tool when it is the one running', async () => {
    await withPage('/busy', async (own) => {
      const started = Date.now()
      await failure(call(own.client, 'work', { ms: 60_000 }, { timeoutMs: 400 }), 'timeout')
      expect(await evaluate(own.client, 'document.title')).toBe('/busy')
      expect(Date.now() - started).toBeLessThan(5000)
      // Another navigation keeps it working (the signal is installed for new documents too).
      await navigate(own.client, world.server.url('/busy2'))
      await failure(call(own.client, 'work', { ms: 60_000 }, { timeoutMs: 400 }), 'timeout')
      expect(await evaluate(own.client, 'document.title')).toBe('/busy2')
      await failure(call(own.client, 'work', { ms: 60_000 }, { timeoutMs: 400, isolatedWorld: true }), 'timeout')
      expect(await evaluate(own.client, 'document.title')).toBe('/busy2')
      expect(Date.now() - started).toBeLessThan(8000)
    })
  })
})

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf'
  for (let i = 0; i < depth; i++) value = { v: value }
  return value
}

const tool = (kind: 'node' | 'browser', args: SkillMeta['tools'][string]['args'], file: string) => ({
  kind,
  description: 'A tool.',
  args,
  returns: { type: 'object' as const },
  file,
})

const META: SkillMeta[] = [
  {
    id: SITE,
    name: 'Site',
    domains: OWN,
    notes: [],
    tools: {
      echo: tool('browser', { v: { type: 'object' }, s: { type: 'string' } }, 'site/browser-tools/echo.js'),
      keep: tool('node', { list: { type: 'array' }, v: { type: 'object' } }, 'site/tools/keep.js'),
      none: tool('node', {}, 'site/tools/none.js'),
    },
  },
]

function registry() {
  const keep = (_ctx: unknown, args: { list?: unknown[] }) => {
    args.list?.push('added by the tool')
    return args
  }
  const nodeTools = { keep: async () => keep, none: async () => () => 'ran' }
  const chunk = { notes: [], browserTools: { echo: world.tools.echo!.code }, nodeTools }
  return createSiteSkills({ skills: META, table: createDomainTableData([OWN]) }, { [SITE]: async () => chunk })
}

describe('deeply nested and huge arguments (issue 11.5)', () => {
  it('refuses 300 to 10,000 levels at once with invalid-args naming the limit; 60 levels run', async () => {
    const api = registry()
    for (const depth of [300, 1000, 10_000]) {
      const started = Date.now()
      const deep = api.runBrowserTool(SITE, 'echo', { v: nested(depth) }, page.client, { timeoutMs: 20_000 })
      const error = await failure(deep, 'invalid-args')
      expect(error.message).toContain('64')
      expect(Date.now() - started).toBeLessThan(1000)
      // The registry copies a call's arguments once, for both kinds (browser.ts and node.ts take its copy).
      await failure(api.runTool(SITE, 'keep', { v: nested(depth) }), 'invalid-args')
    }
    expect(await api.runBrowserTool(SITE, 'echo', { v: nested(60) }, page.client)).toEqual({ v: nested(60) })
  })

  it('refuses arguments over the size limit, naming it', async () => {
    const huge = registry().runBrowserTool(SITE, 'echo', { s: 'x'.repeat(17 * 2 ** 20) }, page.client)
    const error = await failure(huge, 'invalid-args')
    expect(error.message).toMatch(/16 MiB/)
  })
})

describe('Node tools (issue 11.6)', () => {
  const fn = (work: (ctx: unknown, args: unknown) => unknown, args: unknown = {}, timeoutMs?: number) =>
    callNodeTool({ siteId: SITE, tool: 't', fn: work, ctx: null, args: args as Record<string, unknown>, timeoutMs })

  it('a synchronous tool that overruns its timeout is a timeout, though it finished', async () => {
    const busy = () => {
      const end = Date.now() + 150
      while (Date.now() < end);
      return 'finished late'
    }
    expect((await failure(fn(busy, {}, 50), 'timeout')).message).toContain('50 ms')
    expect(await fn(() => 'quick', {}, 1000)).toBe('quick')
  })

  it('a tool gets a copy of the args: changing it does not change the caller’s object', async () => {
    const args = { list: ['mine'] }
    expect(await registry().runTool(SITE, 'keep', args)).toEqual({ list: ['mine', 'added by the tool'] })
    expect(args).toEqual({ list: ['mine'] })
    // Twice: the copy is made per call, not once per object.
    expect(await registry().runTool(SITE, 'keep', args)).toEqual({ list: ['mine', 'added by the tool'] })
    expect(args).toEqual({ list: ['mine'] })
  })

  it('throwing getters, proxies, arrays and numbers as args are invalid-args', async () => {
    const getter = Object.defineProperty({}, 'list', {
      enumerable: true,
      get: () => {
        throw new Error('getter')
      },
    })
    const trap = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trap')
        },
      },
    )
    const revocable = Proxy.revocable({}, {})
    revocable.revoke()
    const api = registry()
    for (const args of [getter, trap, revocable.proxy, [], [1, 2], 5, 'text', true]) {
      const error = await failure(api.runTool(SITE, 'keep', args as never), 'invalid-args')
      expect(error).toBeInstanceOf(SiteToolError)
    }
    const array = await failure(api.runTool(SITE, 'none', [] as never), 'invalid-args')
    expect(array.message).toContain('args must be an object (got array)')
    const number = await failure(api.runTool(SITE, 'keep', 5 as never), 'invalid-args')
    expect(number.message).toContain('args must be an object (got number)')
  })

  it('a thrown plain object keeps what it says', async () => {
    const plain = await failure(
      fn(() => {
        throw { code: 'E_QUOTA', detail: 'try later' }
      }),
      'tool-threw',
    )
    expect(plain.message).toContain('{"code":"E_QUOTA","detail":"try later"}')
    const withMessage = await failure(
      fn(() => {
        throw { message: 'quota used up' }
      }),
      'tool-threw',
    )
    expect(withMessage.message).toContain('quota used up')
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(
      (
        await failure(
          fn(() => {
            throw cyclic
          }),
          'tool-threw',
        )
      ).message,
    ).toContain('[unprintable object]')
  })
})

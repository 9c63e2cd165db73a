import type { IncomingMessage, ServerResponse } from 'node:http'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import { startServer, type TestServer } from '../helpers/server'
import { BIN, cleanEnv } from '../helpers/spawn'
import { makeTempDir, writeTree } from '../helpers/tmp'

/** The icon of the alpha skill (`icon.svg` in its folder). */
export const ALPHA_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="3"/></svg>'

/** Three skills: alpha (alpha.test), beta (beta.test) and gamma (alpha.test too, denied in the tests). */
const SKILLS: Record<string, unknown> = {
  'alpha/manifest.json': {
    id: 'alpha',
    name: 'Alpha',
    domains: ['alpha.test'],
    notes: ['notes/guide.md'],
    nodeTools: {
      where: {
        description: 'Where the active tab is, from the Node side.',
        path: 'tools/where.js',
        callable: 'where',
        args: { tag: { type: 'string', required: false, description: 'Echoed back.' } },
        returns: {
          type: 'object',
          description: 'The tab URL and the tag.',
          properties: {
            url: { type: 'string', required: true, description: 'ctx.url' },
            tag: { type: 'string', description: 'args.tag' },
          },
        },
      },
      hang: {
        description: 'Waits until the call is cancelled, leaving marker files.',
        path: 'tools/hang.js',
        callable: 'hang',
        args: { marker: { type: 'string', required: true, description: 'Path prefix of the marker files.' } },
        returns: { type: 'string', description: 'Text.' },
        timeoutMs: 600000,
      },
      fails: {
        description: 'Always throws.',
        path: 'tools/fails.js',
        callable: 'fails',
        args: {},
        returns: { type: 'string', description: 'Text.' },
      },
    },
    browserTools: {
      read_title: {
        description: 'Reads the page title.',
        path: 'browser-tools/read-title.js',
        args: { prefix: { type: 'string', required: true, description: 'Put before the title.' } },
        returns: {
          type: 'object',
          description: 'The title.',
          properties: { title: { type: 'string', required: true, description: 'prefix + title' } },
        },
        annotations: { title: 'Read the title', readOnlyHint: true, openWorldHint: false },
      },
      boom: {
        description: 'Throws in the page.',
        path: 'browser-tools/boom.js',
        args: {},
        returns: { type: 'string', description: 'Text.' },
      },
    },
  },
  'alpha/notes/guide.md': '# Alpha guide\n\nThe title lives in document.title.\n',
  'alpha/tools/where.js': 'export function where(ctx, args) {\n  return { url: ctx.url, tag: args.tag ?? null }\n}\n',
  'alpha/tools/hang.js':
    'import { writeFileSync } from "node:fs"\n' +
    'export function hang(ctx, args) {\n' +
    '  writeFileSync(args.marker + ".started", "")\n' +
    '  return new Promise((resolve) => ctx.signal.addEventListener("abort", () => {\n' +
    '    writeFileSync(args.marker + ".aborted", "")\n' +
    '    resolve("aborted")\n' +
    '  }))\n' +
    '}\n',
  'alpha/icon.svg': ALPHA_ICON,
  'alpha/tools/fails.js': 'export function fails() {\n  throw new Error("node tool failed")\n}\n',
  'alpha/browser-tools/read-title.js': 'async function (args) {\n  return { title: args.prefix + document.title }\n}\n',
  'alpha/browser-tools/boom.js': 'async function () {\n  const x = 1\n  throw new Error("boom " + x)\n}\n',
  'beta/manifest.json': {
    id: 'beta',
    name: 'Beta',
    domains: ['beta.test'],
    browserTools: {
      heading: {
        description: 'Reads the h1.',
        path: 'browser-tools/heading.js',
        args: {},
        returns: { type: 'string', description: 'Text.' },
      },
    },
  },
  'beta/browser-tools/heading.js': 'async function () {\n  return document.querySelector("h1").textContent\n}\n',
  'gamma/manifest.json': {
    id: 'gamma',
    name: 'Gamma',
    domains: ['alpha.test'],
    browserTools: {
      secret: {
        description: 'Never offered.',
        path: 'browser-tools/secret.js',
        args: {},
        returns: { type: 'string', description: 'Text.' },
      },
    },
  },
  'gamma/browser-tools/secret.js': 'async function () {\n  return "secret"\n}\n',
}

/** A page per host: `<title>` and `<h1>` name the host (alpha.test -> "alpha"). */
function hostPage(req: IncomingMessage, res: ServerResponse): void {
  const name = (req.headers.host ?? '').split('.')[0]
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
  res.end(`<!doctype html><title>${name} page</title><h1>${name} heading</h1>`)
}

/** The pieces a test needs: a root of skills, a page server for *.test hosts, a browser that maps them to it. */
export interface World {
  root: string
  pages: TestServer
  browser: LaunchedBrowser
  url: (host: string) => string
  close: () => Promise<void>
}

export async function createWorld(): Promise<World> {
  const { dir, cleanup } = await makeTempDir('mcp-')
  await writeTree(dir, SKILLS)
  const pages = await startServer({ '/': hostPage })
  const port = new URL(pages.origin).port
  const browser = await launchBrowser({ args: ['--host-resolver-rules=MAP *.test 127.0.0.1'] })
  return {
    root: dir,
    pages,
    browser,
    url: (host) => `http://${host}:${port}/`,
    async close() {
      await browser.close()
      await pages.close()
      await cleanup()
    },
  }
}

/** An SDK client that records list_changed notifications. */
export interface Watched {
  client: Client
  /** Resolves at the next tools/list_changed after this call, with the time it arrived; rejects after `ms`. */
  nextToolsChange: (ms?: number) => Promise<number>
  toolChanges: () => number
  resourceChanges: () => number
}

export async function connectClient(transport: Transport): Promise<Watched> {
  const client = new Client({ name: 'site-skills-test', version: '1.0.0' })
  let tools = 0
  let resources = 0
  let waiting: ((at: number) => void)[] = []
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    tools++
    for (const resolve of waiting) resolve(performance.now())
    waiting = []
  })
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void resources++)
  await client.connect(transport)
  return {
    client,
    nextToolsChange: (ms = 15_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no tools/list_changed within ${ms} ms`)), ms)
        waiting.push((at) => {
          clearTimeout(timer)
          resolve(at)
        })
      }),
    toolChanges: () => tools,
    resourceChanges: () => resources,
  }
}

/** A client of the real binary over stdio (`site-skills mcp ...args`), with the server's stderr. */
export async function stdioClient(
  args: string[],
  env: Record<string, string> = {},
): Promise<Watched & { stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: { ...(cleanEnv() as Record<string, string>), ...env },
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const watched = await connectClient(transport).catch((error: Error) => {
    throw new Error(`${error.message}; the server's stderr:\n${stderr}`)
  })
  return { ...watched, stderr: () => stderr }
}

/** `--root` and `--cdp` of a world (gamma denied, as in every test). */
export const worldArgs = (world: World) => [
  '--root',
  world.root,
  '--cdp',
  `127.0.0.1:${world.browser.port}`,
  '--deny',
  'gamma',
]

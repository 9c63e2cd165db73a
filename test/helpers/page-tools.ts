import { afterAll, beforeAll } from 'vitest'
import { type LaunchedBrowser, type LaunchOptions, launchBrowser } from '../../runtime/launch'
import { type CompiledTool, compileTools, type ToolSpec } from './browser'
import { type Route, startServer, type TestServer } from './server'

/**
 * Browser-tool sources that several runtime tests compile (compileTools of ./browser): a file of the
 * skill folder -> its text. A test spreads them into its own files and overrides what it needs.
 */
export const PAGE_TOOL_SOURCES: Record<string, string> = {
  'browser-tools/echo.js': 'async function (args) {\n  return args\n}\n',
  'browser-tools/title.js': 'async function () {\n  return document.title\n}\n',
  'browser-tools/busy.js': 'async function () {\n  for (;;) {}\n}\n',
  'browser-tools/throws.js': [
    'async function (args) {',
    '  const value = args.n * 2',
    '',
    '  if (value > 1) {',
    "    throw new Error('too big: ' + value)",
    '  }',
    '  return value',
    '}',
    '',
  ].join('\n'),
  'browser-tools/throws-inline.js':
    "async (args) => { if (args.n > 1) throw new RangeError('inline ' + args.n); return 0 }\n",
}

/** A headless Chromium, a local server and a skill's compiled browser tools, shared by one test file. */
export interface PageToolWorld {
  browser: LaunchedBrowser
  server: TestServer
  tools: Record<string, CompiledTool>
}

/**
 * Starts the world before the file's tests (the three at once) and closes it after them: each part is
 * kept as soon as it exists, so that a part that fails to start leaves none of the others running.
 * The members are there from the file's own hooks on.
 */
export function usePageToolWorld(
  siteId: string,
  files: Record<string, string>,
  tools: Record<string, ToolSpec>,
  options: { routes?: Record<string, Route>; launch?: LaunchOptions } = {},
): PageToolWorld {
  const world = {} as PageToolWorld
  beforeAll(async () => {
    await Promise.all([
      launchBrowser(options.launch).then((b) => (world.browser = b)),
      startServer(options.routes).then((s) => (world.server = s)),
      compileTools(siteId, files, tools).then((t) => (world.tools = t)),
    ])
  })
  afterAll(async () => {
    await world.browser?.close()
    await world.server?.close()
  })
  return world
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LaunchedBrowser, type LaunchedPage, launchBrowser } from '../../runtime/launch'
import { closeSiteSkills, runBrowserSiteTool } from '../../src/index'
import { failure } from '../helpers/browser'
import { startServer, type TestServer } from '../helpers/server'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { runBin } from '../helpers/spawn'

/*
 * A browser tool whose result refers back to itself (issue 40.12): the page finds where, as the
 * Node side does for a Node tool's result, instead of CDP's "Object reference chain is too long".
 */
const TOOLS: Record<string, string> = {
  cycle: 'async function () {\n  const a = { list: [1] }\n  a.list.push(a)\n  return a\n}\n',
  sync_cycle: 'function () {\n  const a = { b: { c: {} } }\n  a.b.c.back = a.b\n  return a\n}\n',
  shared: 'async function () {\n  const s = { v: 1 }\n  return { a: s, b: [s, s] }\n}\n',
  getter:
    'function () {\n  const a = { n: 1 }\n  Object.defineProperty(a, "self", { get: () => a, enumerable: true })\n  return a\n}\n',
}

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let site: TestServer
let browser: LaunchedBrowser
let page: LaunchedPage

beforeAll(async () => {
  tmp = await makeTempDir('browser-cycle-')
  const tool = (name: string) => ({
    description: `Returns ${name}.`,
    path: `browser-tools/${name}.js`,
    args: {},
    returns: { type: 'object', description: 'Anything.' },
  })
  await writeTree(tmp.dir, {
    'local/manifest.json': {
      id: 'local',
      name: 'Local',
      domains: ['127.0.0.1'],
      browserTools: Object.fromEntries(Object.keys(TOOLS).map((name) => [name, tool(name)])),
    },
    ...Object.fromEntries(Object.entries(TOOLS).map(([name, code]) => [`local/browser-tools/${name}.js`, code])),
  })
  site = await startServer()
  browser = await launchBrowser()
  page = await browser.newPage(site.url('/'))
})

afterAll(async () => {
  closeSiteSkills()
  await browser?.close()
  await site?.close()
  await tmp?.cleanup()
})

const run = (tool: string) =>
  runBin(['run', 'local', tool, '--json', '--root', tmp.dir, '--cdp', `127.0.0.1:${browser.port}`], {
    cwd: tmp.dir,
    limitMs: 20_000,
  })

describe('site-skills run: a browser tool whose result refers back to itself', () => {
  it.each([
    ['cycle', 'result.list[1]'],
    ['sync_cycle', 'result.b.c.back'],
  ])('%s: one invalid-result line naming where (%s), exit 1', async (tool, path) => {
    const result = await run(tool)
    expect(result.timedOut).toBe(false)
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `site-skills: invalid-result: local -> ${tool}: the result is not JSON data: ${path} refers back to an object that contains it (a cycle) (local/browser-tools/${tool}.js)`,
    ])
  })

  it('returns an object met twice without a cycle as it is', async () => {
    const result = await run('shared')
    expect(result.stderr).toBe('')
    expect(JSON.parse(result.stdout)).toEqual({ a: { v: 1 }, b: [{ v: 1 }, { v: 1 }] })
  })

  it('never calls a getter to look: a cycle through one is left to CDP, still invalid-result', async () => {
    const result = await run('getter')
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^site-skills: invalid-result: local -> getter: /)
  })
})

describe('runBrowserTool on one session: the first call and the later ones (the function kept in the page)', () => {
  it('names where on every call, in the main world and in an isolated one', async () => {
    for (const isolatedWorld of [false, true]) {
      for (let i = 0; i < 3; i++) {
        const call = runBrowserSiteTool('local', 'cycle', {}, page, { roots: [tmp.dir], isolatedWorld })
        expect((await failure(call, 'invalid-result')).message).toContain('result.list[1] refers back')
      }
      const shared = await runBrowserSiteTool('local', 'shared', {}, page, { roots: [tmp.dir], isolatedWorld })
      expect(shared).toEqual({ a: { v: 1 }, b: [{ v: 1 }, { v: 1 }] })
    }
  })
})

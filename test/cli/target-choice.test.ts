import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import { closeSiteSkills, runBrowserSiteTool } from '../../src/index'
import { failure } from '../helpers/browser'
import { startServer, type TestServer } from '../helpers/server'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { WHERE_SKILL } from '../helpers/where-skill'
import { stdioClient, type Watched } from '../mcp/harness'
import { runBin } from '../helpers/spawn'

/*
 * Which tab a URL names, on the three surfaces that take one: `run --target`, the runtime's
 * `{ host, port, target }` and `site_skills_switch_tab { url }` (issue 40.1). Each pair of tabs has
 * one URL inside the other's (`/a` in `/a/b`); they are opened in both orders, so the first tab
 * that merely contains the URL is the wrong one whatever order the browser lists them in.
 */
const PATHS = ['/a', '/a/b', '/c/d', '/c']

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let site: TestServer
let browser: LaunchedBrowser

beforeAll(async () => {
  tmp = await makeTempDir('target-choice-')
  await writeTree(tmp.dir, WHERE_SKILL)
  site = await startServer()
  browser = await launchBrowser()
  for (const path of PATHS) await browser.newPage(site.url(path))
})

afterAll(async () => {
  closeSiteSkills()
  await browser?.close()
  await site?.close()
  await tmp?.cleanup()
})

const cdp = () => `127.0.0.1:${browser.port}`
const runWhere = (target: string) =>
  runBin(['run', 'local', 'where', '--json', '--root', tmp.dir, '--cdp', cdp(), '--target', target], {
    cwd: tmp.dir,
    limitMs: 20_000,
  })

describe('run --target', () => {
  it('runs in the tab whose URL is the target, not in one that merely contains it', async () => {
    for (const path of ['/a', '/c']) {
      const run = await runWhere(site.url(path))
      expect(run.timedOut, path).toBe(false)
      expect(run.stderr, path).toBe('')
      expect(run.code, path).toBe(0)
      expect(JSON.parse(run.stdout), path).toBe(site.url(path))
    }
  })

  it('takes a part of a URL that one tab has', async () => {
    const run = await runWhere('/a/b')
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toBe(site.url('/a/b'))
  })

  it('refuses a part that several tabs have, listing them (exit 1)', async () => {
    const run = await runWhere('127.0.0.1')
    expect(run.timedOut).toBe(false)
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain('site-skills: target-ambiguous: "127.0.0.1" is in the URL of 4 open pages')
    for (const path of PATHS) expect(run.stderr).toContain(site.url(path))
  })
})

describe("the runtime's { host, port, target }", () => {
  const run = (target: string) =>
    runBrowserSiteTool('local', 'where', {}, { host: '127.0.0.1', port: browser.port, target }, { roots: [tmp.dir] })

  it('picks the exact URL first, else the one tab that contains it, else refuses', async () => {
    expect(await run(site.url('/a'))).toBe(site.url('/a'))
    expect(await run(site.url('/c'))).toBe(site.url('/c'))
    expect(await run('/c/d')).toBe(site.url('/c/d'))
    const ambiguous = await failure(run(site.origin), 'target-ambiguous')
    expect(ambiguous.message).toContain(site.url('/a/b'))
  })
})

describe('site_skills_switch_tab { url }', () => {
  let mcp: Watched & { stderr: () => string }
  beforeAll(async () => {
    mcp = await stdioClient(['--tools', 'page', '--root', tmp.dir, '--cdp', cdp()])
  })
  afterAll(() => mcp?.client.close())

  const switchTo = (url: string) =>
    mcp.client.callTool({ name: 'site_skills_switch_tab', arguments: { url } }) as Promise<CallToolResult>

  it('switches to the tab at that URL; a part several tabs have is target-ambiguous', async () => {
    for (const path of ['/a', '/c']) {
      const switched = await switchTo(site.url(path))
      expect(switched.isError, path).toBeFalsy()
      expect(switched.structuredContent, path).toMatchObject({ tab: { url: site.url(path) } })
    }
    const ambiguous = await switchTo('127.0.0.1')
    expect(ambiguous.isError).toBe(true)
    expect(ambiguous._meta?.['site-skills/error']).toMatchObject({ code: 'target-ambiguous' })
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import { closeSiteSkills, runBrowserSiteTool } from '../../src/index'
import { startServer, type TestServer } from '../helpers/server'
import { runBin } from '../helpers/spawn'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { WHERE_SKILL } from '../helpers/where-skill'

/*
 * A browser tool run on a browser without a tab named (`run --cdp HOST:PORT`, the runtime's
 * `{ host, port }`): the browser lists its pages in no fixed order (a new tab beside the blank one
 * it started with comes first or second), so "the first page" was a draw, and the tool ran on
 * about:blank with `domain-mismatch`. The page of the skill's domains is the one meant. Twelve
 * pages of no skill around the one page of the skill make a lucky draw unlikely.
 */
let tmp: Awaited<ReturnType<typeof makeTempDir>>
let site: TestServer
let browser: LaunchedBrowser

beforeAll(async () => {
  tmp = await makeTempDir('default-tab-')
  await writeTree(tmp.dir, WHERE_SKILL)
  site = await startServer()
  browser = await launchBrowser()
  const other = (i: number) => `data:text/html,<title>other ${i}</title>`
  for (let i = 0; i < 6; i++) await browser.newPage(other(i))
  await browser.newPage(site.url('/mine'))
  for (let i = 6; i < 12; i++) await browser.newPage(other(i))
})

afterAll(async () => {
  closeSiteSkills()
  await browser?.close()
  await site?.close()
  await tmp?.cleanup()
})

describe('a browser tool without a tab named', () => {
  it('run --cdp HOST:PORT runs on the page of its skill, not on whichever the browser lists first', async () => {
    for (let i = 0; i < 3; i++) {
      const args = ['run', 'local', 'where', '--json', '--root', tmp.dir, '--cdp', `127.0.0.1:${browser.port}`]
      const run = await runBin(args, { cwd: tmp.dir, limitMs: 20_000 })
      expect(run.timedOut).toBe(false)
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      expect(JSON.parse(run.stdout)).toBe(site.url('/mine'))
    }
  })

  it("the runtime's { host, port } does the same", async () => {
    for (let i = 0; i < 3; i++) {
      const where = await runBrowserSiteTool(
        'local',
        'where',
        {},
        { host: '127.0.0.1', port: browser.port },
        { roots: [tmp.dir] },
      )
      expect(where).toBe(site.url('/mine'))
    }
  })
})

import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type LaunchedBrowser, type LaunchedPage, launchBrowser } from '../../runtime/launch'
import { closeSiteSkills, isSiteToolError, runBrowserSiteTool, runNodeSiteTool } from '../../src/index'
import { DRIFT_MESSAGE, DRIFT_SKILL, GOOD_PRODUCTS, PAGE_MESSAGE } from '../helpers/returns-skill'
import { startServer, type TestServer } from '../helpers/server'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { caught } from '../helpers/caught'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let root: string
let browser: LaunchedBrowser
let server: TestServer
let page: LaunchedPage
beforeAll(async () => {
  tmp = await makeTempDir('nobuild-returns-')
  root = join(tmp.dir, 'learnings')
  await writeTree(tmp.dir, { 'package.json': '{ "type": "module" }\n' })
  await writeTree(root, DRIFT_SKILL)
  server = await startServer({ '/item': '<!doctype html><title>Lamp</title>' })
  browser = await launchBrowser()
  page = await browser.newPage(server.url('/item'))
})
afterAll(async () => {
  closeSiteSkills()
  await page?.close()
  await browser?.close()
  await server?.close()
  await tmp.cleanup()
})

/** console.warn's lines while `work` runs. */
async function warnings(work: () => Promise<unknown>): Promise<{ lines: string[]; value: unknown }> {
  const spy = vi.spyOn(console, 'warn').mockImplementation(() => {})
  try {
    const value = await work()
    return { lines: spy.mock.calls.map((c) => c.join(' ')), value }
  } finally {
    spy.mockRestore()
  }
}

describe('no-build API: results checked against returns', () => {
  it("'throw': a drifted Node tool result is invalid-result with the JSON path; a matching one passes", async () => {
    const options = { root, validateReturns: 'throw' as const, watch: false }
    expect(await runNodeSiteTool('drift', 'products', { mode: 'good' }, {}, options)).toEqual(GOOD_PRODUCTS)
    const error = await caught(runNodeSiteTool('drift', 'products', { mode: 'drift' }, {}, options))
    expect(isSiteToolError(error, 'invalid-result') && error.message).toBe(DRIFT_MESSAGE)
  })

  it("'warn' (the default): the value comes back, one warning per tool and path", async () => {
    // Two registries (a session per options), so each warns once.
    for (const options of [
      { root, validateReturns: 'warn' as const },
      { root, watch: false },
    ]) {
      const { lines, value } = await warnings(async () => {
        await runNodeSiteTool('drift', 'products', { mode: 'drift' }, {}, options)
        return runNodeSiteTool('drift', 'products', { mode: 'drift' }, {}, options)
      })
      expect(value).toMatchObject({
        products: [
          { id: 'a', price: '1 €' },
          { id: 'b', price: '2 €' },
        ],
      })
      expect(lines).toEqual([`[site-skills] ${DRIFT_MESSAGE}`])
    }
  })

  it('false: no check, no warning', async () => {
    const { lines, value } = await warnings(() =>
      runNodeSiteTool('drift', 'products', { mode: 'drift' }, {}, { root, validateReturns: false }),
    )
    expect(value).toMatchObject({ products: [{ price: '1 €' }, { price: '2 €' }] })
    expect(lines).toEqual([])
  })

  it('a browser tool in headless Chromium returning null for a required number', async () => {
    const thrown = await caught(
      runBrowserSiteTool('drift', 'read_price', {}, page.client, { root, validateReturns: 'throw' }),
    )
    expect(isSiteToolError(thrown, 'invalid-result') && thrown.message).toBe(PAGE_MESSAGE)
    const warned = await warnings(() =>
      runBrowserSiteTool('drift', 'read_price', {}, page.client, { root, validateReturns: 'warn' }),
    )
    expect(warned).toEqual({ value: { title: 'Lamp', price: null }, lines: [`[site-skills] ${PAGE_MESSAGE}`] })
    const off = await warnings(() =>
      runBrowserSiteTool('drift', 'read_price', {}, page.client, { root, validateReturns: false }),
    )
    expect(off).toEqual({ value: { title: 'Lamp', price: null }, lines: [] })
  })
})

import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ValidateReturns } from '../../runtime/index'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import { vitePlugin } from '../helpers/bundlers'
import { DRIFT_MESSAGE, DRIFT_SKILL, GOOD_PRODUCTS, PAGE_MESSAGE } from '../helpers/returns-skill'
import { startServer, type TestServer } from '../helpers/server'
import { makeTempDir, writeTree } from '../helpers/tmp'

/** An app that calls the skill's tools through the generated module, as an agent would. */
const ENTRY = `import { runTool, sites } from 'virtual:site-skills'

const settle = (p) => p.then((value) => ({ value }), (e) => ({ code: e.code, message: e.message }))

export async function main(target) {
  return {
    good: await settle(runTool('drift', 'products', { mode: 'good' })),
    drift: await settle(runTool('drift', 'products', { mode: 'drift' })),
    again: await settle(sites.drift.products({ mode: 'drift' })),
    page: await settle(runTool('drift', 'read_price', {}, target)),
  }
}
`
const RUN =
  'const m = await import(process.argv[1]); console.log(JSON.stringify(await m.main(JSON.parse(process.argv[2]))))'
const exec = promisify(execFile)

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let server: TestServer
let browser: LaunchedBrowser
beforeAll(async () => {
  tmp = await makeTempDir('vite-returns-')
  await writeTree(tmp.dir, { 'entry.js': ENTRY, 'package.json': '{ "type": "module" }\n' })
  await writeTree(join(tmp.dir, 'learnings'), DRIFT_SKILL)
  server = await startServer({ '/item': '<!doctype html><title>Lamp</title>' })
  browser = await launchBrowser()
  await browser.newPage(server.url('/item'))
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
  await tmp.cleanup()
})

/** Builds the app with Vite and the plugin, runs it in a fresh Node process against the open page. */
async function buildAndRun(mode: ValidateReturns | undefined) {
  const outDir = join(tmp.dir, `dist-${String(mode)}`)
  const options = mode === undefined ? { dts: false as const } : { dts: false as const, validateReturns: mode }
  await build({
    root: tmp.dir,
    configFile: false,
    logLevel: 'silent',
    plugins: [vitePlugin(options)],
    build: { outDir, ssr: join(tmp.dir, 'entry.js'), minify: false },
  })
  const target = JSON.stringify({ host: browser.host, port: browser.port, target: '/item' })
  const { stdout, stderr } = await exec(process.execPath, [
    '--input-type=module',
    '-e',
    RUN,
    pathToFileURL(join(outDir, 'entry.js')).href,
    target,
  ])
  return { result: JSON.parse(stdout), warnings: stderr.split('\n').filter((l) => l.includes('[site-skills]')) }
}

const DRIFTED = {
  products: [
    { id: 'a', price: '1 €' },
    { id: 'b', price: '2 €' },
  ],
  stock: {},
  cursor: null,
}
const PAGE = { title: 'Lamp', price: null }

describe('a Vite build checks results against returns (validateReturns)', () => {
  it("'throw': invalid-result with the JSON path, for a Node tool and a browser tool in Chromium", async () => {
    const { result, warnings } = await buildAndRun('throw')
    expect(result).toEqual({
      good: { value: GOOD_PRODUCTS },
      drift: { code: 'invalid-result', message: DRIFT_MESSAGE },
      again: { code: 'invalid-result', message: DRIFT_MESSAGE },
      page: { code: 'invalid-result', message: PAGE_MESSAGE },
    })
    expect(warnings).toEqual([])
  })

  it("'warn' (the default): values returned, one [site-skills] warning per tool and path", async () => {
    for (const mode of ['warn', undefined] as const) {
      const { result, warnings } = await buildAndRun(mode)
      expect(result).toEqual({
        good: { value: GOOD_PRODUCTS },
        drift: { value: DRIFTED },
        again: { value: DRIFTED },
        page: { value: PAGE },
      })
      expect(warnings).toEqual([`[site-skills] ${DRIFT_MESSAGE}`, `[site-skills] ${PAGE_MESSAGE}`])
    }
  })

  it('false: no check and nothing logged', async () => {
    const { result, warnings } = await buildAndRun(false)
    expect(result).toEqual({
      good: { value: GOOD_PRODUCTS },
      drift: { value: DRIFTED },
      again: { value: DRIFTED },
      page: { value: PAGE },
    })
    expect(warnings).toEqual([])
  })

  it('refuses a validateReturns value it does not know', () => {
    expect(() => vitePlugin({ validateReturns: 'loud' as never })).toThrow(
      "[site-skills] `validateReturns` accepts 'throw', 'warn' or false, not \"loud\"",
    )
  })
})

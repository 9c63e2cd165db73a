import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import { type StaticServer, serveFolder } from '../../playground/serve'
import { closeSiteSkills } from '../../src/index'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'
import { runBin } from '../helpers/spawn'

/** A Node tool that reports the ctx it was given (what docs/skills.md's table of hosts says `run` passes). */
const CTX_TOOL = `export async function where(ctx) {
  const title = ctx.cdp
    ? (await ctx.cdp.send('Runtime.evaluate', { expression: 'document.title', returnByValue: true })).result.value
    : null
  return { host: ctx.host, url: ctx.url ?? null, baseUrl: ctx.baseUrl ?? null, title, fetch: typeof ctx.fetch }
}
`

let site: StaticServer
let browser: LaunchedBrowser

beforeAll(async () => {
  site = await serveFolder(join(REPO_ROOT, 'learnings/demo-shop/site'))
  browser = await launchBrowser()
  await browser.newPage('about:blank')
  await browser.newPage(`${site.url}?q=lamp`)
})

afterAll(async () => {
  closeSiteSkills()
  await browser?.close()
  await site?.close()
})

describe('site-skills match and context', () => {
  it('match --json lists skill ids per URL in directory order', async () => {
    const run = await runBin(
      [
        'match',
        '--json',
        'https://news.ycombinator.com/item?id=1',
        'https://de.wikipedia.org/wiki/X',
        'http://localhost:5173/',
        'https://example.org/',
        'not a url',
      ],
      { cwd: REPO_ROOT },
    )
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({
      'https://news.ycombinator.com/item?id=1': ['hacker-news'],
      'https://de.wikipedia.org/wiki/X': ['wikipedia'],
      'http://localhost:5173/': ['demo-shop'],
      'https://example.org/': [],
      'not a url': [],
    })
  })

  it('context --json is the original LearnedContext plus toolDefinitions', async () => {
    const run = await runBin(['context', '--json', 'http://127.0.0.1:8080/x'], { cwd: REPO_ROOT })
    const context = JSON.parse(run.stdout)
    expect(context).toMatchObject({ exists: true, siteId: 'demo-shop', domain: '127.0.0.1' })
    expect(context.knowledge[0]).toMatchObject({ siteId: 'demo-shop', fileName: 'overview.md' })
    expect(context.tools.map((t: { example: string }) => t.example)).toContain(
      'await runNodeSiteTool("demo-shop", "search_catalog", { ... }, ctx)',
    )
    expect(Object.keys(context.toolDefinitions)).toEqual(['mcp', 'anthropic', 'openai', 'names'])
    const human = await runBin(['context', 'http://127.0.0.1:8080/x'], { cwd: REPO_ROOT })
    expect(human.stdout).toContain('## tools')
  })
})

describe('site-skills run', () => {
  it('runs a Node tool', async () => {
    const run = await runBin(
      [
        'run',
        'demo-shop',
        'price_summary',
        '--json',
        '--args',
        '{"items":[{"id":"a","price":2},{"id":"b","price":4}]}',
      ],
      { cwd: REPO_ROOT },
    )
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toMatchObject({ count: 2, min: 2, max: 4 })
  })

  it('runs a browser tool in the tab picked by --target (URL substring) over --cdp HOST:PORT', async () => {
    const run = await runBin(
      [
        'run',
        'demo-shop',
        'page_info',
        '--json',
        '--args',
        '{"waitForReady":true}',
        '--cdp',
        `127.0.0.1:${browser.port}`,
        '--target',
        'q=lamp',
      ],
      { cwd: REPO_ROOT },
    )
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toMatchObject({ title: 'Demo Shop', query: 'lamp' })
  })

  it('reports typed errors with exit 1 and bad usage with exit 2', async () => {
    const invalid = await runBin(['run', 'demo-shop', 'price_summary', '--args', '{"items":"x"}'], { cwd: REPO_ROOT })
    expect(invalid.code).toBe(1)
    expect(invalid.stderr).toContain(
      'invalid-args: demo-shop -> price_summary: argument "items" must be an array (got string)',
    )
    const unknownTab = await runBin(
      ['run', 'demo-shop', 'page_info', '--cdp', `127.0.0.1:${browser.port}`, '--target', 'no-such-tab'],
      { cwd: REPO_ROOT },
    )
    expect(unknownTab.code).toBe(1)
    expect(unknownTab.stderr).toContain('target-not-found')
    expect((await runBin(['run', 'demo-shop', 'page_info'], { cwd: REPO_ROOT })).code).toBe(2)
    expect((await runBin(['run', 'demo-shop', 'price_summary', '--args', '{oops'], { cwd: REPO_ROOT })).code).toBe(2)
    expect((await runBin(['run', 'demo-shop'], { cwd: REPO_ROOT })).code).toBe(2)
  })
})

describe('site-skills run: the ctx of a Node tool', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>
  beforeAll(async () => {
    tmp = await makeTempDir('run-ctx-')
    await writeTree(tmp.dir, {
      'package.json': '{ "type": "module" }\n',
      'learnings/local/manifest.json': {
        id: 'local',
        name: 'Local',
        domains: ['127.0.0.1', 'shop.example.com'],
        nodeTools: {
          where: {
            description: 'Says what ctx holds.',
            path: 'tools/where.js',
            callable: 'where',
            args: {},
            returns: { type: 'object', description: 'ctx, as data.' },
          },
        },
      },
      'learnings/local/tools/where.js': CTX_TOOL,
    })
  })
  afterAll(() => tmp?.cleanup())

  it('holds url and baseUrl of the --target page, a CDP session to it, and fetch', async () => {
    const argv = ['run', 'local', 'where', '--json', '--cdp', `127.0.0.1:${browser.port}`, '--target', 'q=lamp']
    const run = await runBin(argv, { cwd: tmp.dir, limitMs: 20_000 })
    expect(run.timedOut).toBe(false)
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toEqual({
      host: 'site-skills run',
      url: `${site.url}?q=lamp`,
      baseUrl: new URL(site.url).origin,
      title: 'Demo Shop',
      fetch: 'function',
    })
  })

  it('takes --url over the page, and gives url and baseUrl without a browser', async () => {
    const run = await runBin(['run', 'local', 'where', '--json', '--url', 'https://shop.example.com/cart?x=1'], {
      cwd: tmp.dir,
    })
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({
      host: 'site-skills run',
      url: 'https://shop.example.com/cart?x=1',
      baseUrl: 'https://shop.example.com',
      title: null,
      fetch: 'function',
    })
    const bad = await runBin(['run', 'local', 'where', '--url', 'not a url'], { cwd: tmp.dir })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--url must be an http(s) URL')
  })
})

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import { type Route, type TestServer, startServer } from '../helpers/server'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { runBin } from '../helpers/spawn'

// `site-skills snapshot` of pages that fight the cleaner: one replaces the DOM methods it uses, one
// builds nodes that serialize into script (a declarative shadow root, raw text that closes its
// element, a comment that closes itself, script-bearing URLs). The saved fixture, served with no
// Content-Security-Policy at all, must run nothing.

/** A beacon to the test server (ORIGIN is put in as the page is served): a request says it ran. */
const mark = (name: string) => `new Image().src='ORIGIN/mark/${name}'`
const MARKS = ['onerror', 'srcdoc', 'srcdoc-handler', 'href', 'inline', 'refresh', 'shadow', 'template', 'style']
MARKS.push('noscript', 'xmp', 'comment', 'data', 'object')

/** A page whose script replaces every DOM method a cleaner in the page would use. */
const REPLACES = `<!DOCTYPE html><title>Replaces</title>
<img src="/missing.png" onerror="${mark('onerror')}">
<iframe srcdoc="<script>${mark('srcdoc')}</script><img src=/missing.png onerror=${mark('srcdoc-handler')}>"></iframe>
<a href="javascript:${mark('href')}">a</a>
<script>${mark('inline')}</script>
<script>
  const none = function () { return [] }
  Element.prototype.remove = function () {}
  Element.prototype.removeAttribute = function () {}
  Element.prototype.getAttributeNames = none
  Element.prototype.querySelectorAll = none
  Document.prototype.querySelectorAll = none
  DocumentFragment.prototype.querySelectorAll = none
  DOMParser.prototype.parseFromString = function (text) { return { documentElement: { outerHTML: text, querySelectorAll: none, getAttributeNames: none, hasAttribute: () => false } } }
  document.title = 'Replaces ready'
</script>`

/** A JavaScript string literal that can stand inside an inline script (no `<` to end or escape it). */
const js = (text: string) => JSON.stringify(text).replaceAll('<', '\\u003c')

/** A page whose DOM holds nodes that the HTML serializer writes out as markup that runs. */
const SERIALIZES = `<!DOCTYPE html><title>Serializes</title>
<meta http-equiv="refresh" content="5;url=javascript:${mark('refresh')}">
<body>
<script>
  const add = (node) => document.body.append(node)
  const text = (tag, content) => Object.assign(document.createElement(tag), { textContent: content })
  const template = document.createElement('template')
  template.setAttribute('shadowrootmode', 'open')
  template.content.append(text('script', ${js(mark('shadow'))}))
  add(template)
  const inert = document.createElement('template')
  inert.innerHTML = ${js(`<img src=/missing.png onerror="${mark('template')}">`)}
  add(inert)
  add(text('style', ${js(`</style><script>${mark('style')}</script>`)}))
  add(text('noscript', ${js(`</noscript><script>${mark('noscript')}</script>`)}))
  add(text('xmp', ${js(`</xmp><script>${mark('xmp')}</script>`)}))
  add(document.createComment(${js(`--><script>${mark('comment')}</script><!--`)}))
  const frame = document.createElement('iframe')
  frame.setAttribute('src', ${js(`data:text/html,<script>${mark('data')}</script>`)})
  add(frame)
  const object = document.createElement('object')
  object.setAttribute('data', ${js(`data:text/html,<script>${mark('object')}</script>`)})
  add(object)
  document.title = 'Serializes ready'
</script>`

let browser: LaunchedBrowser
let server: TestServer
const marks: string[] = []
const fixtures = new Map<string, string>()

beforeAll(async () => {
  browser = await launchBrowser()
  const page =
    (html: string): Exclude<Route, string> =>
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      res.end(html.replaceAll('ORIGIN', server.origin))
    }
  const routes: Record<string, Route> = { '/replaces': page(REPLACES), '/serializes': page(SERIALIZES) }
  for (const name of MARKS)
    routes[`/mark/${name}`] = (_req, res) => {
      marks.push(name)
      res.writeHead(404).end()
    }
  // The saved fixture, as is, with no policy: only the cleaner stands between it and a script.
  for (const name of ['replaces', 'serializes'])
    routes[`/served/${name}`] = (req, res) => page(fixtures.get(name) ?? '')(req, res)
  server = await startServer(routes)
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

/** The fixture's page, after its header comment. */
const pageOf = (fixture: string) => fixture.slice(fixture.indexOf('-->\n') + 4)

async function snapshotOf(path: string, title: string): Promise<string> {
  const { dir, cleanup } = await makeTempDir('snapshot-hostile-')
  const tab = await browser.newPage(server.url(path))
  try {
    await writeTree(dir, { 'shop/manifest.json': { id: 'shop', name: 'shop', domains: ['127.0.0.1'] } })
    const run = await runBin([
      'snapshot',
      server.url(path),
      '--site',
      'shop',
      '--name',
      'page',
      '--cdp',
      `127.0.0.1:${browser.port}`,
      '--root',
      dir,
    ])
    expect({ code: run.code, timedOut: run.timedOut }, run.stderr).toEqual({ code: 0, timedOut: false })
    const html = pageOf(await readFile(join(dir, 'shop/fixtures/page.html'), 'utf8'))
    expect(html).toContain(`<title>${title}</title>`)
    return html
  } finally {
    await tab.close()
    await cleanup()
  }
}

/** The beacons a page made once loaded from `html` with no policy (its load event waits for its frames and images). */
async function marksWhenServed(name: string, html: string): Promise<string[]> {
  fixtures.set(name, html)
  marks.length = 0
  const tab = await browser.newPage(server.url(`/served/${name}`))
  await tab.close()
  return [...marks]
}

describe('site-skills snapshot of pages that fight the cleaner', () => {
  it('a page that replaces the DOM methods: no script, handler or javascript: URL is kept', async () => {
    const html = await snapshotOf('/replaces', 'Replaces ready')
    expect(html).not.toMatch(/<script|onerror|javascript:/i)
    expect(html).toMatch(/<iframe srcdoc="/)
    expect(await marksWhenServed('replaces', html)).toEqual([])
    // The same check on the page as it was finds its scripts running.
    expect(await marksWhenServed('replaces', REPLACES)).toEqual(expect.arrayContaining(['inline', 'srcdoc']))
  })

  it('nodes that serialize into script: none of it is in the fixture, nothing runs when it is served', async () => {
    const html = await snapshotOf('/serializes', 'Serializes ready')
    expect(html).not.toMatch(/<script|onerror|javascript:|data:text\/html/i)
    expect(await marksWhenServed('serializes', html)).toEqual([])
  })
})

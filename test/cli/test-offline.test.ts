import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TargetInfo } from '../../runtime/cdp'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import { evaluate } from '../helpers/browser'
import { formatFixture } from '../../src/compiler/fixture-format/header'
import { type TestServer, startServer } from '../helpers/server'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { type Exited, runBin } from '../helpers/spawn'

/** A run of `test` launches Chromium: a few seconds, more on a loaded machine; past this it hangs. */
const DEADLINE_MS = 40_000

function expectExit(run: Exited, code: number): void {
  expect({ code: run.code, timedOut: run.timedOut }, `after ${run.ms} ms; stderr: ${run.stderr}`).toEqual({
    code,
    timedOut: false,
  })
}

interface JsonReport {
  ok: boolean
  results: { example: string; status: string; kind?: string; message?: string }[]
}
const report = (run: Exited) => JSON.parse(run.stdout) as JsonReport

const fixture = (url: string, html: string) => formatFixture({ url, captured: '2026-01-01T00:00:00.000Z' }, html)

/** A skill with one browser tool taking `{ base }` and returning an object (no declared fields). */
function browserSkill(domain: string, examples: object[]) {
  return {
    id: 'site',
    name: 'Site',
    domains: [domain],
    browserTools: {
      probe: {
        description: 'Probe the page.',
        path: 'browser-tools/probe.js',
        timeoutMs: 20_000,
        args: { base: { type: 'string', required: false, description: 'Where "the network" is.' } },
        returns: { type: 'object', description: 'What it saw.' },
        examples,
      },
    },
  }
}

/**
 * Opens a popup to `base` (the one a user gesture allows) and waits until the popup leaves its
 * first document, this origin's about:blank (its pagehide event), whatever it committed (the
 * server's page, or the error page of a blocked request), so a request it made has reached the
 * server by then. Then it adds a frame,
 * an image, a beacon and a fetch to `base`.
 */
const OPENER = `async function (args) {
  const popup = window.open(args.base + '/popup')
  // The popup's first document (about:blank, of this origin) is left when its navigation commits.
  const committed = popup ? await new Promise((r) => popup.addEventListener('pagehide', () => r(true), { once: true })) : false
  const frame = document.createElement('iframe')
  const framed = new Promise((r) => frame.addEventListener('load', r))
  frame.src = args.base + '/frame'
  document.body.append(frame)
  const image = new Image()
  const pictured = new Promise((r) => { image.onload = r; image.onerror = r })
  image.src = args.base + '/image'
  navigator.sendBeacon(args.base + '/beacon', 'x')
  const fetched = await fetch(args.base + '/fetch').then(() => 'answered', () => 'failed')
  await Promise.all([framed, pictured])
  return { popup: popup ? 'opened' : 'blocked', committed, fetched }
}
`

/** The URLs of the browser's open pages, sorted. */
async function pageUrls(browser: LaunchedBrowser): Promise<string[]> {
  const list = (await (await fetch(`http://127.0.0.1:${browser.port}/json/list`)).json()) as TargetInfo[]
  return list
    .filter((t) => t.type === 'page')
    .map((t) => t.url)
    .sort()
}

describe('site-skills test: what a browser example opens reaches no network', () => {
  let server: TestServer
  /** The page of a tab the user has open in the browser of --cdp. */
  let ownServer: TestServer
  const hits: string[] = []
  let browser: LaunchedBrowser

  beforeAll(async () => {
    const record = (path: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
      hits.push(path)
      res.end(`<title>${path}</title>`)
    }
    server = await startServer(
      Object.fromEntries(
        ['/popup', '/frame', '/image', '/beacon', '/fetch', '/favicon.ico'].map((path) => [path, record(path)]),
      ),
    )
    ownServer = await startServer()
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await server?.close()
    await ownServer?.close()
    await browser?.close()
  })

  it('a popup, a frame, an image, a beacon and a fetch: none reaches the server, launched or --cdp', async () => {
    const { dir, cleanup } = await makeTempDir('offline-')
    try {
      const url = 'http://localhost/page'
      await writeTree(dir, {
        'site/manifest.json': browserSkill('localhost', [
          {
            name: 'opener',
            args: { base: server.origin },
            url,
            fixture: 'fixtures/page.html',
            expect: { popup: 'opened', committed: true, fetched: 'failed' },
          },
        ]),
        'site/browser-tools/probe.js': OPENER,
        'site/fixtures/page.html': fixture(url, '<!DOCTYPE html><title>Page</title><main>Page</main>'),
      })
      const launched = await runBin(['test', '--root', dir, '--json'], { limitMs: DEADLINE_MS })
      expect(hits).toEqual([])
      expectExit(launched, 0)
      expect(report(launched).results.map((r) => r.status)).toEqual(['pass'])
      // In a browser given with --cdp: the same, and the user's own tab is left alone and working.
      const own = await browser.newPage(ownServer.url('/own'))
      const before = await pageUrls(browser)
      const viaCdp = await runBin(['test', '--root', dir, '--json', '--cdp', `127.0.0.1:${browser.port}`], {
        limitMs: DEADLINE_MS,
      })
      expect(hits).toEqual([])
      expectExit(viaCdp, 0)
      expect(await evaluate(own.client, 'document.title')).toBe('/own')
      // Its tabs, popups included, are gone with the run.
      expect(await pageUrls(browser)).toEqual(before)
      await own.close()
    } finally {
      await cleanup()
    }
  })
})

/**
 * Whatever the page's own scripts would have marked on <html>, and whether the data: frame ran.
 * A javascript: link is clicked, and the tool waits for the page's policy to refuse it (the
 * securitypolicyviolation event): once refused, it cannot have run.
 */
const MARKS = `async function () {
  const link = document.getElementById('js')
  const refused = new Promise((r) => document.addEventListener('securitypolicyviolation', r, { once: true }))
  link.click()
  if (link.href.startsWith('javascript:')) await refused
  return {
    title: document.title,
    protocol: location.protocol,
    marks: Object.keys(document.documentElement.dataset).sort().join(' '),
    dataFrame: frames.length > 1 ? frames[1].length : -1,
  }
}
`

const mark = (name: string) => `document.documentElement.dataset.${name} = '1'`

/** A page that tries every way of running script that a saved page can hold. */
const SCRIPTED = `<!DOCTYPE html><html><head><title>Quiet</title><script>${mark('inline')}</script></head>
<body onload="${mark('onload')}">
<iframe srcdoc="<script>parent.${mark('srcdoc')}</script>"></iframe>
<iframe src="data:text/html,<script>document.documentElement.appendChild(document.createElement('iframe'))</script>"></iframe>
<img src="/missing.png" onerror="${mark('onerror')}">
<svg><script>${mark('svg')}</script></svg>
<a id="js" href="javascript:void(${mark('javascript')})">run</a>
</body></html>`

describe('site-skills test: how fixtures are served', () => {
  it('serves an http:// example URL that Chromium upgrades to https://, and runs no script of the page', async () => {
    const { dir, cleanup } = await makeTempDir('served-')
    try {
      const url = 'http://example.com/p'
      const manifest = browserSkill('example.com', [
        { name: 'upgraded', args: {}, url, fixture: 'fixtures/p.html', expect: { title: 'Quiet' } },
        {
          name: 'no-script',
          args: {},
          url: 'https://example.com/q',
          fixture: 'fixtures/q.html',
          expect: { title: 'Quiet', marks: '', dataFrame: 0 },
        },
      ])
      await writeTree(dir, {
        'site/manifest.json': manifest,
        'site/browser-tools/probe.js': MARKS,
        'site/fixtures/p.html': fixture(url, '<!DOCTYPE html><title>Quiet</title><a id="js">x</a>'),
        'site/fixtures/q.html': fixture('https://example.com/q', SCRIPTED),
      })
      const run = await runBin(['test', '--root', dir, '--json'], { limitMs: DEADLINE_MS })
      expect(report(run).results).toEqual([
        { siteId: 'site', tool: 'probe', example: 'upgraded', status: 'pass', tokens: expect.any(Number) },
        { siteId: 'site', tool: 'probe', example: 'no-script', status: 'pass', tokens: expect.any(Number) },
      ])
      expectExit(run, 0)
    } finally {
      await cleanup()
    }
  })
})

/**
 * A hosts file for the spawned binary (loaded with --import): `api.example.com` is 127.0.0.1, so
 * a request the guard lets through reaches the test's server; any other name but localhost fails
 * here, so no real DNS query ever leaves the machine.
 */
const HOSTS = `import dns from 'node:dns'
import { syncBuiltinESMExports } from 'node:module'
const original = dns.lookup
dns.lookup = function lookup(host, options, callback) {
  if (typeof options === 'function') [callback, options] = [options, {}]
  if (host === 'localhost' || /^[\\d.]+$/.test(host)) return original.call(dns, host, options, callback)
  const all = [{ address: '127.0.0.1', family: 4 }]
  if (host !== 'api.example.com') return process.nextTick(() => callback(Object.assign(new Error('ENOTFOUND ' + host), { code: 'ENOTFOUND' })))
  process.nextTick(() => (options && options.all ? callback(null, all) : callback(null, '127.0.0.1', 4)))
}
syncBuiltinESMExports()
`

/** Tries every way out of a Node tool: fetch, http, https, a raw socket, DNS, UDP; `base` is "the network". */
const NODE_PROBE = `import dgram from 'node:dgram'
import dns from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
// What the guard refuses says so; anything else is shown as it is.
const outcome = (promise) =>
  promise.then((v) => v, (e) => (/site-skills test serves only/.test(e.message) ? 'refused' : 'error: ' + e.message))
const body = (res, resolve) => { let text = ''; res.on('data', (d) => (text += d)); res.on('end', () => resolve(text)) }
const get = (module, url) => new Promise((resolve, reject) => module.get(url, (res) => body(res, resolve)).on('error', reject))
export async function probe(ctx, args) {
  const { port } = new URL(args.base)
  return {
    fetch: await outcome(fetch(args.base + '/fetch').then((r) => r.text())),
    fetchFixture: await outcome(fetch(ctx.url).then((r) => r.text())),
    http: await outcome(get(http, args.base + '/http')),
    httpFixture: await outcome(get(http, ctx.url)),
    https: await outcome(get(https, 'https://api.example.com:' + port + '/https')),
    socket: await outcome(new Promise((resolve, reject) => net.connect(Number(port), 'api.example.com', () => resolve('connected')).on('error', reject))),
    dns: await outcome(dns.promises.lookup('api.example.com').then((r) => r.address)),
    udp: await outcome(new Promise((resolve) => { const s = dgram.createSocket('udp4'); s.send('x', Number(port), '127.0.0.1', () => { s.close(); resolve('sent') }) })),
  }
}
`

describe('site-skills test: what a Node example reaches', () => {
  let dir: string
  let cleanup: () => Promise<void>
  let connections = 0
  const server = createServer((_req, res) => res.end('the network'))
  server.on('connection', () => connections++)
  let base: string

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://api.example.com:${(server.address() as AddressInfo).port}`
    ;({ dir, cleanup } = await makeTempDir('offline-node-'))
    const url = 'http://api.example.com/page'
    await writeTree(dir, {
      'hosts.mjs': HOSTS,
      'api/manifest.json': {
        id: 'api',
        name: 'API',
        domains: ['api.example.com'],
        nodeTools: {
          probe: {
            description: 'Try every way out.',
            path: 'tools/probe.js',
            callable: 'probe',
            timeoutMs: 20_000,
            args: { base: { type: 'string', required: true, description: 'Where "the network" is.' } },
            returns: { type: 'object', description: 'What each way gave.' },
            examples: [
              {
                name: 'ways-out',
                args: { base },
                url,
                fixture: 'fixtures/page.txt',
                expect: {
                  fetch: 'refused',
                  fetchFixture: 'the fixture',
                  http: 'refused',
                  httpFixture: 'the fixture',
                  https: 'refused',
                  socket: 'refused',
                  dns: 'refused',
                  udp: 'refused',
                },
              },
            ],
          },
        },
      },
      'api/tools/probe.js': NODE_PROBE,
      'api/fixtures/page.txt': 'the fixture',
    })
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    await cleanup()
  })

  it('fetch and http(s) are served the fixture or refused like ctx.fetch; sockets, DNS and UDP are refused', async () => {
    const env = { NODE_OPTIONS: `--import ${pathToFileURL(join(dir, 'hosts.mjs')).href}` }
    const run = await runBin(['test', '--root', dir, '--json'], { limitMs: DEADLINE_MS, env })
    expect(connections).toBe(0)
    expect(report(run).results).toEqual([
      { siteId: 'api', tool: 'probe', example: 'ways-out', status: 'pass', tokens: expect.any(Number) },
    ])
    expectExit(run, 0)
  })
})

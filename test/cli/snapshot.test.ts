import { execFileSync } from 'node:child_process'
import { mkdir, readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import { type TestServer, startServer } from '../helpers/server'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { type Exited, runBin } from '../helpers/spawn'

function expectExit(run: Exited, code: number): void {
  expect({ code: run.code, timedOut: run.timedOut }, `after ${run.ms} ms; stderr: ${run.stderr}`).toEqual({
    code,
    timedOut: false,
  })
}

/** One line on stderr, no stack frame. */
function expectOneLine(run: Exited, start: string): void {
  expect(run.stderr.split('\n')).toEqual([expect.stringMatching(new RegExp(`^${start}`)), ''])
  expect(run.stderr).not.toMatch(/\n\s+at /)
}

const manifest = (id: string, domain = '127.0.0.1') => ({ id, name: id, domains: [domain] })

/** The page after the fixture's header comment. */
const pageOf = (fixture: string) => fixture.slice(fixture.indexOf('-->\n') + 4)

/** A login form after a "show password" click, a CSRF token, a one-time code, scripts in every hiding place. */
const LOGIN = `<!DOCTYPE html><title>Login</title>
<iframe srcdoc="<p id=inner>inner</p><script>document.body.dataset.ran = 1</script><img src=x onerror=console.log(1)><a href='javascript:console.log(2)'>a</a>"></iframe>
<a id="js" href=" JavaScript:console.log(3)">js</a>
<form action="javascript:console.log(4)"><button formaction="javascript:console.log(5)">go</button></form>
<svg><script>console.log(6)</script><a href="javascript:console.log(7)"><text>t</text></a></svg>
<input id="shown" type="password" autocomplete="current-password" value="markup-secret-0">
<input name="new_pw" autocomplete="new-password">
<input name="user_password">
<input type="hidden" name="authenticity_token" value="csrf-secret-4">
<input name="code" autocomplete="one-time-code">
<input name="q">
<script>
  const set = (selector, value) => { document.querySelector(selector).value = value }
  set('#shown', 'typed-secret-1')
  document.querySelector('#shown').type = 'text'
  set('[name=new_pw]', 'typed-secret-2')
  set('[name=user_password]', 'typed-secret-3')
  set('[name=code]', '123456')
  set('[name=q]', 'lamp')
  document.title = 'Login ready'
</script>`

describe('site-skills snapshot: what it writes, and where', () => {
  let browser: LaunchedBrowser
  let server: TestServer
  let cdp: string

  beforeAll(async () => {
    browser = await launchBrowser()
    cdp = `127.0.0.1:${browser.port}`
    server = await startServer({ '/login': LOGIN })
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  const snapshot = (root: string, site: string, url: string, name = 'page') =>
    runBin(['snapshot', url, '--site', site, '--name', name, '--cdp', cdp, '--root', root])

  it('never writes through a symlink out of the skill, nor into a FIFO; a symlink inside is followed', async () => {
    const { dir, cleanup } = await makeTempDir('snapshot-links-')
    const tab = await browser.newPage(server.url('/plain'))
    try {
      await writeTree(dir, {
        'outside/page.html': 'KEEP',
        'outside-dir/.keep': '',
        'root/linked-file/manifest.json': manifest('linked-file'),
        'root/linked-file/fixtures/page.html': { symlink: '../../../outside/page.html' },
        'root/linked-dir/manifest.json': manifest('linked-dir'),
        'root/linked-dir/fixtures': { symlink: '../../outside-dir' },
        'root/inner/manifest.json': manifest('inner'),
        'root/inner/saved/page.html': 'old',
        'root/inner/fixtures/page.html': { symlink: '../saved/page.html' },
        'root/fifo/manifest.json': manifest('fifo'),
      })
      await mkdir(join(dir, 'root/fifo/fixtures'))
      execFileSync('mkfifo', [join(dir, 'root/fifo/fixtures/page.html')])
      const root = join(dir, 'root')
      const url = server.url('/plain')

      const file = await snapshot(root, 'linked-file', url)
      expectExit(file, 1)
      expectOneLine(file, 'site-skills: path-escape: .*linked-file/fixtures/page.html leads to .*outside/page.html')
      expect(await readFile(join(dir, 'outside/page.html'), 'utf8')).toBe('KEEP')

      const folder = await snapshot(root, 'linked-dir', url)
      expectExit(folder, 1)
      expectOneLine(folder, 'site-skills: path-escape: .*linked-dir/fixtures leads to .*outside-dir')
      expect(await readdir(join(dir, 'outside-dir'))).toEqual(['.keep'])

      const fifo = await snapshot(root, 'fifo', url)
      expectExit(fifo, 1)
      expectOneLine(fifo, 'site-skills: file-not-regular: .*fifo/fixtures/page.html is not a regular file')

      const inner = await snapshot(root, 'inner', url)
      expectExit(inner, 0)
      expect(await readFile(join(dir, 'root/inner/saved/page.html'), 'utf8')).toContain('<title>/plain</title>')
    } finally {
      await tab.close()
      await cleanup()
    }
  })

  it('keeps no script (srcdoc, SVG, javascript: URLs) and no value of a field that is or was secret', async () => {
    const { dir, cleanup } = await makeTempDir('snapshot-secrets-')
    const tab = await browser.newPage(server.url('/login'))
    try {
      await writeTree(dir, { 'shop/manifest.json': manifest('shop') })
      const run = await snapshot(dir, 'shop', server.url('/login'), 'login')
      expectExit(run, 0)
      const html = pageOf(await readFile(join(dir, 'shop/fixtures/login.html'), 'utf8'))
      expect(html).toContain('<title>Login ready</title>')
      expect(html).toContain('<input name="q" value="lamp">')
      expect(html).toMatch(/<iframe srcdoc="[^"]*inner/)
      for (const secret of ['secret-0', 'secret-1', 'secret-2', 'secret-3', 'secret-4', '123456'])
        expect(html, secret).not.toContain(secret)
      expect(html).not.toMatch(/script|javascript|console|onerror/i)
    } finally {
      await tab.close()
      await cleanup()
    }
  })

  it("takes only a tab on the skill's domains, not one whose URL merely contains the text", async () => {
    const { dir, cleanup } = await makeTempDir('snapshot-domain-')
    const tab = await browser.newPage(server.url('/elsewhere?next=http://owned.test/page'))
    try {
      await writeTree(dir, { 'owned/manifest.json': manifest('owned', 'owned.test') })
      const run = await snapshot(dir, 'owned', 'http://owned.test/page')
      expectExit(run, 1)
      expectOneLine(run, 'site-skills: target-not-found: no tab at http://owned.test/page')
      expect(await readdir(join(dir, 'owned'))).toEqual(['manifest.json'])
    } finally {
      await tab.close()
      await cleanup()
    }
  })

  it('says in one line when --cdp is not a DevTools endpoint', async () => {
    const { dir, cleanup } = await makeTempDir('snapshot-cdp-')
    try {
      await writeTree(dir, { 'shop/manifest.json': manifest('shop') })
      const address = server.origin.replace('http://', '')
      const run = await runBin(['snapshot', server.url('/x'), '--site', 'shop', '--cdp', address, '--root', dir])
      expectExit(run, 1)
      expectOneLine(run, `site-skills: disconnected: ${address} is not a DevTools endpoint`)
    } finally {
      await cleanup()
    }
  })
})

describe('site-skills new: every failure is one line with a code', () => {
  it('a 300-character id, a root that is a file, an existing folder, a dangling symlink', async () => {
    const { dir, cleanup } = await makeTempDir('new-')
    try {
      await writeTree(dir, {
        'a-file': 'not a folder',
        'root/taken/manifest.json': manifest('taken'),
        'root/dangling': { symlink: '../nowhere' },
      })
      const long = await runBin(['new', 'a'.repeat(300), '--domain', 'x.example.com', '--root', join(dir, 'root')])
      expectExit(long, 2)
      expectOneLine(
        long,
        'site-skills: invalid skill id "a{60}"\\.\\.\\. \\(300 characters\\): use lowercase letters, digits and dashes, at most 128 characters',
      )
      const file = await runBin(['new', 'ok', '--domain', 'x.example.com', '--root', join(dir, 'a-file')])
      expectExit(file, 1)
      expectOneLine(file, 'site-skills: file-unwritable: cannot create .*a-file/ok: ')
      const taken = await runBin(['new', 'taken', '--domain', 'x.example.com', '--root', join(dir, 'root')])
      expectExit(taken, 1)
      expectOneLine(taken, 'site-skills: skill-exists: .*root/taken already exists')
      const dangling = await runBin(['new', 'dangling', '--domain', 'x.example.com', '--root', join(dir, 'root')])
      expectExit(dangling, 1)
      expectOneLine(dangling, 'site-skills: skill-exists: .*root/dangling already exists')
      await expect(readdir(join(dir, 'nowhere'))).rejects.toThrow()
      // A good one is still made, every file of it.
      const made = await runBin(['new', 'fresh', '--domain', 'x.example.com', '--root', join(dir, 'root')])
      expectExit(made, 0)
      expect((await readdir(join(dir, 'root/fresh'), { recursive: true })).sort()).toEqual([
        'browser-tools',
        'browser-tools/page-headings.js',
        'fixtures',
        'fixtures/home.html',
        'manifest.json',
        'notes',
        'notes/overview.md',
      ])
    } finally {
      await cleanup()
    }
  })
})

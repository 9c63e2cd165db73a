import { cp, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type ViteDevServer, createServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { command } from '../../runtime/cdp'
import type { LaunchedBrowser, LaunchedPage } from '../../runtime/launch'
import { launchBrowser } from '../../runtime/launch'
import { playgroundConfig } from '../../playground/config'
import { createRecord, writeRecord } from '../../src/verification/record'
import { evaluate } from '../helpers/browser'
import { REPO_ROOT, makeTempDir } from '../helpers/tmp'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let server: ViteDevServer
let browser: LaunchedBrowser
let page: LaunchedPage
let roots: string

/** What `read` gives once `ok` holds of it (a read that throws is "not yet"); fails after `timeoutMs`. */
function waitFor<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const check = async () => {
    const value = await read()
    if (!ok(value)) throw new Error(`waiting for ${what}; last: ${JSON.stringify(value)}`)
    return value
  }
  return vi.waitFor(check, { timeout: timeoutMs, interval: 50 })
}

const text = (selector: string) =>
  evaluate(page.client, `document.querySelector(${JSON.stringify(selector)})?.textContent ?? ''`) as Promise<string>

beforeAll(async () => {
  tmp = await makeTempDir('explorer-')
  roots = join(tmp.dir, 'learnings')
  await cp(join(REPO_ROOT, 'learnings'), roots, { recursive: true })
  // A record as `site-skills test --record` writes it, for the explorer to show.
  const dir = join(roots, 'hacker-news')
  const results = [{ siteId: 'hacker-news', tool: 'search', example: 'stories', status: 'pass' as const }]
  const pkg = { name: 'unplugin-site-skills', version: '9.9.9' }
  const date = new Date('2026-11-30T08:15:00Z')
  await writeRecord(dir, await createRecord({ siteId: 'hacker-news', dir, results, live: true, package: pkg, date }))
  server = await createServer({
    ...playgroundConfig({ roots, dts: join(tmp.dir, 'site-skills.d.ts') }),
    configFile: false,
    logLevel: 'silent',
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: true },
  })
  await server.listen()
  browser = await launchBrowser()
  page = await browser.newPage(server.resolvedUrls!.local[0]!)
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await tmp?.cleanup()
})

describe('skills explorer', () => {
  it('lists every skill with domains, typed tools and rendered notes', async () => {
    const summary = await waitFor(
      () => text('#summary'),
      (t) => /\d+ skills/.test(t),
      'the summary',
    )
    expect(summary).toMatch(/^6 skills, \d+ tools$/)
    const ids = (await evaluate(
      page.client,
      '[...document.querySelectorAll(".skill")].map((e) => e.dataset.skill)',
    )) as string[]
    expect(ids).toEqual(['demo-shop', 'github', 'google-workspace', 'hacker-news', 'mdn', 'wikipedia'])
    expect(await text('#skill-hacker-news .domains')).toContain('news.ycombinator.com')
    expect(await text('#skill-hacker-news .verified')).toBe(
      'verified 2026-11-30 08:15 UTC with unplugin-site-skills 9.9.9 on fixtures and live pages: 1 passed, 0 failed',
    )
    expect(await text('#skill-mdn .verified')).toBe('not verified (no verification.json)')
    expect(await text('#skill-demo-shop [data-tool="add_to_cart"]')).toMatch(/browser.*productId: string/s)
    const notes = await waitFor(
      () =>
        evaluate(
          page.client,
          'document.querySelector("[data-notes=demo-shop] h3, [data-notes=demo-shop] h4")?.textContent ?? ""',
        ) as Promise<string>,
      (t) => t.length > 0,
      'rendered notes',
    )
    expect(notes).toBeTruthy()
  })

  it('shows which skills match a typed URL', async () => {
    await evaluate(page.client, 'document.getElementById("url").focus()')
    await page.client.send('Input.insertText', { text: 'https://en.wikipedia.org/wiki/Chrome_DevTools' })
    expect(
      await waitFor(
        () => text('#matches'),
        (t) => t.startsWith('Matches'),
        'matches',
      ),
    ).toBe('Matches: wikipedia')
    expect(await evaluate(page.client, 'document.querySelector("#skill-wikipedia").classList.contains("match")')).toBe(
      true,
    )
    await evaluate(page.client, 'document.getElementById("url").select()')
    await page.client.send('Input.insertText', { text: 'https://example.org/' })
    expect(
      await waitFor(
        () => text('#matches'),
        (t) => t.startsWith('No skill'),
        'no match',
      ),
    ).toBe('No skill matches this URL.')
    const shot = await command(page.client, 'Page.captureScreenshot', { format: 'png' })
    await mkdir(join(REPO_ROOT, 'test/artifacts'), { recursive: true })
    await writeFile(join(REPO_ROOT, 'test/artifacts/explorer.png'), Buffer.from(shot.data, 'base64'))
  })

  it("shows a tool's urls and offers it only on the pages they admit", async () => {
    expect(await text('#skill-github [data-tool="read_repo"] .urls')).toBe('/:owner/:repo/:owner/:repo/*')
    const offered = () =>
      evaluate(
        page.client,
        '[...document.querySelectorAll("#skill-github tr.offered")].map((r) => r.dataset.tool).join(",")',
      ) as Promise<string>
    const typeUrl = async (url: string) => {
      await evaluate(page.client, 'document.getElementById("url").select()')
      await page.client.send('Input.insertText', { text: url })
    }
    await typeUrl('https://github.com/vitejs/vite/issues/1')
    expect(await waitFor(offered, (t) => t.includes('read_repo'), 'read_repo offered')).toBe(
      'get_repository,search_repositories,list_issues,read_repo,read_issue',
    )
    await typeUrl('https://github.com/')
    expect(await waitFor(offered, (t) => !t.includes('read_repo'), 'read_repo left out')).toBe(
      'get_repository,search_repositories,list_issues',
    )
    expect(await text('#matches')).toBe('Matches: github')
  })

  it('updates live when a learning changes', async () => {
    const manifest = join(roots, 'hacker-news/manifest.json')
    const original = await readFile(manifest, 'utf8')
    await writeFile(manifest, original.replace('"name": "Hacker News"', '"name": "Hacker News (edited)"'))
    await waitFor(
      () => text('#skill-hacker-news h2'),
      (t) => t.includes('(edited)'),
      'the edited name',
    )
    await cp(join(roots, 'mdn'), join(roots, 'mdn-copy'), { recursive: true })
    const copy = join(roots, 'mdn-copy/manifest.json')
    await writeFile(
      copy,
      (await readFile(copy, 'utf8'))
        .replace('"id": "mdn"', '"id": "mdn-copy"')
        // The domain and every example's url: the copy's examples must be on its own domain.
        .replaceAll('developer.mozilla.org', 'mdn-copy.example.org'),
    )
    await waitFor(
      () => text('#summary'),
      (t) => t.startsWith('7 skills'),
      'the new skill',
    )
  })
})

import { cp, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type ViteDevServer, createServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { command } from '../../runtime/cdp'
import type { LaunchedBrowser, LaunchedPage } from '../../runtime/launch'
import { launchBrowser } from '../../runtime/launch'
import { playgroundConfig } from '../../playground/config'
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

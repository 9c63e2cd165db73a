import { join } from 'node:path'
import { type ViteDevServer, createServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type LaunchedBrowser, type LaunchedPage, launchBrowser } from '../../runtime/launch'
import { BROKEN_DIAGNOSTICS, BROKEN_SKILLS, diagnosticSections, writeBrokenProject } from '../helpers/broken'
import { vitePlugin } from '../helpers/bundlers'
import { evaluate } from '../helpers/browser'
import { makeTempDir, writeTree } from '../helpers/tmp'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let server: ViteDevServer
let browser: LaunchedBrowser
let page: LaunchedPage

/** The broken skills, fixed. */
const FIXED: Record<string, string> = {
  'learnings/alpha/manifest.json': BROKEN_SKILLS['learnings/alpha/manifest.json']!.replace('{},\n}', '{}\n}'),
  'learnings/beta/manifest.json': BROKEN_SKILLS['learnings/beta/manifest.json']!.replace('12', '"Beta"'),
}

beforeAll(async () => {
  tmp = await makeTempDir('overlay-')
  await writeBrokenProject(tmp.dir)
  const main = "import { skills } from 'virtual:site-skills'\ndocument.title = `skills: ${skills.length}`\n"
  await writeTree(tmp.dir, { ...FIXED, 'main.js': main })
  const plugins = [vitePlugin({ dts: false })]
  const options = { root: tmp.dir, configFile: false as const, logLevel: 'silent' as const, plugins }
  server = await createServer({ ...options, server: { port: 0, host: '127.0.0.1' } })
  await server.listen()
  // The plugin adds the skill folders to Vite's watcher, which reads them in the background: an edit
  // made before it watches a folder is never seen (under load, that was the broken manifest below).
  const skillDirs = ['alpha', 'beta'].map((id) => join(tmp.dir, 'learnings', id))
  await vi.waitFor(
    () => {
      const watched = server.watcher.getWatched()
      for (const dir of skillDirs) expect(watched[dir] ?? []).toContain('manifest.json')
    },
    { timeout: 30_000, interval: 50 },
  )
  browser = await launchBrowser()
  page = await browser.newPage(server.resolvedUrls!.local[0]!)
})

afterAll(async () => {
  await page?.close()
  await browser?.close()
  await server?.close()
  await tmp?.cleanup()
})

interface Overlay {
  plugin: string
  message: string
  file: string
  stack: string
  /** Texts of the overlay's links to the editor. */
  links: string[]
}

const READ_OVERLAY = `(() => {
  const root = document.querySelector('vite-error-overlay')?.shadowRoot
  if (!root) return null
  const text = (selector) => root.querySelector(selector)?.textContent ?? ''
  return { plugin: text('.plugin'), message: text('.message-body'), file: text('.file'), stack: text('.stack'),
    links: [...root.querySelectorAll('.file-link')].map((a) => a.textContent) }
})()`

/** What `read` gives once `ok` holds of it (a read that throws is "not yet"); fails after `timeoutMs`. */
function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const check = async () => {
    const value = await read()
    if (!ok(value)) throw new Error(`waiting for ${what}; last: ${JSON.stringify(value)}`)
    return value
  }
  return vi.waitFor(check, { timeout: timeoutMs, interval: 50 })
}

const overlay = () => evaluate(page.client, READ_OVERLAY) as Promise<Overlay | null>
/**
 * The overlay once it shows every one of `texts`. A file can be seen half-written (an empty manifest is
 * an error too), and the overlay then shows that error until the next refresh: wait for the final one.
 */
const overlayWith = async (...texts: string[]) =>
  (await until(overlay, (o) => texts.every((t) => o?.message.includes(t)), `the overlay with ${texts.join(', ')}`))!
const title = () => evaluate(page.client, 'document.title') as Promise<string>
const abs = (d: (typeof BROKEN_DIAGNOSTICS)[number]) => `${join(tmp.dir, d.file)}:${d.line}:${d.column}`

describe("Vite's error overlay in a browser", () => {
  it('shows the page while the learnings are valid', async () => {
    expect(await until(title, (t) => t === 'skills: 2', 'the page')).toBe('skills: 2')
    expect(await overlay()).toBeNull()
  })

  it("shows a broken manifest's code, message, location as a link, frame and hint", async () => {
    const [alpha] = BROKEN_DIAGNOSTICS
    await writeTree(tmp.dir, { [alpha.file]: BROKEN_SKILLS[alpha.file] })
    const shown = await overlayWith(alpha.head)
    expect(shown.plugin).toBe('[plugin:unplugin-site-skills] ')
    expect(shown.message).toContain('[site-skills] 1 error in 1 skill')
    const [section] = diagnosticSections(shown.message, [alpha.head])
    for (const line of [...alpha.frame, alpha.hint]) expect(section).toContain(line)
    expect(shown.file).toBe(abs(alpha))
    expect(shown.links).toEqual([abs(alpha), abs(alpha)])
    expect(shown.message).not.toContain('unavailable')
  })

  it('shows every error when several skills are broken, each with its frame and a link', async () => {
    await writeTree(tmp.dir, BROKEN_SKILLS)
    const shown = await overlayWith(...BROKEN_DIAGNOSTICS.map((d) => d.head))
    expect(shown.message).toContain('[site-skills] 2 errors in 2 skills')
    const sections = diagnosticSections(
      shown.message,
      BROKEN_DIAGNOSTICS.map((d) => d.head),
    )
    BROKEN_DIAGNOSTICS.forEach((d, i) => {
      for (const line of [...d.frame, d.hint]) expect(sections[i]).toContain(line)
    })
    expect(shown.file).toBe(abs(BROKEN_DIAGNOSTICS[0]))
    // The first as the overlay's file, then every error's location from the stack.
    expect(shown.links).toEqual([abs(BROKEN_DIAGNOSTICS[0]), ...BROKEN_DIAGNOSTICS.map(abs)])
  })

  it('goes away once the learnings are fixed, and the page runs again', async () => {
    await writeTree(tmp.dir, FIXED)
    await until(overlay, (o) => o === null, 'the overlay to go')
    expect(await until(title, (t) => t === 'skills: 2', 'the page')).toBe('skills: 2')
  })
})

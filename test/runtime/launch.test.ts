import { existsSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isSiteToolError } from '../../runtime/errors'
import { browserCandidates } from '../../runtime/browsers'
import { findBrowser, type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import { evaluate } from '../helpers/browser'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(() => server?.close())

async function reachable(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/json/version`).then(
    (r) => r.ok,
    () => false,
  )
}

async function exercise(browser: LaunchedBrowser): Promise<void> {
  expect(browser.host).toBe('127.0.0.1')
  expect(browser.port).toBeGreaterThan(0)
  expect(browser.wsEndpoint).toMatch(new RegExp(`^ws://127\\.0\\.0\\.1:${browser.port}/devtools/browser/[\\w-]+$`))
  const page = await browser.newPage(server.url('/query?a=1&b=2&c=%20x#frag'))
  expect(await evaluate(page.client, 'location.pathname + location.search + location.hash')).toBe(
    '/query?a=1&b=2&c=%20x#frag',
  )
  expect(await evaluate(page.client, 'document.readyState')).toBe('complete')
  const ids = async () =>
    ((await fetch(`http://127.0.0.1:${browser.port}/json/list`).then((r) => r.json())) as { id: string }[]).map(
      (t) => t.id,
    )
  expect(await ids()).toContain(page.targetId)
  await page.close()
  expect(await ids()).not.toContain(page.targetId)
}

async function closesCleanly(browser: LaunchedBrowser): Promise<void> {
  expect(existsSync(browser.userDataDir)).toBe(true)
  await browser.close()
  await browser.close()
  expect(await reachable(browser.port)).toBe(false)
  expect(existsSync(browser.userDataDir)).toBe(false)
}

describe('findBrowser', () => {
  it('prefers CHROME_PATH, else finds an installed browser', async () => {
    const saved = process.env.CHROME_PATH
    try {
      process.env.CHROME_PATH = '/opt/some/chrome'
      expect(await findBrowser()).toBe('/opt/some/chrome')
      delete process.env.CHROME_PATH
      const found = await findBrowser()
      expect(existsSync(found)).toBe(true)
      // Debian's /usr/bin/chromium is a shell wrapper: the real binary is used instead.
      if (existsSync('/usr/lib/chromium/chromium')) expect(found).not.toBe('/usr/bin/chromium')
    } finally {
      if (saved === undefined) delete process.env.CHROME_PATH
      else process.env.CHROME_PATH = saved
    }
  })
})

describe('browserCandidates (found without a launcher package)', () => {
  it('Linux: the browser commands on PATH, most likely first, then the usual install paths', () => {
    const paths = browserCandidates({ platform: 'linux', env: { PATH: '/usr/local/bin:relative:/usr/bin' } })
    expect(paths.slice(0, 4)).toEqual([
      '/usr/local/bin/google-chrome-stable',
      '/usr/bin/google-chrome-stable',
      '/usr/local/bin/google-chrome',
      '/usr/bin/google-chrome',
    ])
    expect(paths).not.toContain('relative/chromium')
    expect(paths).toContain('/opt/google/chrome/chrome')
    // Debian's wrapper script comes after the binary it starts; elsewhere it is the browser itself.
    expect(paths.indexOf('/usr/lib/chromium/chromium')).toBeLessThan(paths.indexOf('/usr/bin/chromium'))
    expect(new Set(paths).size).toBe(paths.length)
  })

  it('macOS: Chrome, Chromium and Canary in /Applications and ~/Applications', () => {
    const paths = browserCandidates({ platform: 'darwin', env: { HOME: '/Users/me', PATH: '/usr/bin' } })
    expect(paths[0]).toBe('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome')
    expect(paths).toContain('/Users/me/Applications/Chromium.app/Contents/MacOS/Chromium')
    expect(paths.every((path) => path.includes('.app/Contents/MacOS/'))).toBe(true)
  })

  it('Windows: chrome.exe under LOCALAPPDATA, PROGRAMFILES and PROGRAMFILES(X86), set ones only', () => {
    const env = { LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local', PROGRAMFILES: 'C:\\Program Files' }
    const paths = browserCandidates({ platform: 'win32', env })
    expect(paths[0]).toBe('C:\\Users\\me\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe')
    expect(paths).toContain('C:\\Program Files\\Google\\Chrome SxS\\Application\\chrome.exe')
    expect(paths.some((path) => path.startsWith('undefined'))).toBe(false)
  })
})

describe('launchBrowser', () => {
  it('starts headless on a free port with a fresh profile, opens pages, and cleans up', async () => {
    const launched = await Promise.allSettled([launchBrowser(), launchBrowser()])
    const browsers = launched.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))
    try {
      expect(launched.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled'])
      const [one, two] = browsers as [LaunchedBrowser, LaunchedBrowser]
      expect(one.port).not.toBe(two.port)
      expect(one.userDataDir).not.toBe(two.userDataDir)
      expect(existsSync(one.executablePath)).toBe(true)
      await exercise(one)
      expect(await reachable(two.port)).toBe(true)
    } finally {
      await Promise.all(browsers.map(closesCleanly))
    }
  })

  it('runs the Chromium shipped by @sparticuz/chromium', async () => {
    const chromium = (await import('@sparticuz/chromium')).default
    const browser = await launchBrowser({ executablePath: await chromium.executablePath() })
    try {
      await exercise(browser)
    } finally {
      await closesCleanly(browser)
    }
  })

  it('fails with "unavailable" when the binary cannot start', async () => {
    const error = await launchBrowser({ executablePath: '/nonexistent/chrome' }).catch((e: unknown) => e)
    expect(isSiteToolError(error, 'unavailable')).toBe(true)
    expect(String(error)).toContain('did not start')
  })

  it('rejects a page that cannot load, and closes it', async () => {
    const browser = await launchBrowser()
    try {
      const gone = await startServer()
      await gone.close()
      const error = await browser.newPage(gone.url('/nothing-here')).catch((e: unknown) => e)
      expect(String(error)).toMatch(/cannot open .*: net::ERR_CONNECTION_REFUSED/)
      const pages = (await fetch(`http://127.0.0.1:${browser.port}/json/list`).then((r) => r.json())) as {
        url: string
      }[]
      expect(pages.filter((t) => t.url.includes('/nothing-here'))).toEqual([])
    } finally {
      await closesCleanly(browser)
    }
  })
})

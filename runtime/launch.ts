import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { installedBrowser } from './browsers'
import { type CdpClient, command, listen } from './cdp'
import { loadCri } from './connect'
import { importOptional } from './optional'
import { errorMessage } from './error-catalog'
import { siteToolError, useMessages } from './errors'
import { markProfile, PROFILE_PREFIX, sweepStaleProfiles } from './profiles'

// Node-only and never part of the runtime's first load: its errors have their messages at once.
useMessages(errorMessage)

/** How to start a browser. */
export interface LaunchOptions {
  /** The browser binary. @default $CHROME_PATH, else an installed Chrome or Chromium, else `@sparticuz/chromium` */
  executablePath?: string
  /** @default true */
  headless?: boolean
  /** Extra command-line flags. */
  args?: string[]
}

/** A tab opened by `newPage`, with its own chrome-remote-interface client (Page domain enabled). */
export interface LaunchedPage {
  targetId: string
  client: CdpClient
  close(): Promise<void>
}

/** A running browser with a fresh profile, reachable over CDP on a free port of 127.0.0.1. */
export interface LaunchedBrowser {
  host: string
  port: number
  /** The browser's own WebSocket endpoint. */
  wsEndpoint: string
  executablePath: string
  /** The fresh profile folder, removed by `close`. */
  userDataDir: string
  /** Opens a tab and resolves once `url` has loaded. */
  newPage(url: string): Promise<LaunchedPage>
  /** Closes the browser (killed after a grace period) and removes its profile. */
  close(): Promise<void>
}

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
const HOST = '127.0.0.1'
const START_TIMEOUT_MS = 30_000
const LOAD_TIMEOUT_MS = 30_000
const EXIT_GRACE_MS = 5_000

const noop = () => {}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Settles as `promise` does, or as `onTimeout` does after `ms`; the timer never outlives it. */
async function within<T>(promise: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => resolve(), ms)
  }).then(onTimeout)
  try {
    return await Promise.race([promise, late])
  } finally {
    clearTimeout(timer)
  }
}

async function bundledChromium(): Promise<string> {
  try {
    const chromium = await importOptional<{ default: { executablePath(): Promise<string> } }>('@sparticuz/chromium')
    return await chromium.default.executablePath()
  } catch (cause) {
    throw siteToolError('unavailable', { missing: 'chrome' }, { cause })
  }
}

/** The browser binary: `$CHROME_PATH`, else an installed Chrome or Chromium, else `@sparticuz/chromium`. */
export async function findBrowser(): Promise<string> {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH
  return installedBrowser() ?? bundledChromium()
}

function browserArgs(options: LaunchOptions, profile: string): string[] {
  const headless = options.headless === false ? [] : ['--headless']
  return [
    ...headless,
    ...FLAGS,
    `--user-data-dir=${profile}`,
    '--remote-debugging-port=0',
    ...(options.args ?? []),
    'about:blank',
  ]
}

/** Keeps the last part of the browser's stderr, for the message when it fails to start. */
function stderrTail(child: ChildProcess): () => string {
  let text = ''
  child.stderr?.on('data', (chunk: Buffer) => (text = (text + chunk.toString()).slice(-2000)))
  return () => text.trim()
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null
}

/** Polls `DevToolsActivePort`, which the browser writes once it listens: `port\npath`. */
async function readActivePort(
  profile: string,
  child: ChildProcess,
  log: () => string,
): Promise<{ port: number; path: string }> {
  let failure: Error | undefined
  child.once('error', (error) => (failure = error))
  for (const started = Date.now(); Date.now() - started < START_TIMEOUT_MS; await sleep(25)) {
    const [port, path] = (await readFile(join(profile, 'DevToolsActivePort'), 'utf8').catch(() => '')).split('\n')
    if (port && path) return { port: Number(port), path }
    if (failure || hasExited(child)) break
  }
  const why =
    failure?.message ??
    (hasExited(child) ? `exited with ${child.exitCode ?? child.signalCode}` : `not ready after ${START_TIMEOUT_MS} ms`)
  throw siteToolError('unavailable', { start: why, log: log() })
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (hasExited(child)) return Promise.resolve(true)
  return within(new Promise((resolve) => child.once('exit', () => resolve(true))), ms, () => false)
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (await waitExit(child, EXIT_GRACE_MS)) return
  child.kill('SIGKILL')
  await waitExit(child, EXIT_GRACE_MS)
}

/** Navigates and waits for the load event; a failed navigation throws with Chrome's reason. */
async function navigate(client: CdpClient, url: string): Promise<void> {
  await command(client, 'Page.enable')
  let unlisten = noop
  const loaded = new Promise<void>((resolve) => {
    unlisten = listen(client, 'Page.loadEventFired', () => resolve(), true)
  })
  try {
    const { errorText } = await command(client, 'Page.navigate', { url })
    if (errorText) throw new Error(`cannot open ${url}: ${errorText}`)
    await within(loaded, LOAD_TIMEOUT_MS, () => {
      throw new Error(`${url} did not load within ${LOAD_TIMEOUT_MS} ms`)
    })
  } finally {
    unlisten()
  }
}

function createBrowser(
  child: ChildProcess,
  profile: string,
  executablePath: string,
  port: number,
  path: string,
): LaunchedBrowser {
  const wsEndpoint = `ws://${HOST}:${port}${path}`
  const pages = new Set<CdpClient>()
  let browserClient: Promise<CdpClient> | undefined
  let closing: Promise<void> | undefined
  const connect = (target: string) => loadCri().then((cri) => cri({ target, local: true }))
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)

  async function newPage(url: string): Promise<LaunchedPage> {
    browserClient ??= connect(wsEndpoint)
    const browser = await browserClient
    const { targetId } = await command(browser, 'Target.createTarget', { url: 'about:blank' })
    const client = await connect(`ws://${HOST}:${port}/devtools/page/${targetId}`)
    pages.add(client)
    const close = async () => {
      pages.delete(client)
      // Chrome drops the page's socket once the tab is really gone; closeTarget answers before.
      const gone = new Promise((resolve) => client.once('disconnect', resolve))
      await command(browser, 'Target.closeTarget', { targetId }).catch(noop)
      await within(gone, EXIT_GRACE_MS, noop)
      await client.close().catch(noop)
    }
    await navigate(client, url).catch(async (error: unknown) => {
      await close()
      throw error
    })
    return { targetId, client, close }
  }

  async function shutdown(): Promise<void> {
    const browser = await (browserClient ?? connect(wsEndpoint)).catch(() => undefined)
    // Chrome may exit before it answers Browser.close.
    if (browser) await within(command(browser, 'Browser.close').catch(noop), EXIT_GRACE_MS, noop)
    await stopProcess(child)
    await Promise.all([...pages, ...(browser ? [browser] : [])].map((c) => c.close().catch(noop)))
    process.off('exit', killOnExit)
    await rm(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 })
  }

  return {
    host: HOST,
    port,
    wsEndpoint,
    executablePath,
    userDataDir: profile,
    newPage,
    close: () => (closing ??= shutdown()),
  }
}

/** Starts the browser on a new profile in `temp`, which names the browser's pid (see profiles.ts). */
async function start(executablePath: string, options: LaunchOptions, temp: string): Promise<LaunchedBrowser> {
  const profile = await mkdtemp(join(temp, PROFILE_PREFIX))
  const child = spawn(executablePath, browserArgs(options, profile), { stdio: ['ignore', 'ignore', 'pipe'] })
  try {
    if (child.pid !== undefined) await markProfile(profile, child.pid)
    const { port, path } = await readActivePort(profile, child, stderrTail(child))
    return createBrowser(child, profile, executablePath, port, path)
  } catch (error) {
    if (child.pid !== undefined && child.kill('SIGKILL')) await waitExit(child, EXIT_GRACE_MS)
    await rm(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 })
    throw error
  }
}

/**
 * Starts Chrome or Chromium with a fresh profile in the OS temp folder and
 * `--remote-debugging-port=0`; the port is read from the profile, so launches never collide.
 * Meanwhile the profiles that killed or crashed processes left there, whose browser is gone, are removed.
 */
export async function launchBrowser(options: LaunchOptions = {}): Promise<LaunchedBrowser> {
  const executablePath = options.executablePath ?? (await findBrowser())
  const temp = tmpdir()
  const sweeping = sweepStaleProfiles(temp)
  try {
    return await start(executablePath, options, temp)
  } finally {
    await sweeping
  }
}

/**
 * Where Chrome and Chromium are installed, found without a launcher package: the usual install
 * paths of each platform and the browser commands on PATH. The launcher itself is `launch.ts`.
 */
import { existsSync } from 'node:fs'
import { delimiter, posix, win32 } from 'node:path'

/** What the search depends on: the platform and its environment (`process` by default). */
export interface BrowserSearch {
  platform: NodeJS.Platform
  env: NodeJS.ProcessEnv
}

/** Commands that start Chrome or Chromium on Linux and the BSDs, most likely first. */
const UNIX_COMMANDS = ['google-chrome-stable', 'google-chrome', 'chromium', 'chromium-browser', 'chrome']
// Debian's /usr/bin/chromium is a shell wrapper; the browser is started as its own process.
const DEBIAN_WRAPPER = '/usr/bin/chromium'
const DEBIAN_BINARY = '/usr/lib/chromium/chromium'
const UNIX_PATHS = ['/opt/google/chrome/chrome', DEBIAN_BINARY, '/snap/bin/chromium']

const MAC_APPS = [
  'Google Chrome.app/Contents/MacOS/Google Chrome',
  'Chromium.app/Contents/MacOS/Chromium',
  'Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary',
]
const WINDOWS_APPS = [
  'Google\\Chrome\\Application\\chrome.exe',
  'Chromium\\Application\\chrome.exe',
  'Google\\Chrome SxS\\Application\\chrome.exe',
]

function unixCandidates(env: NodeJS.ProcessEnv): string[] {
  const dirs = (env.PATH ?? '').split(delimiter).filter((dir) => dir.startsWith('/'))
  const onPath = UNIX_COMMANDS.flatMap((name) => dirs.map((dir) => posix.join(dir, name)))
  return [...onPath, ...UNIX_PATHS]
}

function macCandidates(env: NodeJS.ProcessEnv): string[] {
  const folders = ['/Applications', ...(env.HOME ? [posix.join(env.HOME, 'Applications')] : [])]
  return MAC_APPS.flatMap((app) => folders.map((folder) => posix.join(folder, app)))
}

function windowsCandidates(env: NodeJS.ProcessEnv): string[] {
  const bases = [env.LOCALAPPDATA, env.PROGRAMFILES, env['PROGRAMFILES(X86)']].filter((base) => !!base) as string[]
  return WINDOWS_APPS.flatMap((app) => bases.map((base) => win32.join(base, app)))
}

/**
 * The paths where a browser may be, most likely first (pure: nothing is read from disk). Debian's
 * binary comes before its wrapper script, which is the browser itself on other distributions.
 */
export function browserCandidates({ platform, env }: BrowserSearch): string[] {
  const found =
    platform === 'darwin' ? macCandidates(env) : platform === 'win32' ? windowsCandidates(env) : unixCandidates(env)
  const paths = found.flatMap((path) => (path === DEBIAN_WRAPPER ? [DEBIAN_BINARY, path] : [path]))
  return [...new Set(paths)]
}

/** The first installed browser of `browserCandidates`, or undefined. */
export function installedBrowser(search: BrowserSearch = process): string | undefined {
  return browserCandidates(search).find((path) => existsSync(path))
}

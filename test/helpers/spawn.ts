import { type ChildProcess, spawn } from 'node:child_process'
import { delimiter, join, sep } from 'node:path'
import { REPO_ROOT } from './tmp'

/** The outcome of a process run to its end (or killed at the time limit): every helper's result. */
export interface Exited {
  /** The exit code; null when the process was killed. */
  code: number | null
  stdout: string
  stderr: string
  /** Killed at the time limit: the process did not exit on its own. */
  timedOut: boolean
  /** Wall time from spawn to exit. */
  ms: number
}

/** The binary a user runs (`npx site-skills`). */
export const BIN = join(REPO_ROOT, 'bin/site-skills.js')

/** Environment without the variables that choose a root, so each test picks its own. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  delete env.SITE_SKILLS_ROOT
  delete env.EGO_BROWSER_AGENT_WORKSPACE
  return { ...env, NO_COLOR: '1', ...extra }
}

export interface RunOptions {
  cwd: string
  env?: NodeJS.ProcessEnv
  /** Killed after this long (default 10 s: a one-shot command that needs more has hung). */
  limitMs?: number
}

/** Default time limit: a one-shot command that needs more has hung (the machine is shared, so not 1 s). */
const LIMIT_MS = 10_000

/**
 * Children not yet exited, killed when this test process exits: a test that vitest stops at its
 * timeout before the child's own limit would otherwise leave the child running after the suite.
 */
const running = new Set<ChildProcess>()
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/**
 * Collects a child's output until it exits on its own; `kill` stops it once `limitMs` has passed
 * (the result then says `killed`). The one place tests wait for a process with a deadline.
 */
export function waitForExit(
  child: ChildProcess,
  limitMs: number,
  kill: () => void = () => child.kill('SIGKILL'),
): Promise<Exited> {
  const started = performance.now()
  let stdout = ''
  let stderr = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  let timedOut = false
  running.add(child)
  const timer = setTimeout(() => {
    timedOut = true
    kill()
  }, limitMs)
  return new Promise((resolve, reject) => {
    child.on('error', (error) => {
      clearTimeout(timer)
      running.delete(child)
      reject(error)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      running.delete(child)
      resolve({ code, stdout, stderr, timedOut, ms: Math.round(performance.now() - started) })
    })
  })
}

/** Runs `node ...args` and waits for it to exit on its own; kills it after `limitMs`. */
export function runNode(args: string[], options: RunOptions): Promise<Exited> {
  const env = options.env ?? cleanEnv()
  const child = spawn(process.execPath, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  return waitForExit(child, options.limitMs ?? LIMIT_MS)
}

export interface BinOptions {
  /** Default: the repository. */
  cwd?: string
  /** Added to the clean environment (cleanEnv). */
  env?: Record<string, string>
  /** Killed after this long (default 10 s). */
  limitMs?: number
}

/** Runs the real `bin/site-skills.js` as a user does, and waits for it to exit (killed after `limitMs`). */
export function runBin(argv: string[], options: BinOptions = {}): Promise<Exited> {
  const { cwd = REPO_ROOT, env = {}, limitMs } = options
  return runNode([BIN, ...argv], { cwd, env: cleanEnv(env), limitMs })
}

/**
 * Runs several commands one after another (not at once: on a loaded machine, parallel starts
 * would eat into each other's time limit) and returns their runs in order.
 */
export async function runEach<const T extends readonly string[][]>(
  list: T,
  options: BinOptions = {},
): Promise<Runs<T>> {
  const runs: Exited[] = []
  for (const args of list) runs.push(await runBin([...args], options))
  return runs as Runs<T>
}

/** One run per command of the list, keeping its length (so destructuring needs no checks). */
export type Runs<T extends readonly unknown[]> = { [K in keyof T]: Exited }

/** What a person's shell has: no npm script, Vitest or site-skills variables of the test run. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  const leaveOut = /^(npm_|vitest|vite_|tsx_|node_env$|node_options$|site_skills_|ego_browser_agent_)/i
  for (const [key, value] of Object.entries(process.env)) if (!leaveOut.test(key)) env[key] = value
  // npm scripts put this repository's node_modules/.bin on PATH; a user's shell has none of it.
  const path = (env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes(`${sep}node_modules${sep}`))
  return { ...env, PATH: path.join(delimiter), NO_COLOR: '1' }
}

/**
 * Runs `command args` (npm, npx, a bundler) in `cwd` as a user would from a shell, without one. Kills the process tree
 * after `timeoutMs` and reports `timedOut`, so a hang fails the test instead of stalling it.
 */
export function runAsUser(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
  env: Record<string, string> = {},
): Promise<Exited> {
  const child = spawn(command, args, {
    cwd,
    env: { ...userEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  const killGroup = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
    } catch {
      // the group is already gone: nothing left to stop
    }
  }
  return waitForExit(child, timeoutMs, killGroup)
}

/** `"npx vite build --ssr agent.ts"` as [command, args]; README commands have no quoting. */
export function words(line: string): [string, string[]] {
  const [command = '', ...args] = line.trim().split(/\s+/)
  return [command, args]
}

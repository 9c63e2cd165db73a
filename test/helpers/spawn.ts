import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { REPO_ROOT } from './tmp'

/** The outcome of a process run to its end (or killed at the time limit). */
export interface Exited {
  code: number | null
  stdout: string
  stderr: string
  /** Killed at the time limit: the process did not exit on its own. */
  killed: boolean
  ms: number
}

export const BIN = join(REPO_ROOT, 'bin/site-skills.js')

/** Environment without the variables that choose a root, so each test picks its own. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...extra }
  delete env.SITE_SKILLS_ROOT
  delete env.EGO_BROWSER_AGENT_WORKSPACE
  return env
}

export interface RunOptions {
  cwd: string
  env?: NodeJS.ProcessEnv
  /** Killed after this long (default 10 s). */
  limitMs?: number
}

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
  let killed = false
  running.add(child)
  const timer = setTimeout(() => {
    killed = true
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
      resolve({ code, stdout, stderr, killed, ms: Math.round(performance.now() - started) })
    })
  })
}

/** Runs `node ...args` and waits for it to exit on its own; kills it after `limitMs`. */
export function runNode(args: string[], options: RunOptions): Promise<Exited> {
  const env = options.env ?? cleanEnv()
  const child = spawn(process.execPath, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  return waitForExit(child, options.limitMs ?? 10_000)
}

/** Runs the real `bin/site-skills.js`. */
export function runBin(argv: string[], cwd: string, limitMs?: number): Promise<Exited> {
  return runNode([BIN, ...argv], { cwd, limitMs })
}

import { spawn } from 'node:child_process'
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

/** Runs `node ...args` and waits for it to exit on its own; kills it after `limitMs`. */
export function runNode(args: string[], options: RunOptions): Promise<Exited> {
  const started = performance.now()
  const env = options.env ?? cleanEnv()
  const child = spawn(process.execPath, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
  let killed = false
  const timer = setTimeout(() => {
    killed = true
    child.kill('SIGKILL')
  }, options.limitMs ?? 10_000)
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr, killed, ms: performance.now() - started })
    })
  })
}

/** Runs the real `bin/site-skills.js`. */
export function runBin(argv: string[], cwd: string, limitMs?: number): Promise<Exited> {
  return runNode([BIN, ...argv], { cwd, limitMs })
}

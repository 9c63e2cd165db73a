import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { waitForExit } from './spawn'
import { REPO_ROOT } from './tmp'

/** The binary a user runs (`npx site-skills`). */
const BIN = join(REPO_ROOT, 'bin/site-skills.js')

/** How a spawned process ended. */
export interface SpawnRun {
  /** The exit code; null when the process was killed. */
  code: number | null
  stdout: string
  stderr: string
  /** True when the process was still running at the deadline and had to be killed. */
  timedOut: boolean
  /** Wall time from spawn to exit. */
  ms: number
}

export interface SpawnOptions {
  cwd?: string
  /** Added to a clean environment (no SITE_SKILLS_ROOT, no EGO_BROWSER_AGENT_WORKSPACE, NO_COLOR=1). */
  env?: Record<string, string>
  /** Kill the process when it has not exited by then. */
  deadlineMs?: number
}

/** Default deadline: a one-shot command that needs more has hung (the machine is shared, so not 1 s). */
const DEADLINE_MS = 8000

function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && key !== 'SITE_SKILLS_ROOT' && key !== 'EGO_BROWSER_AGENT_WORKSPACE') env[key] = value
  }
  return { ...env, NO_COLOR: '1', ...extra }
}

/** Spawns `node bin/site-skills.js ...args` and waits for it to exit, killing it at the deadline. */
export function spawnCli(args: string[], options: SpawnOptions = {}): Promise<SpawnRun> {
  const { cwd = REPO_ROOT, env = {}, deadlineMs = DEADLINE_MS } = options
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  return waitForExit(child, deadlineMs).then(({ killed, ...run }) => ({ ...run, timedOut: killed }))
}

/**
 * Spawns several commands one after another (not at once: on a loaded machine, parallel starts
 * would eat into each other's deadline) and returns their runs in order.
 */
export async function spawnEach<const T extends readonly string[][]>(
  list: T,
  options: SpawnOptions = {},
): Promise<Runs<T>> {
  const runs: SpawnRun[] = []
  for (const args of list) runs.push(await spawnCli([...args], options))
  return runs as Runs<T>
}

/** One run per command of the list, keeping its length (so destructuring needs no checks). */
export type Runs<T extends readonly unknown[]> = { [K in keyof T]: SpawnRun }

import { spawn } from 'node:child_process'
import { delimiter, sep } from 'node:path'
import { type Exited, waitForExit } from '../helpers/spawn'

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
 * Runs `command args` in `cwd` as a user would from a shell, without one. Kills the process tree
 * after `timeoutMs` and reports `timedOut`, so a hang fails the test instead of stalling it.
 */
export function run(
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

/**
 * Entry of the benchmark child processes (bundled and forked by spawn.ts):
 * `node child.mjs <task> <json args>`; the result goes back over IPC with the process's peak RSS.
 */
import { esbuildPeakKb } from './proc'

type Task = (args: never) => Promise<unknown>

/**
 * Each task takes its own arguments (`never` accepts a function of any argument type), and is
 * imported only when it runs (the bundle is split there, see spawn.ts).
 */
const TASKS: Record<string, () => Promise<Task>> = {
  'vite-build': async () => (await import('./build')).viteBuildTask,
  'esbuild-only': async () => (await import('./build')).esbuildOnlyTask,
  'original-validate': async () => (await import('./build')).originalValidateTask,
  idle: async () => (await import('./memory')).idleTask,
  'vite-alone': async () => (await import('./served')).viteAloneTask,
  rebuild: async () => (await import('./rebuild')).rebuildTask,
  'dev-update': async () => (await import('./dev')).devUpdateTask,
  'dev-idle': async () => (await import('./idle')).devIdleTask,
  'memory-stages': async () => (await import('./stages')).memoryStagesTask,
  'small-build': async () => (await import('./small-task')).smallBuildTask,
  'validate-floor': async () => (await import('./validate')).validateFloorTask,
}

/** Over IPC when forked by spawn.ts; printed when run by hand (e.g. under `node --cpu-prof`). */
function report(message: object): Promise<void> {
  if (!process.send) return Promise.resolve(void console.log(JSON.stringify(message, null, 2)))
  return new Promise((resolve) => process.send!(message, () => resolve()))
}

async function main(): Promise<void> {
  const [name = '', json = '{}'] = process.argv.slice(2)
  const load = TASKS[name]
  if (!load) throw new Error(`unknown benchmark task ${JSON.stringify(name)}`)
  // spawn.ts builds the JSON for the task it names.
  const value = await (await load())(JSON.parse(json) as never)
  const result = { value, maxRssKb: process.resourceUsage().maxRSS, esbuildRssKb: await esbuildPeakKb() }
  await report({ ok: true, result })
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error)
    const maxRssKb = process.resourceUsage().maxRSS
    await report({ ok: false, error: text.split('\n').slice(0, 6).join('\n'), maxRssKb })
    process.exit(1)
  },
)

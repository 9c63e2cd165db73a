import { readdir, readFile } from 'node:fs/promises'

/** Pids of this process's esbuild service processes (Linux /proc). */
async function esbuildPids(): Promise<string[]> {
  const tasks = await readdir('/proc/self/task').catch(() => [] as string[])
  const pids: string[] = []
  for (const task of tasks) {
    const children = (await readFile(`/proc/self/task/${task}/children`, 'utf8').catch(() => ''))
      .split(' ')
      .filter(Boolean)
    for (const pid of children)
      if ((await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim() === 'esbuild') pids.push(pid)
  }
  return pids
}

/** Peak RSS (KiB) of this process's esbuild service. */
export async function esbuildPeakKb(): Promise<number | undefined> {
  let peak: number | undefined
  for (const pid of await esbuildPids()) {
    const hwm = /VmHWM:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''))
    if (hwm) peak = Math.max(peak ?? 0, Number(hwm[1]))
  }
  return peak
}

const TICK_MS = 10

/**
 * CPU time (user + system, ms) used so far by this process and its esbuild service. On a shared
 * machine it moves far less than wall time when other work competes for the cores.
 */
export async function cpuMs(): Promise<number> {
  const own = process.cpuUsage()
  let ticks = 0
  for (const pid of await esbuildPids()) {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')).split(') ')[1]?.split(' ') ?? []
    ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0)
  }
  return (own.user + own.system) / 1000 + ticks * TICK_MS
}

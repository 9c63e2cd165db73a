/** Median, min and max of a set of runs. */
export interface Summary {
  median: number
  min: number
  max: number
  runs: number
}

export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, runs: 0 }
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
  return { median, min: sorted[0]!, max: sorted.at(-1)!, runs: sorted.length }
}

export async function timeMs(fn: () => unknown): Promise<number> {
  const start = performance.now()
  await fn()
  return performance.now() - start
}

/** Milliseconds per call of an async `fn`, awaited call after call for at least `minMs` and `minCalls` calls. */
export async function perCall(fn: (i: number) => Promise<unknown>, minMs = 25, minCalls = 1): Promise<number> {
  let calls = 0
  const start = performance.now()
  while (calls < minCalls || performance.now() - start < minMs) await fn(calls++)
  return (performance.now() - start) / calls
}

/** Samples of several measures taken in the same runs, and ratios between them per run. */
export class Samples {
  private readonly values = new Map<string, number[]>()

  add(name: string, value: number): void {
    const list = this.values.get(name) ?? []
    list.push(value)
    this.values.set(name, list)
  }

  has(name: string): boolean {
    return (this.values.get(name)?.length ?? 0) > 0
  }

  get(name: string): Summary {
    return summarize(this.values.get(name) ?? [])
  }

  /** `a / b` for each run in which both were measured. */
  ratio(a: string, b: string): Summary {
    const xs = this.values.get(a) ?? []
    const ys = this.values.get(b) ?? []
    return summarize(xs.slice(0, ys.length).map((x, i) => x / ys[i]!))
  }
}

/**
 * Runs `runs` rounds of the measures, in a rotating order so that none always runs first (or
 * right after the most expensive one). Each measure returns its value for that round (none to skip).
 * `firstRun` continues the rotation of an earlier call.
 */
export async function rounds(
  runs: number,
  measures: Record<string, () => Promise<number | undefined>>,
  samples = new Samples(),
  firstRun = 0,
): Promise<Samples> {
  const names = Object.keys(measures)
  for (let run = firstRun; run < firstRun + runs; run++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(run + k) % names.length]!
      const value = await measures[name]!()
      if (value !== undefined) samples.add(name, value)
    }
  }
  return samples
}

/**
 * For measures of similar cost: each run makes `rounds` rounds of one batch of every function (order
 * rotating per round), so that load changes hit all of them alike. A batch returns its time per call;
 * a run's sample is the median over its rounds, which a preempted batch does not move.
 */
export async function interleaved(
  runs: number,
  rounds: number,
  batches: Record<string, () => number | Promise<number>>,
  samples = new Samples(),
): Promise<Samples> {
  const names = Object.keys(batches)
  for (let run = 0; run < runs; run++) {
    const times = new Map<string, number[]>(names.map((n) => [n, []]))
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(round + k) % names.length]!
        times.get(name)!.push(await batches[name]!())
      }
    }
    for (const name of names) samples.add(name, summarize(times.get(name)!).median)
  }
  return samples
}

/** A batch of `n` calls of a synchronous function, timed: its time per call. */
export function syncBatch(fn: (i: number) => unknown, n: number): () => number {
  let next = 0
  return () => {
    const start = performance.now()
    for (let i = 0; i < n; i++) fn(next++)
    return (performance.now() - start) / n
  }
}

/** A batch of `n` awaited calls (one after the other), timed: its time per call. */
export function asyncCall(fn: (i: number) => Promise<unknown>, n = 1): () => Promise<number> {
  let next = 0
  return async () => {
    const start = performance.now()
    for (let i = 0; i < n; i++) await fn(next++)
    return (performance.now() - start) / n
  }
}

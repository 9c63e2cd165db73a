import { availableParallelism } from 'node:os'

/** Part `index` (1-based) of `count` equal parts: `--shard 2/3`, as Playwright and Vitest write it. */
export interface Shard {
  index: number
  count: number
}

/** The most examples run at once by default: more only queue in the browser on a few cores. */
const DEFAULT_MOST_WORKERS = 4

/** Examples at once when `--workers` is not given: one per core, 1 to DEFAULT_MOST_WORKERS. */
export function defaultWorkers(cores = availableParallelism()): number {
  return Math.max(1, Math.min(DEFAULT_MOST_WORKERS, cores))
}

/**
 * The examples of one shard: the whole list cut into `count` contiguous parts whose sizes differ by
 * at most one, part `index` of them. The list's own order is the stable one (skills in root and
 * directory order, tools and examples in manifest order), so every shard of every run gets the same
 * examples, and the shards 1..count together are the list, each example exactly once.
 */
export function shardOf<T>(items: readonly T[], shard: Shard): T[] {
  const start = Math.floor(((shard.index - 1) * items.length) / shard.count)
  const end = Math.floor((shard.index * items.length) / shard.count)
  return items.slice(start, end)
}

/**
 * Runs `work` on every item, at most `workers` at a time, and hands each result to `each` in the
 * items' order (a result waits for those before it), so what is reported is the same whatever
 * order the work ends in. Resolves with every result, in order.
 *
 * `phaseOf` (default: all 0) holds items back: an item of a later phase starts only once every
 * item of the earlier phases has ended. The test runner puts Node examples before browser ones, so
 * a Node call that nothing can settle is found while no browser keeps the process alive.
 */
export async function runInOrder<T, R>(
  items: readonly T[],
  workers: number,
  work: (item: T) => Promise<R>,
  each: (result: R) => void = () => {},
  phaseOf: (item: T) => number = () => 0,
): Promise<R[]> {
  const results: R[] = new Array(items.length)
  const done: boolean[] = new Array(items.length).fill(false)
  const phases = items.map(phaseOf)
  // Start order: by phase, then the items' own order (a stable sort).
  const order = items.map((_, index) => index).sort((a, b) => phases[a]! - phases[b]! || a - b)
  const ended = new Map<number, { left: number; all: Promise<void>; end: () => void }>()
  for (const phase of phases) {
    const entry = ended.get(phase)
    if (entry) entry.left++
    else {
      let end = () => {}
      const all = new Promise<void>((resolve) => (end = resolve))
      ended.set(phase, { left: 1, all, end })
    }
  }
  const before = (phase: number) => Promise.all([...ended].filter(([p]) => p < phase).map(([, entry]) => entry.all))
  let next = 0
  let reported = 0
  const report = () => {
    while (reported < items.length && done[reported]) each(results[reported++]!)
  }
  const worker = async () => {
    while (next < order.length) {
      const index = order[next++]!
      const phase = phases[index]!
      // Every item of an earlier phase has started already (the order is by phase): no deadlock.
      await before(phase)
      try {
        results[index] = await work(items[index]!)
      } catch (error) {
        // The run is over: the other workers finish what they hold and take nothing more.
        next = order.length
        throw error
      } finally {
        const entry = ended.get(phase)!
        if (--entry.left === 0) entry.end()
      }
      done[index] = true
      report()
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, items.length)) }, worker))
  return results
}

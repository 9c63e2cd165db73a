/**
 * A queue shared by many callers: at most `limit` of the functions given to it run at once, the
 * others wait in call order.
 */
export function createLimiter(limit: number): <R>(fn: () => Promise<R>) => Promise<R> {
  let active = 0
  const waiting: (() => void)[] = []
  return async (fn) => {
    if (active >= limit) await new Promise<void>((start) => waiting.push(start))
    else active++
    try {
      return await fn()
    } finally {
      const next = waiting.shift()
      if (next) next()
      else active--
    }
  }
}

/** Splits a list into consecutive slices of at most `size` items. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

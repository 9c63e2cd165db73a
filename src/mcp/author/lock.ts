/** Runs work one after another per key: two writes to one skill never interleave, two skills go at once. */
export function createLocks(): <T>(key: string, work: () => Promise<T>) => Promise<T> {
  const queues = new Map<string, Promise<unknown>>()
  return (key, work) => {
    const before = queues.get(key) ?? Promise.resolve()
    const next = before.catch(() => undefined).then(work)
    queues.set(key, next)
    const forget = () => {
      if (queues.get(key) === next) queues.delete(key)
    }
    next.then(forget, forget)
    return next
  }
}

/** Calls `compute` after each `trigger` (one after another) and `send` when its value changed. */
export function createWatch(compute: () => Promise<string>, send: () => void) {
  let last: string | undefined
  let queue = Promise.resolve()
  return () => {
    queue = queue
      .then(async () => {
        const now = await compute()
        // The first look is the baseline: a client that connects lists what is there.
        if (last !== undefined && now !== last) send()
        last = now
      })
      .catch(() => undefined)
  }
}

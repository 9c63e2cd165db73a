/**
 * The tabs opened for a client that no session ends (2026-07-28 over HTTP: its requests carry no
 * identity, so nothing says when it is gone): at most `max` of them, and none left unnamed by a
 * call for longer than `idleMs`. A tab past either limit is closed when another is about to open.
 */
export interface TabPool {
  /** A tab of the pool was opened, or named by a call. */
  touch: (targetId: string) => void
  /** A tab closed. */
  forget: (targetId: string) => void
  /** The tabs to close before one more opens: the idle ones, then the least recently named until one fits. */
  makeRoom: (now: number) => string[]
}

export function createTabPool(max: number, idleMs: number, clock: () => number = Date.now): TabPool {
  /** Target id -> when it was last named, least recent first (a Map keeps insertion order). */
  const named = new Map<string, number>()
  return {
    touch(targetId) {
      named.delete(targetId)
      named.set(targetId, clock())
    },
    forget: (targetId) => void named.delete(targetId),
    makeRoom(now) {
      const out: string[] = []
      for (const [targetId, at] of named) {
        if (now - at <= idleMs && named.size - out.length < max) break
        out.push(targetId)
      }
      for (const targetId of out) named.delete(targetId)
      return out
    },
  }
}

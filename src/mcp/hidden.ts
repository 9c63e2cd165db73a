/** Hidden contexts let go of but never seen with a page, kept at most this many (the oldest go first). */
const UNSEEN_MAX = 256

/**
 * The browser contexts whose pages no client ever sees (the server's own test runs open them), by
 * the browser's id. A context is dropped from the table once its maker let go of it (`release`, after
 * disposing it) and every page seen in it is destroyed: the page events come on another connection
 * than the dispose, so one may still be on its way when the maker lets go, and must still be hidden.
 * A context let go of before any page of it was seen waits for one, at most UNSEEN_MAX of them.
 */
export interface HiddenContexts {
  hide: (browserContextId: string) => void
  /** Its maker disposed it. */
  release: (browserContextId: string) => void
  /** Whether a page is in a hidden context (it is then remembered as one of its pages). */
  claims: (targetId: string, browserContextId: string | undefined) => boolean
  /** A page is gone. */
  destroyed: (targetId: string) => void
  /** A new connection: these are the pages there are now (the others went while it was down). */
  retain: (targetIds: ReadonlySet<string>) => void
  /** Contexts in the table (a test hook of DEBUG=site-skills). */
  readonly size: number
}

interface Hidden {
  pages: Set<string>
  seen: boolean
  released: boolean
}

export function createHiddenContexts(): HiddenContexts {
  const table = new Map<string, Hidden>()
  const settle = (id: string) => {
    const entry = table.get(id)
    if (entry?.released && entry.seen && entry.pages.size === 0) table.delete(id)
  }
  const capUnseen = () => {
    const unseen = [...table].filter(([, e]) => e.released && !e.seen)
    for (const [id] of unseen.slice(0, Math.max(0, unseen.length - UNSEEN_MAX))) table.delete(id)
  }
  return {
    hide: (id) => void table.set(id, { pages: new Set(), seen: false, released: false }),
    release(id) {
      const entry = table.get(id)
      if (!entry) return
      entry.released = true
      settle(id)
      capUnseen()
    },
    claims(targetId, id) {
      const entry = id === undefined ? undefined : table.get(id)
      if (!entry) return false
      entry.pages.add(targetId)
      entry.seen = true
      return true
    },
    destroyed(targetId) {
      for (const [id, entry] of table)
        if (entry.pages.delete(targetId)) {
          settle(id)
          return
        }
    },
    retain(targetIds) {
      for (const [id, entry] of table) {
        for (const page of entry.pages) if (!targetIds.has(page)) entry.pages.delete(page)
        settle(id)
      }
    },
    get size() {
      return table.size
    },
  }
}

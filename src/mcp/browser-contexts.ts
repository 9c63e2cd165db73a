import type { CdpSocket } from '../../runtime/internal'

/**
 * The browser contexts the server made for its clients, by the id it handed out. A context lives on
 * the connection that made it (made with `disposeOnDetach`, it goes with that connection): after a
 * reconnect it is made again on the new connection the first time it is used, under the same id,
 * so a client keeps a context of its own across a drop (its tabs there are gone with the old one).
 */
export interface ContextTable {
  create(): Promise<string>
  /** The browser's id of a context on the current connection (made again when it was lost). */
  current(id: string): Promise<string>
  /** The id handed out for a browser's context id (itself, for a context the table did not make). */
  idOf(browserContextId: string): string
  dispose(id: string): Promise<void>
  /** A new connection: every context is made anew when it is next used. */
  reset(): void
}

export function createContextTable(browser: () => Promise<CdpSocket>): ContextTable {
  /** Handed-out id -> the browser's id of it on the current connection. */
  const made = new Map<string, Promise<string>>()
  /** The browser's id -> the handed-out id. */
  const ids = new Map<string, string>()
  const known = new Set<string>()
  const make = async (id?: string) => {
    const reply = await (await browser()).send('Target.createBrowserContext', { disposeOnDetach: true })
    const real = (reply as { browserContextId: string }).browserContextId
    ids.set(real, id ?? real)
    return real
  }
  return {
    async create() {
      const real = await make()
      known.add(real)
      made.set(real, Promise.resolve(real))
      return real
    },
    current(id) {
      if (!known.has(id)) return Promise.resolve(id)
      let real = made.get(id)
      if (!real) {
        real = make(id)
        made.set(id, real)
        real.catch(() => made.delete(id))
      }
      return real
    },
    idOf: (real) => ids.get(real) ?? real,
    async dispose(id) {
      const real = await made.get(id)?.catch(() => undefined)
      known.delete(id)
      made.delete(id)
      if (!real) return
      ids.delete(real)
      await browser()
        .then((b) => b.send('Target.disposeBrowserContext', { browserContextId: real }))
        .catch(() => undefined)
    },
    reset() {
      made.clear()
      ids.clear()
    },
  }
}

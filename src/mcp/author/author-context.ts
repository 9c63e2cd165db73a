import type { Compat } from '../../compiler/compat'
import type { TestBrowser } from '../../examples/test-browser'
import type { ClientTabs } from '../clients'
import type { WatchedSkills } from '../watched-skills'
import type { Tabs } from '../tabs'

/** What every authoring call has: the root it may write, the server's skills and browser. */
export interface AuthorContext {
  /** The writable root (real path; a workspace given stands for its learnings/). */
  dir: string
  /** Every root of the server (real paths), the writable one among them. */
  roots: readonly string[]
  compat?: Compat
  skills: WatchedSkills
  tabs: Tabs
  /** A browser connection for fixture runs, its tabs hidden from the clients. */
  browser: () => Promise<TestBrowser>
  /** One write to a skill at a time. */
  locked: <T>(siteId: string, work: () => Promise<T>) => Promise<T>
  /** The served name of a tool once the server's skills hold it (undefined: not served, e.g. denied). */
  servedName: (siteId: string, tool: string) => Promise<string | undefined>
}

/** Who calls: the client (its tabs) and the call's signal. */
export interface Caller {
  client: ClientTabs
  signal: AbortSignal
}

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHost } from '../../src/mcp/host'
import { createWatchedSkills, type WatchedSkills } from '../../src/mcp/watched-skills'
import type { TabInfo, Tabs } from '../../src/mcp/tabs'
import { loadTokenizer } from '../../src/tokens/tokenizer'
import { writeTree } from '../helpers/tmp'

/*
 * The first list a client gets is the baseline its changes are told against. It was computed after
 * the skills' first compile: a tab that moved while that compile ran (a loaded CI machine) was in
 * the baseline, and the client that had listed the page before was never told (CI, stop 33).
 */
let root: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'site-skills-baseline-'))
  await writeTree(root, {
    'pipe/manifest.json': {
      id: 'pipe',
      name: 'Pipe',
      domains: ['pipe.test'],
      browserTools: {
        read: {
          description: 'Reads the page.',
          path: 'browser-tools/read.js',
          args: {},
          returns: { type: 'object', description: 'The data.' },
        },
      },
    },
    'pipe/browser-tools/read.js': 'export default async function () {\n  return {}\n}\n',
  })
})

afterAll(() => rm(root, { recursive: true, force: true }))

/** One tab whose URL the test moves, with the Target events the real browser sends. */
function oneTab(url: string): Tabs & { move: (to: string) => void } {
  const tab: TabInfo = { id: 'T1', url, title: '' }
  const listeners = new Set<(targetId: string, event: 'created' | 'changed' | 'closed') => void>()
  return {
    get: (id) => (id === tab.id ? tab : undefined),
    list: () => [tab],
    refresh: async (id) => (id === tab.id ? { ...tab } : undefined),
    session: () => Promise.reject(new Error('no sessions here')),
    navigate: () => Promise.reject(new Error('no navigation here')),
    open: () => Promise.reject(new Error('no new tabs here')),
    closeTab: async () => {},
    createContext: () => Promise.reject(new Error('no contexts here')),
    disposeContext: async () => {},
    hideContext: () => {},
    releaseContext: () => {},
    stats: () => ({ tabs: 1, sessions: 0, hidden: 0, leaving: 0 }),
    onChange(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    check: () => {},
    close: async () => {},
    move(to) {
      tab.url = to
      for (const listener of listeners) listener(tab.id, 'changed')
    },
  }
}

describe('site-skills mcp --tools page while the first compile is slow', () => {
  it('tells a client of a tab that moved onto a skill while the skills compiled', async () => {
    const real = createWatchedSkills({ roots: [root], filter: { allow: [], deny: [] }, log: () => {} })
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    const skills: WatchedSkills = { ...real, current: () => gate.then(real.current) }
    const tabs = oneTab('http://elsewhere.test/')
    const host = createHost(skills, tabs, { mode: 'page', budget: 4000, tokenizer: loadTokenizer, log: () => {} })
    try {
      const client = host.connect({ follows: true })
      const told: boolean[] = []
      client.onChange((changes) => told.push(changes.tools))
      const before = client.listTools()
      // The server answers the client's handshake; the compile goes on meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 50))
      tabs.move('http://pipe.test/')
      open()
      // The list asked for before the tab moved is of the old page.
      expect((await before).map((t) => t.name)).not.toContain('pipe__read')
      await expect.poll(() => told.includes(true), { timeout: 10_000 }).toBe(true)
      expect((await client.listTools()).map((t) => t.name)).toContain('pipe__read')
      await client.close()
    } finally {
      await host.close()
      real.close()
    }
  })
})

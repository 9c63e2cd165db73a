import { EventEmitter } from 'node:events'
import { writeFileSync } from 'node:fs'
import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ViteDevServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type RootContext, createRootContext } from '../../src/plugin/root-context'
import { attachDevServer } from '../../src/plugin/dev-server'
import { resolveOptions } from '../../src/plugin/options'
import { REPO_ROOT, makeTempDir } from '../helpers/tmp'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let root: string
beforeAll(async () => {
  tmp = await makeTempDir('dev-recheck-')
  root = join(tmp.dir, 'learnings')
  await cp(join(REPO_ROOT, 'test/fixtures/app/learnings'), root, { recursive: true })
})
afterAll(() => tmp.cleanup())

/** A dev server as `attachDevServer` uses it, whose watcher reports only the events a test emits. */
function fakeServer(): { server: ViteDevServer; watcher: EventEmitter } {
  const watcher = Object.assign(new EventEmitter(), { add: () => watcher })
  const logger = { warn: () => {}, error: () => {} }
  const server = { watcher, config: { logger, server: {} }, environments: {} } as unknown as ViteDevServer
  return { server, watcher }
}

describe('the dev server after a burst of changes', () => {
  // chokidar reports no second `change` of a file within 50 ms of the first: the watcher here
  // reports the first edit, and the second is made, unreported, right after the compile that read
  // the first (as chokidar drops it when the two come that close).
  it('looks again once the burst is over, and sees an edit its watcher did not report', async () => {
    const ctx = createRootContext(resolveOptions({ roots: root, dts: false }, tmp.dir), {
      root: tmp.dir,
      devServer: true,
    })
    await ctx.compile()
    const manifest = join(root, 'ext/manifest.json')
    const original = await readFile(manifest, 'utf8')
    const named = (name: string) => original.replace(/"name": "[^"]*"/, `"name": "${name}"`)
    const nameOf = () => ctx.last?.skills.find((s) => s.model.id === 'ext')?.model.name
    let refreshes = 0
    const refresh: RootContext['refresh'] = async () => {
      const done = await ctx.refresh()
      if (++refreshes === 1) writeFileSync(manifest, named('Second'))
      return done
    }
    const watched = new Proxy(ctx, { get: (target, key) => (key === 'refresh' ? refresh : Reflect.get(target, key)) })
    const { server, watcher } = fakeServer()
    // The dev server's own timers are faked (set up before it attaches), so that the test moves
    // time on and knows what is still scheduled; file reads and compiles run for real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
    const { stop } = attachDevServer(server, watched)
    try {
      await writeFile(manifest, named('First'))
      watcher.emit('all', 'change', manifest)
      // The debounced compile reads the first edit; the second, unreported, is made after it.
      await vi.advanceTimersToNextTimerAsync()
      await expect.poll(() => refreshes).toBe(1)
      expect(nameOf()).toBe('First')
      // The re-check once the burst is over sees it.
      await vi.runAllTimersAsync()
      await expect.poll(nameOf).toBe('Second')
      // Then nothing more: nothing is scheduled (no interval, no re-check), so no compile runs
      // until the watcher reports a change.
      expect(vi.getTimerCount()).toBe(0)
      expect(refreshes).toBe(2)
    } finally {
      stop()
      vi.useRealTimers()
    }
  })
})

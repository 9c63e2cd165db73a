import { EventEmitter } from 'node:events'
import { writeFileSync } from 'node:fs'
import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ViteDevServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SiteSkillsContext, createSiteSkillsContext } from '../../src/plugin/context'
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
  const server = { watcher, config: { logger }, environments: {} } as unknown as ViteDevServer
  return { server, watcher }
}

describe('the dev server after a burst of changes', () => {
  // chokidar reports no second `change` of a file within 50 ms of the first: the watcher here
  // reports the first edit, and the second is made, unreported, right after the compile that read
  // the first (as chokidar drops it when the two come that close).
  it('looks again once the burst is over, and sees an edit its watcher did not report', async () => {
    const ctx = createSiteSkillsContext(resolveOptions({ roots: root, dts: false }, tmp.dir), {
      root: tmp.dir,
      devServer: true,
    })
    await ctx.compile()
    const manifest = join(root, 'ext/manifest.json')
    const original = await readFile(manifest, 'utf8')
    const named = (name: string) => original.replace(/"name": "[^"]*"/, `"name": "${name}"`)
    const nameOf = () => ctx.last?.skills.find((s) => s.model.id === 'ext')?.model.name
    let refreshes = 0
    const refresh: SiteSkillsContext['refresh'] = async () => {
      const done = await ctx.refresh()
      if (++refreshes === 1) writeFileSync(manifest, named('Second'))
      return done
    }
    const watched = new Proxy(ctx, { get: (target, key) => (key === 'refresh' ? refresh : Reflect.get(target, key)) })
    const { server, watcher } = fakeServer()
    const stop = attachDevServer(server, watched)
    try {
      await writeFile(manifest, named('First'))
      watcher.emit('all', 'change', manifest)
      await expect.poll(() => refreshes).toBeGreaterThan(0)
      await expect.poll(nameOf).toBe('Second')
      // Then nothing more: no compile runs without a change.
      const compiles = ctx.compiles
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(ctx.compiles).toBe(compiles)
    } finally {
      stop()
    }
  })
})

import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { acquireEventBarrier } from '../../src/session/barrier'
import { createFolderWatcher } from '../../src/session/folder-watcher'
import { makeTempDir } from '../helpers/tmp'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('barrier-')
})
afterAll(() => tmp.cleanup())

describe('the event barrier', () => {
  it('resolves only once the events of every change made before it reached their watchers', async () => {
    const dirs = ['a', 'b', 'c'].map((name) => join(tmp.dir, name))
    for (const dir of dirs) mkdirSync(dir)
    const heard: string[] = []
    const watcher = createFolderWatcher(() => heard.push('event'))
    watcher.update(dirs)
    const barrier = acquireEventBarrier()!
    try {
      for (let round = 0; round < 50; round++) {
        heard.length = 0
        writeFileSync(join(dirs[round % 3]!, 'file.txt'), String(round))
        expect(await barrier.flush()).toBe(true)
        expect(heard.length, `round ${round}`).toBeGreaterThan(0)
      }
    } finally {
      barrier.release()
      watcher.close()
    }
  })

  it("is each holder's own: one released stops its flushes, not another's", async () => {
    const first = acquireEventBarrier()!
    const second = acquireEventBarrier()!
    expect(await first.flush()).toBe(true)
    first.release()
    first.release()
    expect(await first.flush()).toBe(false)
    expect(await second.flush()).toBe(true)
    second.release()
    const again = acquireEventBarrier()!
    expect(await again.flush()).toBe(true)
    again.release()
  })

  it('is not made where events come in no order', () => {
    expect(acquireEventBarrier('darwin')).toBeUndefined()
    expect(acquireEventBarrier('win32')).toBeUndefined()
  })
})

describe('the folder watcher', () => {
  it('watches a folder made again with the same path (and inode) after it was deleted', async () => {
    const dir = join(tmp.dir, 'again')
    mkdirSync(join(dir, 'inner'), { recursive: true })
    let events = 0
    const watcher = createFolderWatcher(() => events++)
    const barrier = acquireEventBarrier()!
    try {
      expect(watcher.update([dir, join(dir, 'inner')]).added).toBe(true)
      rmSync(join(dir, 'inner'), { recursive: true })
      mkdirSync(join(dir, 'inner'))
      await barrier.flush()
      // The old watcher of `inner` is gone: the next update makes a new one, which hears edits.
      expect(watcher.update([dir, join(dir, 'inner')]).added).toBe(true)
      events = 0
      writeFileSync(join(dir, 'inner/file.txt'), 'x')
      await barrier.flush()
      expect(events).toBeGreaterThan(0)
    } finally {
      barrier.release()
      watcher.close()
    }
  })
})

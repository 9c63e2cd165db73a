import { describe, expect, it } from 'vitest'
import { createLimiter } from '../../src/compiler/bundle/limit'

/** A task that stays in flight until released, recording how many ran at once. */
function tracker() {
  let running = 0
  let most = 0
  const started: string[] = []
  const releases = new Map<string, () => void>()
  const task = (name: string) => async () => {
    running++
    most = Math.max(most, running)
    started.push(name)
    await new Promise<void>((done) => releases.set(name, done))
    running--
    return name
  }
  const release = async (name: string) => {
    for (let i = 0; i < 20 && !releases.has(name); i++) await Promise.resolve()
    releases.get(name)!()
  }
  return { task, release, started, most: () => most }
}

describe('createLimiter', () => {
  it('holds its cap across separate callers and starts the waiting ones in call order', async () => {
    const limit = createLimiter(2)
    const t = tracker()
    // Two callers, as the compiler's slices are: each hands over its own work without waiting.
    const first = Promise.all(['a', 'b', 'c'].map((n) => limit(t.task(n))))
    const second = Promise.all(['d', 'e'].map((n) => limit(t.task(n))))
    await t.release('a')
    await t.release('b')
    await t.release('c')
    await t.release('d')
    await t.release('e')
    expect(await first).toEqual(['a', 'b', 'c'])
    expect(await second).toEqual(['d', 'e'])
    expect(t.most()).toBe(2)
    expect(t.started).toEqual(['a', 'b', 'c', 'd', 'e'])
  })

  it('frees the slot of a task that fails', async () => {
    const limit = createLimiter(1)
    const failed = limit(() => Promise.reject(new Error('boom')))
    const next = limit(async () => 'ran')
    await expect(failed).rejects.toThrow('boom')
    expect(await next).toBe('ran')
  })
})

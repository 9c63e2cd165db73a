import { describe, expect, it } from 'vitest'
import { createTabPool } from '../../src/mcp/tab-pool'

describe('the tabs of a client no session ends (2026-07-28 over HTTP)', () => {
  it('makes room for one more by closing the least recently named tab, once it holds the most', () => {
    let now = 0
    const pool = createTabPool(3, 1000, () => now)
    for (const id of ['a', 'b', 'c']) {
      expect(pool.makeRoom(now)).toEqual([])
      pool.touch(id)
      now += 10
    }
    pool.touch('a')
    expect(pool.makeRoom(now)).toEqual(['b'])
    pool.touch('d')
    expect(pool.makeRoom(now)).toEqual(['c'])
  })

  it('closes every tab no call named within the idle time, and forgets a closed one', () => {
    let now = 0
    const pool = createTabPool(10, 1000, () => now)
    pool.touch('a')
    pool.touch('b')
    now = 600
    pool.touch('c')
    pool.forget('c')
    now = 1500
    expect(pool.makeRoom(now)).toEqual(['a', 'b'])
    expect(pool.makeRoom(now)).toEqual([])
  })
})

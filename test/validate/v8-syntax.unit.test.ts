import { Worker } from 'node:worker_threads'
import { describe, expect, it, vi } from 'vitest'
import { compilesHere, createSyntaxChecker } from '../../src/compiler/validate/v8-syntax'

/** Scripts V8 accepts and rejects, a few hundred of them: a large tree's worth in one turn. */
function texts(count: number): string[] {
  const shapes = [
    (i: number) => `({m(a${i}){return a${i}+1}\n})`,
    (i: number) => `({m(a${i}){return a${i}+}\n})`,
    (i: number) => `(class{m(){}\nstatic x${i}=1})`,
    (i: number) => `"use strict";with(o${i}){}`,
    (i: number) => `({[async (x) => x * ${i}\n]:0})`,
    (i: number) => `({[(x) => x\n, ${i}]:0})`,
    (i: number) => `"use strict";const f${i} = \`\${1 + ${i}}\``,
    (i: number) => `"use strict";let a${i} = 1; let a${i} = 2`,
  ]
  return Array.from({ length: count }, (_, i) => shapes[i % shapes.length]!(i))
}

const checkAll = (compiles: (code: string) => Promise<boolean>, codes: readonly string[]) =>
  Promise.all(codes.map(compiles))

describe('V8 syntax checks on a worker thread', () => {
  it('checks a small batch here, and answers large ones on the worker exactly as here', async () => {
    const checker = createSyntaxChecker()
    const small = texts(8)
    expect(await checkAll(checker.compiles, small)).toEqual(small.map(compilesHere))
    expect(checker.counts()).toEqual({ here: 8, worker: 0 })

    // The first large batch starts the worker (and is checked here while it starts).
    const codes = texts(400)
    const expected = codes.map(compilesHere)
    expect(expected.filter(Boolean).length).toBe(200)
    expect(await checkAll(checker.compiles, codes)).toEqual(expected)
    expect(checker.counts()).toEqual({ here: 408, worker: 0 })
    // Once the worker is online, a batch goes to it.
    const onWorker = async () => {
      expect(await checkAll(checker.compiles, codes)).toEqual(expected)
      expect(checker.counts().worker).toBeGreaterThanOrEqual(codes.length)
    }
    await vi.waitFor(onWorker, { timeout: 20_000, interval: 20 })
  })
})

/** A thread class that fails in one of the ways a thread can, and says when it has. */
function failing(way: 'cannot be created' | 'fails once online' | 'exits while it owes answers') {
  let failed = false
  let made = 0
  const fail = () => {
    failed = true
  }
  const classes: Record<typeof way, typeof Worker> = {
    'cannot be created': class extends Worker {
      constructor(...args: ConstructorParameters<typeof Worker>) {
        made++
        fail()
        throw new Error('no threads here')
        // biome-ignore lint/correctness/noUnreachable: a subclass must call super
        super(...args)
      }
    },
    'fails once online': class extends Worker {
      constructor(...args: ConstructorParameters<typeof Worker>) {
        super(...args)
        made++
        this.once('online', () => {
          this.emit('error', new Error('gone'))
          fail()
        })
      }
    },
    'exits while it owes answers': class extends Worker {
      constructor(...args: ConstructorParameters<typeof Worker>) {
        super(...args)
        made++
      }
      override postMessage(): void {
        void this.terminate().then(fail)
      }
    },
  }
  return { Thread: classes[way], failed: () => failed, made: () => made }
}

describe('V8 syntax checks when the worker fails', () => {
  it.each(['cannot be created', 'fails once online', 'exits while it owes answers'] as const)(
    'checks here when the worker %s, with the same answers',
    async (way) => {
      const { Thread, failed, made } = failing(way)
      const checker = createSyntaxChecker({ Worker: Thread })
      const codes = texts(300)
      const expected = codes.map(compilesHere)
      let batches = 0
      // Large batches until the thread has failed (started, online, sent a batch: as the way needs).
      const untilFailed = async () => {
        batches++
        expect(await checkAll(checker.compiles, codes)).toEqual(expected)
        expect(failed()).toBe(true)
      }
      await vi.waitFor(untilFailed, { timeout: 20_000, interval: 20 })
      // Then every check stays here (no thread is tried again), and none was answered by the thread.
      expect(await checkAll(checker.compiles, codes)).toEqual(expected)
      expect(made()).toBe(1)
      await vi.waitFor(() => expect(checker.counts()).toEqual({ here: codes.length * (batches + 1), worker: 0 }))
    },
  )
})

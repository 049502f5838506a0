/**
 * A socket's messages run in the order they came (server/realtime/message-queue.ts): with nothing
 * pending a message runs at once, in the same turn; after one that waits (AUTH and its database
 * look-up) the later ones wait for it, in order; once it ends the connection runs at once again.
 */
import { describe, expect, it } from 'vitest'
import { createMessageQueue } from '../../../server/realtime/message-queue'

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((done) => (resolve = done))
  return { promise, resolve }
}

describe('message queue', () => {
  it('runs a message at once, in the same turn, when nothing is pending', () => {
    const queue = createMessageQueue<object>()
    const ran: string[] = []
    const key = {}
    queue.run(key, () => void ran.push('a'))
    queue.run(key, () => void ran.push('b'))
    expect(ran).toEqual(['a', 'b'])
    expect(queue.pending(key)).toBe(false)
  })

  it('later messages wait for a pending one and then run in the order they came', async () => {
    const queue = createMessageQueue<object>()
    const ran: string[] = []
    const key = {}
    const auth = deferred()
    queue.run(key, () => {
      ran.push('AUTH started')
      return auth.promise.then(() => void ran.push('AUTH done'))
    })
    queue.run(key, () => void ran.push('SUBSCRIBE'))
    queue.run(key, () => void ran.push('GI'))
    expect(ran).toEqual(['AUTH started'])
    expect(queue.pending(key)).toBe(true)
    auth.resolve()
    await settled(queue, key)
    expect(ran).toEqual(['AUTH started', 'AUTH done', 'SUBSCRIBE', 'GI'])
    // nothing pending any more: the next message runs at once again
    queue.run(key, () => void ran.push('UNSUBSCRIBE'))
    expect(ran.at(-1)).toBe('UNSUBSCRIBE')
  })

  it("one connection's pending message never holds another connection's", () => {
    const queue = createMessageQueue<object>()
    const ran: string[] = []
    const [first, second] = [{}, {}]
    queue.run(first, () => deferred().promise)
    queue.run(first, () => void ran.push('first'))
    queue.run(second, () => void ran.push('second'))
    expect(ran).toEqual(['second'])
  })
})

/** Waits (on the queue's state, not a clock) until the key has nothing pending. */
async function settled(queue: ReturnType<typeof createMessageQueue<object>>, key: object): Promise<void> {
  while (queue.pending(key)) await new Promise<void>((done) => setImmediate(done))
}

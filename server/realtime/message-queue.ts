/**
 * A connection's messages are handled in the order they came. A message whose handler waits for
 * the database (AUTH) makes the connection's later messages wait for it (a subscription right after
 * AUTH sees the punter); a connection with nothing pending runs its message at once, in the same
 * turn.
 */
export interface MessageQueue<K extends object> {
  /** Runs `task` now, or after the key's pending task has ended; a promise it answers is waited for. */
  run(key: K, task: () => Promise<void> | undefined): void
  /** Whether the key has a task still running (or waiting). */
  pending(key: K): boolean
}

/** Tasks must not reject (the socket server's handler catches its own failures). */
export function createMessageQueue<K extends object>(): MessageQueue<K> {
  const tails = new WeakMap<K, Promise<void>>()
  const wait = (key: K, done: Promise<void>) => {
    const tail: Promise<void> = done.finally(() => {
      if (tails.get(key) === tail) tails.delete(key)
    })
    tails.set(key, tail)
  }
  return {
    run(key, task) {
      const before = tails.get(key)
      if (before) return wait(key, before.then(() => task()))
      const done = task()
      if (done) wait(key, done)
    },
    pending: (key) => tails.has(key),
  }
}

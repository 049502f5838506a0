/**
 * A list of listeners for one kind of message (the problem reporter, the telemetry bus): delivered
 * in subscription order, and one listener that throws never silences the others. Framework-free.
 */
export interface Listeners<T> {
  readonly count: number
  emit(message: T): void
  /** Adds a listener; returns its unsubscribe function. */
  add(listener: (message: T) => void): () => void
}

export function listeners<T>(): Listeners<T> {
  let list: ((message: T) => void)[] = []
  return {
    get count() {
      return list.length
    },
    emit(message) {
      for (const listener of list) {
        try {
          listener(message)
        } catch {
          // one bad listener must not silence the others
        }
      }
    },
    add(listener) {
      list = [...list, listener]
      return () => {
        list = list.filter((l) => l !== listener)
      }
    },
  }
}

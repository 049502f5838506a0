/**
 * The demo feed's listeners: every change goes to each of them; a listener may answer a promise of
 * the work the change started (Feed.idle waits for it). A failing listener never stops the feed or
 * the other listeners, nor ends the process.
 */
import type { EventUpdate } from './model'

export type FeedListener = (updates: EventUpdate[]) => unknown

export function createFeedListeners() {
  const listeners = new Set<FeedListener>()
  const working = new Set<Promise<void>>()
  return {
    emit(updates: EventUpdate[]): void {
      if (updates.length === 0) return
      for (const listener of listeners)
        try {
          const work = listener(updates)
          if (work instanceof Promise) {
            // a failing listener must not stop the feed or the other listeners (nor end the process)
            const tracked: Promise<void> = work.catch(() => undefined).finally(() => working.delete(tracked))
            working.add(tracked)
          }
        } catch {
          // a failing listener must not stop the feed or the other listeners
        }
    },
    subscribe(listener: FeedListener): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async idle(): Promise<void> {
      while (working.size) await Promise.all(working)
    },
  }
}

/**
 * Publishes scheduled releases when the server's clock reaches their time. Why a poll of the
 * injected clock and not a timer per release: the clock is `deps.now` (tests and development move
 * it forward: POST /api/dev/clock), so a timer set for "in 6 hours" would never match it. Each
 * tick asks the book for approved releases whose time has come; `tick()` is also what tests call.
 * A release that cannot go live at its time (stale, lint) keeps its approval, loses its schedule,
 * and the audit log says why.
 */
import type { Logger } from '../log'
import type { ReleaseBook } from './releases'
import type { DocumentStore } from './store'

export const SCHEDULER_TICK_MS = 1_000

export interface ReleaseScheduler {
  /** Publishes every due release; answers the ids published. */
  tick(): Promise<number[]>
  stop(): void
}

export function startReleaseScheduler(book: ReleaseBook, store: DocumentStore, options: { log: Logger; isOpen: () => boolean; everyMs?: number }): ReleaseScheduler {
  let running: Promise<number[]> | null = null
  const publishDue = async (): Promise<number[]> => {
    const published: number[] = []
    for (const release of await book.due()) {
      const result = await book.publish('scheduler', release.id, 'schedule')
      if (result.ok) {
        published.push(release.id)
        options.log.info('release.scheduled.published', { release: release.id })
        continue
      }
      // another instance's scheduler published it meanwhile: nothing failed
      if ((await book.release(release.id))?.state !== 'approved') continue
      await book.schedule('scheduler', release.id, null, null)
      await store.audit('scheduler', 'release.schedule-failed', `release/${release.id}`, { release: release.id, errorCode: result.code })
      options.log.warn('release.scheduled.failed', { release: release.id, errorCode: result.code })
    }
    return published
  }
  const tick = async (): Promise<number[]> => {
    // One tick at a time: a slow lint gate never publishes the same release twice.
    while (running) await running.catch(() => [])
    if (!options.isOpen()) return []
    running = publishDue().finally(() => (running = null))
    return running
  }
  const timer = setInterval(() => {
    tick().catch((error: unknown) => options.log.warn('release.scheduler.failed', { error: (error as Error).message }))
  }, options.everyMs ?? SCHEDULER_TICK_MS)
  timer.unref()
  return { tick, stop: () => clearInterval(timer) }
}

const schedulers = new WeakMap<DocumentStore, ReleaseScheduler>()
export const schedulerOf = (store: DocumentStore) => schedulers.get(store)
export function rememberScheduler(store: DocumentStore, scheduler: ReleaseScheduler): void {
  schedulers.get(store)?.stop()
  schedulers.set(store, scheduler)
}

/**
 * What the server sends (one JSON object per frame, `type` first): event snapshots and updates
 * (routed by treeId on the client, spec §7), bet-channel notices, gambling (`casino`) messages,
 * the punter events of spec §3 and error frames. Updates are serialised once per change and the
 * same string goes to every subscriber.
 */
import type { EventUpdate, FeedEvent } from '../feed'
import type { DisplayMode } from './protocol'

/** The event as a SHORT subscriber sees it: the main market only. */
export function eventView(event: FeedEvent, mode: DisplayMode, elapsedMs: number) {
  const markets = mode === 'FULL' ? event.markets : event.markets.filter((m) => m.kind === 'main')
  return { ...event, markets, elapsedMs }
}

export function snapshotFrame(event: FeedEvent, mode: DisplayMode, elapsedMs: number): string {
  return JSON.stringify({ type: 'EVENT', treeId: event.treeId, eventId: event.id, displayMode: mode, event: eventView(event, mode, elapsedMs) })
}

/**
 * Snapshots encoded once per event and mode, not once per subscriber: a list page subscribes to
 * every live event, so 2,000 sockets (a reconnect wave after a deploy) each stringified the same
 * events; the bench's connect showed it as the server's memory growth. The encoding ends with the
 * event's elapsed time, which is the only per-moment part: it is appended to the cached head. An
 * event's entry is dropped when the feed changes it.
 */
export function createSnapshotCache() {
  const heads = new Map<string, string>()
  const TAIL = '}}'
  return {
    frame(event: FeedEvent, mode: DisplayMode, elapsedMs: number): string {
      const key = `${event.id}\u0000${mode}`
      let head = heads.get(key)
      if (head === undefined) {
        const whole = snapshotFrame(event, mode, 0)
        const ending = `,"elapsedMs":0${TAIL}`
        // an event whose own fields put elapsedMs elsewhere is encoded whole, every time
        if (!whole.endsWith(ending)) return snapshotFrame(event, mode, elapsedMs)
        head = whole.slice(0, whole.length - ending.length)
        heads.set(key, head)
      }
      return `${head},"elapsedMs":${JSON.stringify(elapsedMs)}${TAIL}`
    },
    changed(eventId: string): void {
      heads.delete(`${eventId}\u0000FULL`)
      heads.delete(`${eventId}\u0000SHORT`)
    },
  }
}

/** The update for FULL subscribers and, when something of it concerns them, for SHORT ones. */
export function updateFrames(update: EventUpdate): { full: string; short: string | undefined } {
  const full = JSON.stringify({ type: 'EVENT_UPDATE', ...update })
  const main = update.selections?.filter((s) => s.main)
  const shortMatters = Boolean(main?.length || update.score || update.state)
  if (!shortMatters) return { full, short: undefined }
  if (main?.length === update.selections?.length) return { full, short: full }
  const { selections: _all, ...rest } = update
  return { full, short: JSON.stringify({ type: 'EVENT_UPDATE', ...rest, ...(main?.length ? { selections: main } : {}) }) }
}

export const errorFrame = (errorCode: string, message?: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'ERROR', errorCode, ...(message ? { message } : {}), ...extra })

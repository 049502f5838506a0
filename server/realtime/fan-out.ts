/**
 * Feed changes to the sockets that follow them (spec §7 "Real-time"): an event's update to its
 * followers, FULL or SHORT by how each follows it, each frame encoded once for them all; a watched
 * selection's change to the bet channels that watch it (a price or a reopening only to WATCH_ON_BET,
 * a suspension or settlement to both WATCH_ON_BET and INACTIVE_SELECTION).
 */
import type { EventUpdate, SelectionChange } from '../feed'
import { modeOf } from './connection'
import type { Followers } from './followers'
import { updateFrames, type createSnapshotCache } from './messages'
import type { Wire } from './wire'

export interface FanOutContext {
  followers: Followers
  wire: Wire
  snapshots: ReturnType<typeof createSnapshotCache>
}

/** A frame for many sockets is encoded once (a string would be turned into bytes per socket). */
const encoded = (frame: string | undefined) => (frame === undefined ? undefined : Buffer.from(frame))

/**
 * What the bet channel hears of a selection's change: an open selection (new price, reopened) is a
 * WATCH_ON_BET notice for the bet slip only; any other status an INACTIVE_SELECTION notice (with
 * the result of a settled one) for every watcher.
 */
export function selectionNotice(eventId: string, change: SelectionChange): { frame: string; watchOnBetOnly: boolean } {
  if (change.status === 'OPEN') {
    const frame = JSON.stringify({ type: 'WATCH_ON_BET', selectionId: change.id, eventId, status: change.status, price: change.price, previous: change.previous })
    return { frame, watchOnBetOnly: true }
  }
  const frame = JSON.stringify({ type: 'INACTIVE_SELECTION', selectionId: change.id, eventId, status: change.status, ...(change.result ? { result: change.result } : {}) })
  return { frame, watchOnBetOnly: false }
}

function toEventFollowers({ followers, wire }: FanOutContext, update: EventUpdate): void {
  const following = followers.byEvent.get(update.eventId)
  if (!following) return
  const text = updateFrames(update)
  const full = encoded(text.full)!
  const frames = { full, short: text.short === text.full ? full : encoded(text.short) }
  for (const connection of following) {
    const frame = modeOf(connection, update.eventId) === 'FULL' ? frames.full : frames.short
    if (frame) wire.send(connection, frame)
  }
}

function toSelectionWatchers({ followers, wire }: FanOutContext, update: EventUpdate): void {
  for (const change of update.selections ?? []) {
    const watchers = followers.bySelection.get(change.id)
    if (!watchers) continue
    const { frame, watchOnBetOnly } = selectionNotice(update.eventId, change)
    for (const connection of watchers) if (!watchOnBetOnly || connection.betChannel.WATCH_ON_BET.has(change.id)) wire.send(connection, frame)
  }
}

export function createFanOut(context: FanOutContext): (updates: EventUpdate[]) => void {
  return (updates) => {
    for (const update of updates) {
      context.snapshots.changed(update.eventId)
      toEventFollowers(context, update)
      toSelectionWatchers(context, update)
    }
  }
}

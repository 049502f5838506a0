/**
 * Following an event over the socket while a node shows it (the market and scoreboard nodes): the
 * socket manager loads on demand the first time a page shows something live, and counts
 * subscriptions per event, so two nodes of one event page share one subscription.
 */
import { useEffect } from 'react'
import { useRuntime } from './runtime'

export interface FollowedEvent {
  id: string
  treeId: number
}

/** Follows `event` (FULL: an event page; SHORT: a line's main market) while `live` holds. */
export function useFollowEvent(event: FollowedEvent | undefined, mode: 'FULL' | 'SHORT', live: boolean): void {
  const runtime = useRuntime()
  const key = event ? `${event.id}|${event.treeId}|${mode}` : ''
  useEffect(() => {
    if (!event || !live) return
    let release: (() => void) | undefined
    let gone = false
    void import('../realtime/browser').then((sockets) => {
      if (!gone) release = sockets.followEvent(runtime.stores.site.getState().bootstrap?.remoteConfig, event, mode)
    })
    return () => {
      gone = true
      release?.()
    }
  }, [key, live]) // eslint-disable-line react-hooks/exhaustive-deps
}

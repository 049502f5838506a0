/**
 * The browser's sockets, loaded on demand (a dynamic import from the nodes that follow live data
 * and from the punter's session once the first screen is up — never before the first paint).
 * Paths follow IS_SEPARATED_SOCKET_ENABLED of the site's remote config (spec §7); the events
 * socket feeds the live store, the punter socket carries account events.
 */
import { report } from '../core/report'
import { emitTelemetry } from '../core/telemetry'
import { applyEventMessage } from './live-store'
import { RealtimeManager, type DisplayMode, type SocketLike } from './manager'

type Config = Record<string, unknown> | undefined

let events: RealtimeManager | null = null
let punter: RealtimeManager | null = null
let separated = false

function socketUrl(path: string, platform: string): string {
  const { protocol, host } = window.location
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}${path}?channel=${encodeURIComponent(platform)}`
}

function manager(path: string, platform: string, events = true): RealtimeManager {
  const created = new RealtimeManager({
    url: socketUrl(path, platform),
    events,
    createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    report: (message, error) => {
      report({ kind: 'action-error', message, detail: error instanceof Error ? error.message : error })
      if (message.endsWith(' message error')) emitTelemetry({ type: 'socket-error', message })
    },
  })
  created.start()
  return created
}

/** The events socket (one per page). */
export function eventsSocket(remoteConfig: Config, platform = 'web'): RealtimeManager {
  if (!events) {
    separated = remoteConfig?.IS_SEPARATED_SOCKET_ENABLED === true
    events = manager(separated ? '/sockets/v2/events' : '/sockets/events', platform)
  }
  return events
}

/** The socket that carries the punter's account and bets: its own with separated sockets. */
export function punterSocket(remoteConfig: Config, platform = 'web'): RealtimeManager {
  const shared = eventsSocket(remoteConfig, platform)
  if (!separated) return shared
  if (!punter) punter = manager('/sockets/v2/punter', platform, false)
  return punter
}

/** Follows one event in a display mode (SHORT ones as dynamic subscriptions); returns the release. */
export function followEvent(remoteConfig: Config, event: { id: string; treeId: number }, mode: DisplayMode): () => void {
  const socket = eventsSocket(remoteConfig)
  // a listener of its own per follow: the socket keeps listeners in a set, so two follows of one
  // event (the page's and the bet slip's) sharing applyEventMessage would be one entry, and the
  // first release would silence the other
  const stopListening = socket.onTree(event.treeId, (message) => applyEventMessage(message))
  const release = mode === 'FULL' ? socket.subscribeEvents([event.id], 'FULL') : socket.addDynamic([event.id])
  return () => {
    release()
    stopListening()
  }
}

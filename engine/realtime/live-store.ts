/**
 * What the socket has said about selections and events, for the renderers: the latest price and
 * status per selection (with the direction of its last move, for the price-change indicator) and
 * the score and state per event. Framework-free and small: it sits in the entry chunk, while the
 * socket manager that fills it loads only when a page follows live prices.
 */

export interface LiveSelection {
  price: number
  status: string
  result?: string
  /** Direction of the last price move. */
  direction?: 'up' | 'down'
  /** Bumps on every move, so a view restarts its indicator even for the same direction. */
  moves: number
}

export interface LiveEvent {
  score?: [number, number]
  state?: string
  elapsedMs?: number
  /** When `elapsedMs` arrived (this browser's clock), so a clock runs on between messages. */
  receivedAt: number
  version: number
}

type Listener = () => void

const selections = new Map<string, LiveSelection>()
const events = new Map<string, LiveEvent>()
const listeners = new Map<string, Set<Listener>>()

function notify(key: string): void {
  for (const listener of [...(listeners.get(key) ?? [])]) listener()
}

export function subscribeLive(key: string, listener: Listener): () => void {
  let set = listeners.get(key)
  if (!set) listeners.set(key, (set = new Set()))
  set.add(listener)
  return () => {
    set.delete(listener)
    if (set.size === 0) listeners.delete(key)
  }
}

export const liveSelection = (id: string): LiveSelection | undefined => selections.get(id)
export const liveEvent = (id: string): LiveEvent | undefined => events.get(id)

interface SelectionLike {
  id: string
  price: number
  status: string
  result?: string
  previous?: number
}

function setSelection(change: SelectionLike, moved: boolean): void {
  const old = selections.get(change.id)
  const before = moved ? (change.previous ?? old?.price) : undefined
  const direction = before === undefined || before === change.price ? old?.direction : change.price > before ? 'up' : 'down'
  const changed = before !== undefined && before !== change.price
  if (old && old.price === change.price && old.status === change.status && old.result === change.result) return
  selections.set(change.id, { price: change.price, status: change.status, ...(change.result ? { result: change.result } : {}), ...(direction && changed ? { direction } : old?.direction ? { direction: old.direction } : {}), moves: (old?.moves ?? 0) + (changed ? 1 : 0) })
  notify(change.id)
}

/** An event message from the socket (EVENT snapshot or EVENT_UPDATE); older versions are dropped. */
export function applyEventMessage(message: Record<string, unknown>): void {
  const eventId = typeof message.eventId === 'string' ? message.eventId : undefined
  if (!eventId) return
  const version = typeof message.version === 'number' ? message.version : ((message.event as { version?: number } | undefined)?.version ?? 0)
  const current = events.get(eventId)
  if (current && version < current.version) return
  if (message.type === 'EVENT') {
    const event = message.event as { score?: [number, number]; state?: string; elapsedMs?: number; markets?: { selections: SelectionLike[] }[] }
    events.set(eventId, { score: event.score, state: event.state, elapsedMs: event.elapsedMs, receivedAt: Date.now(), version })
    for (const market of event.markets ?? []) for (const s of market.selections) setSelection(s, false)
  } else if (message.type === 'EVENT_UPDATE') {
    const score = Array.isArray(message.score) ? (message.score as [number, number]) : undefined
    const state = typeof message.state === 'string' ? message.state : undefined
    const elapsedMs = typeof message.elapsedMs === 'number' ? message.elapsedMs : undefined
    // a price-only update leaves the event as its scoreboard shows it: the same object (a new one
    // would re-render the scoreboard on every price of the event), only its version moves on
    const eventChanged = !current || elapsedMs !== undefined || (score !== undefined && !sameScore(score, current.score)) || (state !== undefined && state !== current.state)
    if (eventChanged) {
      const next: LiveEvent = { receivedAt: Date.now(), ...current, version }
      if (score) next.score = score
      if (state !== undefined) next.state = state
      if (elapsedMs !== undefined) {
        next.elapsedMs = elapsedMs
        next.receivedAt = Date.now()
      }
      events.set(eventId, next)
    } else current.version = version
    for (const s of (message.selections as SelectionLike[] | undefined) ?? []) setSelection(s, true)
    if (!eventChanged) return
  }
  notify(`event:${eventId}`)
}

const sameScore = (a: [number, number], b: [number, number] | undefined) => b !== undefined && a[0] === b[0] && a[1] === b[1]

/** Tests and a logout start clean. */
export function clearLive(): void {
  selections.clear()
  events.clear()
}

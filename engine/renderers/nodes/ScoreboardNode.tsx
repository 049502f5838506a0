/**
 * A live event's scoreboard (issue 14 item 4, node kind `scoreboard`): the teams, the score and the
 * playing minute, kept live over the socket — a goal changes the score on screen, the final
 * whistle says the match has finished. It starts from the event the page loaded and follows the
 * event FULL (as the page's markets do, one shared subscription) while it is not finished; the
 * minute runs on between messages from the time the last one arrived. The score is announced
 * politely to screen readers when it changes.
 */
import { useEffect, useState, useSyncExternalStore } from 'react'
import { matchMinute } from '../../../kernel/core/match-clock'
import type { NodeOf } from '../../../kernel/documents/types'
import { liveEvent, subscribeLive } from '../../realtime/live-store'
import { useFollowEvent } from '../live-follow'
import { useEvaluate } from '../runtime'

interface ScoreboardEvent {
  id: string
  treeId: number
  home: string
  away: string
  league?: string
  state?: string
  score?: [number, number]
  elapsedMs?: number
  durationMs?: number
  regularMs?: number
  /** False: a sport played to sets, frames or maps, with no running minute. */
  clock?: boolean
}

/** How often a running minute is redrawn. */
const CLOCK_REDRAW_MS = 15_000

function asEvent(value: unknown): ScoreboardEvent | undefined {
  const e = value as Partial<ScoreboardEvent> | null | undefined
  return e && typeof e.id === 'string' && typeof e.treeId === 'number' && typeof e.home === 'string' && typeof e.away === 'string' ? (e as ScoreboardEvent) : undefined
}

const noSubscription = () => () => undefined

/** This browser's clock, redrawn every CLOCK_REDRAW_MS while `running`. */
function useClock(running: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!running) return
    const timer = setInterval(() => setNow(Date.now()), CLOCK_REDRAW_MS)
    return () => clearInterval(timer)
  }, [running])
  return now
}

export function ScoreboardNode({ node }: { node: NodeOf<'scoreboard'> }) {
  const { value, text } = useEvaluate()
  const event = asEvent(value(node.event))
  const [loadedAt] = useState(() => Date.now())
  const live = useSyncExternalStore(
    event ? (listener) => subscribeLive(`event:${event.id}`, listener) : noSubscription,
    () => (event ? liveEvent(event.id) : undefined),
    () => undefined,
  )
  const state = live?.state ?? event?.state
  useFollowEvent(event, 'FULL', state !== undefined && state !== 'finished')
  const now = useClock(state === 'live' && event?.clock !== false)
  if (!event) return null
  const score = live?.score ?? event.score ?? [0, 0]
  const elapsed = (live?.elapsedMs ?? event.elapsedMs ?? 0) + (state === 'live' ? now - (live?.receivedAt ?? loadedAt) : 0)
  const minute = matchMinute(elapsed, event.durationMs ?? Infinity, event.regularMs)
  const status = state === 'finished' ? text('scoreboard.finished') : state === 'live' && event.clock !== false ? text({ key: 'scoreboard.minute', values: { minute } }) : ''
  return (
    <section className="scoreboard" data-testid={node.testId} data-state={state} data-score={score.join(':')} aria-label={text({ key: 'scoreboard.label', values: { home: event.home, away: event.away } })}>
      <div className="scoreboard__teams">
        <span className="scoreboard__team">{event.home}</span>
        <strong className="scoreboard__score" aria-live="polite" aria-atomic="true">
          {score[0]} : {score[1]}
        </strong>
        <span className="scoreboard__team scoreboard__team--away">{event.away}</span>
      </div>
      <p className="scoreboard__status">
        {state === 'live' && <span className="scoreboard__live">{text('scoreboard.live')}</span>} {status}
        {event.league ? ` · ${event.league}` : ''}
      </p>
    </section>
  )
}

/**
 * The services' in-page stub (issues 18 and 10): the analytics and error-report chunk is no longer
 * fetched while the first page settles (it put the lobby's transferred script from 114 KB to
 * 122 KB before Lighthouse's idle), but on the punter's first interaction or a later idle period,
 * whichever comes first. Until it arrives this tiny first-load module keeps what the chunk would
 * have seen — screens rendered, uncaught errors and rejected promises — and hands it over once, so
 * nothing raised before the chunk loads is lost. (Telemetry events and reported problems keep
 * their own early lists: engine/core/telemetry.ts, engine/core/report.ts.)
 */

export const SERVICES_SCREEN_EVENT = 'parlay:screen-rendered' // rendered-signal's SCREEN_RENDERED_EVENT
/** At most this many records wait (the analytics queue cap); the oldest go first. */
export const EARLY_RECORDS_CAP = 512
/** The later idle that starts the chunk when the punter never interacts (after the load event). */
export const SERVICES_LATER_MS = 5000
/** What counts as the punter's first interaction. */
export const INTERACTIONS = ['pointerdown', 'keydown', 'scroll'] as const

export type EarlyRecord =
  | { type: 'screen'; detail: { screen: string; path?: string } }
  | { type: 'error'; name: string; message: string; stack?: string }
  | { type: 'rejection'; name: string; message: string; stack?: string }

type Target = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>

export interface ServicesStub {
  /** The records kept so far, oldest first, once: the stub stops listening (the chunk listens now). */
  handOver(): EarlyRecord[]
}

function errorRecord(event: Event): EarlyRecord {
  const { error, message } = event as Event & { error?: Error; message?: string }
  return { type: 'error', name: error?.name ?? 'Error', message: message || error?.message || 'error', stack: error?.stack }
}

function rejectionRecord(event: Event): EarlyRecord {
  const reason = (event as Event & { reason?: unknown }).reason
  const error = reason instanceof Error ? reason : undefined
  return { type: 'rejection', name: error?.name ?? 'UnhandledRejection', message: error?.message ?? String(reason), stack: error?.stack }
}

/** Starts keeping the early records of `target` (the window). */
export function createServicesStub(target: Target, cap = EARLY_RECORDS_CAP): ServicesStub {
  let records: EarlyRecord[] = []
  const keep = (record: EarlyRecord) => {
    records.push(record)
    if (records.length > cap) records = records.slice(-cap)
  }
  const listeners: Array<[string, (event: Event) => void]> = [
    [SERVICES_SCREEN_EVENT, (event) => {
      const detail = (event as CustomEvent<EarlyRecord & { type: 'screen' }>).detail as unknown
      if (detail && typeof detail === 'object') keep({ type: 'screen', detail: detail as { screen: string; path?: string } })
    }],
    ['error', (event) => keep(errorRecord(event))],
    ['unhandledrejection', (event) => keep(rejectionRecord(event))],
  ]
  for (const [name, listener] of listeners) target.addEventListener(name, listener)
  let handed = false
  return {
    handOver() {
      if (handed) return []
      handed = true
      for (const [name, listener] of listeners) target.removeEventListener(name, listener)
      const out = records
      records = []
      return out
    },
  }
}

export interface LoadMoment {
  target: Target
  /** Calls back once the page has settled: loaded and its first screen rendered. */
  settled(then: () => void): void
  setTimeout(task: () => void, ms: number): unknown
  /** Runs a task when the main thread is idle (the shell's whenIdle). */
  idle(task: () => void): void
}

/**
 * Calls `start` once: at the first interaction (pointerdown, keydown, scroll) or at the first idle
 * period at least SERVICES_LATER_MS after the page settled, whichever comes first. (The load event
 * alone is too early a mark: the page's script fires it before the first screen has rendered.)
 */
export function onFirstInteractionOrLater(moment: LoadMoment, start: () => void): void {
  let started = false
  const options = { capture: true, passive: true } as const
  const once = () => {
    if (started) return
    started = true
    for (const name of INTERACTIONS) moment.target.removeEventListener(name, once, options)
    start()
  }
  for (const name of INTERACTIONS) moment.target.addEventListener(name, once, options)
  moment.settled(() => moment.setTimeout(() => moment.idle(once), SERVICES_LATER_MS))
}

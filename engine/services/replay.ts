/**
 * Session replay (spec §1/§9, issue 18) with rrweb, the open-source recorder: its own lazy chunk,
 * loaded only when remote config turns replay on (AMPLITUDE_REPLAY with an AMPLITUDE_KEY) and the
 * punter accepted all cookies, once the page is idle. Mask level medium: every input is masked,
 * and so is text marked `data-personal` (balances, names, e-mail, phone, account number). Batches go to
 * Parlay's own ingest gzip-compressed (server/services/replay.ts).
 */
import { clickTargetName, createClickSummary, type ClickWindow } from '../core/click-summary'
import type { Gateway } from '../core/gateway'
import { createReplayBatcher, type ReplayBatcher } from '../core/replay-batches'

export const REPLAY_PATH = '/replay/api/1/batch'
export const REPLAY_CONTENT_TYPE = 'application/vnd.parlay.replay+gzip'
export const REPLAY_PLAIN_TYPE = 'application/vnd.parlay.replay'
export const INTERACTIONS_PATH = '/replay/api/1/interactions'
/** A keepalive request (one sent while the page goes away) carries at most 64 KB. */
const KEEPALIVE_BYTES = 60_000
/** Medium masking (spec §9): inputs are masked by rrweb; texts that show the punter's data carry
 * `data-personal` (kernel/core/personal-text.ts and the shell's balance, name and account number).
 * Labels, titles and buttons stay readable: a form's label is no secret. */
export const PERSONAL_TEXT = '[data-personal]'

export interface ReplaySession {
  deviceId: string
  sessionId: number
  userId: () => string | undefined
  /** The page's gateway client: batches go through the one HTTP transport. */
  gateway: Gateway
}

async function gzip(text: string): Promise<ArrayBuffer> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))
  return new Response(stream).arrayBuffer()
}

/**
 * Gzip while the page lives. A leaving page cannot wait for compression: a request only outlives
 * the page if its keepalive fetch starts inside the pagehide handler, before any await, so the last
 * batch goes as plain JSON at once (keepalive when it fits the browser's 64 KB budget; a larger one
 * is sent anyway, as the best a leaving page can do). The gateway starts its fetch synchronously.
 */
export function transportFor(session: ReplaySession, leaving: () => boolean) {
  return (body: string): Promise<boolean> => {
    const query = new URLSearchParams({ device_id: session.deviceId, session_id: String(session.sessionId), type: 'replay' })
    const user = session.userId()
    if (user) query.set('user_id', user)
    const post = (payload: string | ArrayBuffer, contentType: string) => {
      const size = typeof payload === 'string' ? payload.length : payload.byteLength
      return session.gateway.call('POST', `${REPLAY_PATH}?${query}`, payload, { contentType, keepalive: size < KEEPALIVE_BYTES, retryUnauthorized: false }).then((sent) => sent.ok)
    }
    if (leaving()) return post(body, REPLAY_PLAIN_TYPE)
    return gzip(body).then((packed) => post(packed, REPLAY_CONTENT_TYPE))
  }
}

/** One window of tap counts, by beacon (it survives the page going away). */
function sendClicks(session: ReplaySession, window: ClickWindow | null): void {
  if (!window || typeof navigator.sendBeacon !== 'function') return
  const query = new URLSearchParams({ device_id: session.deviceId, session_id: String(session.sessionId) })
  navigator.sendBeacon(`${INTERACTIONS_PATH}?${query}`, new Blob([JSON.stringify(window)], { type: 'application/json' }))
}

/** Counts taps per page and element while replay records (engine/core/click-summary.ts). */
function countClicks(session: ReplaySession): { send: () => void; stop: () => void } {
  const summary = createClickSummary(() => Date.now())
  const onClick = (event: MouseEvent) => {
    if (event.target instanceof Element) sendClicks(session, summary.record(window.location.pathname, clickTargetName(event.target)))
  }
  document.addEventListener('click', onClick, { capture: true, passive: true })
  const send = () => sendClicks(session, summary.take())
  return { send, stop: () => (document.removeEventListener('click', onClick, { capture: true }), send()) }
}

const idle = () =>
  new Promise<void>((done) => {
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(() => done(), { timeout: 5_000 })
    else window.setTimeout(done, 200)
  })

/** Starts recording; returns stop (flushes what is waiting). */
export async function startReplay(session: ReplaySession): Promise<() => void> {
  const { record } = await import('rrweb')
  // the module's evaluation and the first snapshot are separate tasks
  await idle()
  let leaving = false
  const batcher: ReplayBatcher = createReplayBatcher({
    transport: transportFor(session, () => leaving),
    schedule: (task, ms) => {
      const handle = window.setTimeout(task, ms)
      return () => window.clearTimeout(handle)
    },
    // encode in idle time (at the latest after 1 s, well inside the 10 s batch interval)
    idle: (task) => (typeof window.requestIdleCallback === 'function' ? window.requestIdleCallback(() => task(), { timeout: 1_000 }) : window.setTimeout(task, 50)),
    onDropped: (bytes) => console.warn(`[parlay:replay] an event of ${bytes} bytes is over the batch limit; dropped`),
  })
  const stopRecording = record({
    emit: (event) => batcher.add(event),
    maskAllInputs: true,
    maskTextSelector: PERSONAL_TEXT,
    blockSelector: '[data-replay-block]',
    slimDOMOptions: 'all',
    recordCanvas: false,
    collectFonts: false,
    // every input event (masked): 'last' would record only on change, which a punter leaving a field unblurred never fires
    sampling: { mousemove: 50, scroll: 150 },
  })
  const clicks = countClicks(session)
  const flush = () => void batcher.flush()
  const leave = () => {
    leaving = true
    flush()
    clicks.send()
  }
  window.addEventListener('pagehide', leave)
  document.documentElement.dataset.parlayReplay = 'recording'
  return () => {
    stopRecording?.()
    clicks.stop()
    window.removeEventListener('pagehide', leave)
    flush()
    delete document.documentElement.dataset.parlayReplay
  }
}

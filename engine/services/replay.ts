/**
 * Session replay (spec §1/§9, issue 18) with rrweb, the open-source recorder: its own lazy chunk,
 * loaded only when remote config turns replay on (AMPLITUDE_REPLAY with an AMPLITUDE_KEY) and the
 * punter accepted all cookies, once the page is idle. Mask level medium: every input is masked,
 * and so is text marked personal (balances, names, e-mail, phone, account number). Batches go to
 * Parlay's own ingest gzip-compressed (server/services/replay.ts).
 */
import type { Gateway } from '../core/gateway'
import { createReplayBatcher, type ReplayBatcher } from '../core/replay-batches'

export const REPLAY_PATH = '/replay/api/1/batch'
export const REPLAY_CONTENT_TYPE = 'application/vnd.parlay.replay+gzip'
export const REPLAY_PLAIN_TYPE = 'application/vnd.parlay.replay'
/** A keepalive request (one sent while the page goes away) carries at most 64 KB. */
const KEEPALIVE_BYTES = 60_000
/** Medium masking: text of these elements is replaced by asterisks in the recording. */
export const PERSONAL_TEXT = [
  '[data-personal]',
  '[data-testid*="balance"]',
  '[data-testid*="nickname"]',
  '[data-testid*="email"]',
  '[data-testid*="phone"]',
  '[data-testid*="account-number"]',
  '[data-testid*="user-name"]',
].join(', ')

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

/** Gzip while the page lives; a leaving page cannot wait for compression and sends plain JSON. */
function transportFor(session: ReplaySession, leaving: () => boolean) {
  return async (body: string): Promise<boolean> => {
    const query = new URLSearchParams({ device_id: session.deviceId, session_id: String(session.sessionId), type: 'replay' })
    const user = session.userId()
    if (user) query.set('user_id', user)
    const plain = leaving() && body.length < KEEPALIVE_BYTES
    const payload = plain ? body : await gzip(body)
    const size = typeof payload === 'string' ? payload.length : payload.byteLength
    const sent = await session.gateway.call('POST', `${REPLAY_PATH}?${query}`, payload, {
      contentType: plain ? REPLAY_PLAIN_TYPE : REPLAY_CONTENT_TYPE,
      keepalive: size < KEEPALIVE_BYTES,
      retryUnauthorized: false,
    })
    return sent.ok
  }
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
  const flush = () => void batcher.flush()
  const leave = () => {
    leaving = true
    flush()
  }
  window.addEventListener('pagehide', leave)
  document.documentElement.dataset.parlayReplay = 'recording'
  return () => {
    stopRecording?.()
    window.removeEventListener('pagehide', leave)
    flush()
    delete document.documentElement.dataset.parlayReplay
  }
}

/**
 * Error reports in the error-reporting vendor's envelope format (newline-separated JSON: envelope
 * header, item header, event), posted to Parlay's own endpoint (server/services/errors.ts), so a
 * vendor SDK or relay can take over without changing the server. Framework-free.
 */
export const ERRORS_PATH = '/errors/api/1/envelope'
export const ENVELOPE_CONTENT_TYPE = 'application/x-sentry-envelope'

export type ErrorKind = 'exception' | 'action-chain' | 'socket'

export interface StackFrame {
  filename: string
  lineno: number
  colno: number
  function?: string
}

/** Frames of a V8 or Firefox/Safari stack string, outermost call last (as the vendor orders them). */
export function framesOf(stack: string | undefined): StackFrame[] {
  const frames: StackFrame[] = []
  for (const line of (stack ?? '').split('\n').slice(0, 50)) {
    const v8 = /^\s*at (?:(.+?) \()?(\S+?):(\d+):(\d+)\)?\s*$/.exec(line)
    const gecko = v8 ? null : /^\s*(.*?)@(\S+?):(\d+):(\d+)\s*$/.exec(line)
    const m = v8 ?? gecko
    if (!m) continue
    frames.push({ filename: m[2], lineno: Number(m[3]), colno: Number(m[4]), ...(m[1] ? { function: m[1].slice(0, 100) } : {}) })
  }
  return frames.reverse()
}

const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('')

/** One envelope with one event. */
export function errorEnvelope(input: { kind: ErrorKind; type: string; message: string; stack?: string; release: string; url: string; now: number }): string {
  const eventId = hex(32)
  const sentAt = new Date(input.now).toISOString()
  const event = {
    event_id: eventId,
    timestamp: input.now / 1000,
    platform: 'javascript',
    release: input.release,
    tags: { kind: input.kind },
    request: { url: input.url },
    exception: { values: [{ type: input.type, value: input.message.slice(0, 2000), stacktrace: { frames: framesOf(input.stack) } }] },
  }
  return [JSON.stringify({ event_id: eventId, sent_at: sentAt }), JSON.stringify({ type: 'event' }), JSON.stringify(event)].join('\n')
}

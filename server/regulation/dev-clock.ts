/**
 * A server clock that development servers (and the browser tests) can move forward: the reality
 * check, Spain's session reminder and token lifetimes all run on `deps.now`, and a test must see
 * "15 minutes later" without waiting 15 minutes. Only a development server without an injected
 * clock gets one; `POST /api/dev/clock {advanceMs}` moves it (never back), `GET` reads it.
 * Production never mounts the route (app.ts answers 404 for /api/dev when it is not mounted).
 */
import type { Application } from 'express'
import { sendError, sendOk } from '../http/envelope'
import { validateBody } from '../http/validate'

export interface DevClock {
  now(): number
  /** Moves the clock forward by `ms` (≥ 0) and answers the new time. */
  advance(ms: number): number
  offsetMs(): number
}

export function createDevClock(base: () => number): DevClock {
  let offset = 0
  return {
    now: () => base() + offset,
    advance(ms) {
      offset += ms
      return base() + offset
    },
    offsetMs: () => offset,
  }
}

export const DEV_CLOCK_SCHEMA = {
  type: 'object',
  required: ['advanceMs'],
  additionalProperties: false,
  properties: { advanceMs: { type: 'integer', minimum: 0, maximum: 366 * 24 * 3_600_000, description: 'How far to move the server clock forward (ms)' } },
} as const

export function mountDevClock(app: Application, clock: DevClock | undefined): void {
  app.get('/api/dev/clock', (_req, res) => {
    if (!clock) return sendError(res, 404, 'DEV_CLOCK_NOT_AVAILABLE')
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { now: clock.now(), offsetMs: clock.offsetMs() })
  })
  app.post('/api/dev/clock', validateBody(DEV_CLOCK_SCHEMA), (req, res) => {
    if (!clock) return sendError(res, 404, 'DEV_CLOCK_NOT_AVAILABLE')
    const now = clock.advance((req.body as { advanceMs: number }).advanceMs)
    sendOk(res, { now, offsetMs: clock.offsetMs() })
  })
}

/**
 * The start's own decisions (server/main.ts): which clock the server runs on, and the address it
 * announces.
 */
import { describe, expect, it } from 'vitest'
import { clockOf, serverUrl } from '../../../server/main'

describe('the server clock', () => {
  it('an injected clock is used as it is, in development too, and no movable clock is made', () => {
    const injected = () => 1_700_000_000_000
    for (const development of [false, true]) {
      const clock = clockOf({ now: injected }, { development })
      expect(clock.now).toBe(injected)
      expect(clock.devClock).toBeUndefined()
    }
  })

  it('a development server without an injected clock runs on a movable clock that starts at the wall clock', () => {
    const { now, devClock } = clockOf({}, { development: true })
    expect(devClock).toBeDefined()
    devClock!.advance(15 * 60_000)
    const ahead = now() - Date.now()
    expect(ahead).toBeGreaterThanOrEqual(15 * 60_000)
    expect(ahead).toBeLessThan(15 * 60_000 + 5_000)
  })

  it('production without an injected clock runs on the wall clock and has nothing to move it', () => {
    expect(clockOf({}, { development: false })).toEqual({ now: Date.now, devClock: undefined })
  })
})

describe('the announced address', () => {
  it('127.0.0.1 is announced as localhost; any other host as itself', () => {
    expect(serverUrl('127.0.0.1', 3000)).toBe('http://localhost:3000')
    expect(serverUrl('0.0.0.0', 8080)).toBe('http://0.0.0.0:8080')
    expect(serverUrl('parlay.internal', 41234)).toBe('http://parlay.internal:41234')
  })
})

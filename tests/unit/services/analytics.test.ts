/**
 * The analytics client's rules (spec §7, §9; issue 18): uploads classified by HTTP code; a flush
 * every 10 s or at 200 events; at most 12 retries; at most 512 events kept; a 413 halves the
 * batch; disabled events are never queued. A fake transport and a manual clock, no sleeps.
 */
import { describe, expect, it } from 'vitest'
import { manualClock } from '../../support/manual-clock'
import { ANALYTICS_LIMITS, classifyUpload, createAnalytics, type AnalyticsOptions } from '../../../engine/core/analytics'

function harness(statuses: Array<number | null> | ((batch: number) => number | null), extra: Partial<AnalyticsOptions> = {}) {
  const clock = manualClock()
  const sent: Array<{ events: Array<{ event_type: string }> }> = []
  const replies = Array.isArray(statuses) ? [...statuses] : null
  const analytics = createAnalytics({
    apiKey: 'key',
    deviceId: 'device-1',
    sessionId: 7,
    now: clock.now,
    schedule: clock.schedule,
    async transport(body) {
      const parsed = JSON.parse(body) as { events: Array<{ event_type: string }> }
      sent.push(parsed)
      if (replies) return replies.length > 1 ? replies.shift()! : replies[0]
      return (statuses as (batch: number) => number | null)(parsed.events.length)
    },
    ...extra,
  })
  return { analytics, sent, advance: clock.advance }
}

describe('upload results by HTTP code (spec §7)', () => {
  it.each([
    [200, 'success'],
    [204, 'success'],
    [429, 'rate-limit'],
    [413, 'too-large'],
    [408, 'timeout'],
    [400, 'invalid'],
    [404, 'invalid'],
    [500, 'failed'],
    [503, 'failed'],
    [null, 'failed'],
  ] as const)('HTTP %s is %s', (status, expected) => expect(classifyUpload(status)).toBe(expected))
})

describe('batching (spec §9: flush every 10 s, queue 200, 12 retries, cap 512)', () => {
  it('the limits are the spec\'s numbers', () => expect(ANALYTICS_LIMITS).toEqual({ flushIntervalMs: 10_000, flushQueueSize: 200, maxRetries: 12, queueCap: 512 }))

  it('queued events go out 10 s after the first one, not before', async () => {
    const { analytics, sent, advance } = harness([200])
    analytics.track('screen view')
    analytics.track('popup open')
    await advance(9_999)
    expect(sent).toHaveLength(0)
    await advance(1)
    expect(sent).toHaveLength(1)
    expect(sent[0].events.map((e) => e.event_type)).toEqual(['screen view', 'popup open'])
    expect(analytics.pending()).toBe(0)
  })

  it('the 200th event flushes at once, in one batch of 200', async () => {
    const { analytics, sent, advance } = harness([200])
    for (let i = 0; i < 200; i++) analytics.track('tap')
    await advance(0)
    expect(sent).toHaveLength(1)
    expect(sent[0].events).toHaveLength(200)
  })

  it('a failing ingest is retried at most 12 times, then the batch is given up', async () => {
    const { analytics, sent, advance } = harness([503])
    analytics.track('tap')
    await advance(10 * 60_000)
    expect(sent).toHaveLength(1 + 12)
    expect(analytics.pending()).toBe(0)
  })

  it('a rate-limited or timed-out upload is retried and succeeds later without losing events', async () => {
    const { analytics, sent, advance } = harness([429, 408, 200])
    analytics.track('tap')
    await advance(60_000)
    expect(sent).toHaveLength(3)
    expect(sent[2].events).toHaveLength(1)
    expect(analytics.pending()).toBe(0)
  })

  it('an invalid batch (400) is dropped, never retried', async () => {
    const { analytics, sent, advance } = harness([400])
    analytics.track('tap')
    await advance(120_000)
    expect(sent).toHaveLength(1)
    expect(analytics.pending()).toBe(0)
  })

  it('a 413 halves the batch until it fits; every event arrives once', async () => {
    const received: number[] = []
    const { analytics, advance } = harness((size) => {
      if (size > 50) return 413
      received.push(size)
      return 200
    })
    for (let i = 0; i < 200; i++) analytics.track('tap')
    await advance(60_000)
    expect(Math.max(...received)).toBeLessThanOrEqual(50)
    expect(received.reduce((a, b) => a + b, 0)).toBe(200)
  })

  it('at most 512 events are kept while the ingest is down (the oldest go)', async () => {
    const { analytics, advance } = harness([null], { limits: { flushQueueSize: 1000 } })
    for (let i = 0; i < 600; i++) analytics.track('tap')
    await advance(0)
    expect(analytics.pending()).toBe(512)
  })

  it('events disabled by remote config (AMPLITUDE_DISABLED_EVENTS) are never queued', async () => {
    const { analytics, sent, advance } = harness([200], { disabledEvents: ['action'] })
    analytics.track('action', { name: 'nav.go' })
    analytics.track('screen view')
    await advance(10_000)
    expect(sent[0].events.map((e) => e.event_type)).toEqual(['screen view'])
  })

  it('every event carries the device, session, user id and user properties', async () => {
    const { analytics, sent, advance } = harness([200], { userId: () => '42', userProperties: () => ({ state: 'OPENED', currency: 'EUR' }) })
    analytics.track('login', { method: 'email' })
    await advance(10_000)
    expect(sent[0].events[0]).toMatchObject({ event_type: 'login', device_id: 'device-1', session_id: 7, user_id: '42', event_properties: { method: 'email' }, user_properties: { state: 'OPENED', currency: 'EUR' } })
  })
})

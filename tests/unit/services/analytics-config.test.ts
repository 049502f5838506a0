/**
 * The analytics client's remote-config GET (spec §7 "remote-config GET (api_key, config_keys,
 * session_id)"): asked once per session with the three parameters; an event the answer disables
 * is not uploaded; a failed GET keeps the boot settings. Fake transports and a manual clock.
 */
import { describe, expect, it } from 'vitest'
import { manualClock } from '../../support/manual-clock'
import { createAnalytics } from '../../../engine/core/analytics'

function harness(answer: () => Promise<unknown>) {
  const clock = manualClock()
  const gets: URLSearchParams[] = []
  const uploaded: string[] = []
  const analytics = createAnalytics({
    apiKey: 'parlay-web-1',
    deviceId: 'device-1',
    sessionId: 1768478400000,
    now: clock.now,
    schedule: clock.schedule,
    disabledEvents: ['boot-disabled'],
    fetchConfig: (query) => {
      gets.push(new URLSearchParams(query))
      return answer()
    },
    async transport(body) {
      uploaded.push(...(JSON.parse(body) as { events: Array<{ event_type: string }> }).events.map((e) => e.event_type))
      return 200
    },
  })
  return { analytics, gets, uploaded, advance: clock.advance }
}

describe('remote-config GET (spec §7)', () => {
  it('is asked once per session, with api_key, config_keys and session_id', async () => {
    const { analytics, gets, advance } = harness(async () => ({ code: 200, configs: { AMPLITUDE_DISABLED_EVENTS: [] } }))
    analytics.track('tap')
    await advance(30_000)
    analytics.track('tap')
    await advance(30_000)
    expect(gets).toHaveLength(1)
    expect(Object.fromEntries(gets[0])).toEqual({ api_key: 'parlay-web-1', config_keys: 'AMPLITUDE_DISABLED_EVENTS', session_id: '1768478400000' })
  })

  it('an event the answer disables is not uploaded, one it enables again is', async () => {
    const { analytics, uploaded, advance } = harness(async () => ({ code: 200, configs: { AMPLITUDE_DISABLED_EVENTS: ['popup open'] } }))
    analytics.track('popup open') // queued before the answer came: dropped when it comes
    await advance(0)
    analytics.track('popup open')
    analytics.track('boot-disabled')
    analytics.track('screen view')
    await advance(10_000)
    expect(uploaded).toEqual(['boot-disabled', 'screen view'])
  })

  it.each([
    ['a network failure', () => Promise.reject(new Error('offline'))],
    ['no answer (the gateway said not OK)', async () => null],
    ['an answer without the list', async () => ({ code: 200, configs: {} })],
  ])('%s keeps the boot settings', async (_name, answer) => {
    const { analytics, gets, uploaded, advance } = harness(answer)
    await advance(0)
    expect(gets).toHaveLength(1)
    analytics.track('boot-disabled')
    analytics.track('popup open')
    await advance(10_000)
    expect(uploaded).toEqual(['popup open'])
  })
})

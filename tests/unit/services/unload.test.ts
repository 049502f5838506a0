/**
 * A leaving page's last requests (issue 18): a request outlives the page only if its keepalive
 * fetch starts inside the pagehide handler, before the handler returns — a leaving page gets no
 * later turn of the event loop. These tests run a pagehide handler on a plain EventTarget and
 * check the fetch was called before dispatchEvent returned: the gateway's keepalive call, the
 * replay's last batch and the analytics queue. No timers, no sleeps.
 */
import { describe, expect, it, vi } from 'vitest'
import { createGateway } from '../../../engine/core/gateway'
import { createEngineStores } from '../../../engine/core/stores'
import { createReplayBatcher } from '../../../engine/core/replay-batches'
import { createAnalytics } from '../../../engine/core/analytics'
import { REPLAY_PLAIN_TYPE, transportFor } from '../../../engine/services/replay'
import { response, siteBootstrap } from '../engine/helpers'

function pageWithGateway() {
  const stores = createEngineStores({ site: siteBootstrap() })
  const fetch = vi.fn((_url: string, _init?: RequestInit) => Promise.resolve(response({ status: 200, body: { status: 'OK', payload: null } })))
  const gateway = createGateway({ fetch, stores })
  const page = new EventTarget()
  /** Fires pagehide; returns the fetches started before the handlers returned. */
  const leave = () => {
    page.dispatchEvent(new Event('pagehide'))
    return fetch.mock.calls.map(([url, init]) => ({ url, init: init! }))
  }
  return { gateway, fetch, page, leave }
}

describe('a leaving page\'s requests start inside the pagehide handler (issue 18)', () => {
  it('the gateway starts a keepalive call\'s fetch before call() returns, with keepalive set', () => {
    const { gateway, page, leave } = pageWithGateway()
    page.addEventListener('pagehide', () => void gateway.call('POST', '/errors', '{}', { contentType: 'application/json', keepalive: true, retryUnauthorized: false }))
    const started = leave()
    expect(started).toHaveLength(1)
    expect(started[0].init.keepalive).toBe(true)
  })

  it('the replay\'s last batch: flushed in the handler, sent at once as plain JSON with keepalive (no compression to wait for)', () => {
    const { gateway, page, leave } = pageWithGateway()
    let leaving = false
    const batcher = createReplayBatcher({ transport: transportFor({ deviceId: 'd-1', sessionId: 7, userId: () => undefined, gateway }, () => leaving), schedule: () => () => undefined })
    batcher.add({ type: 3, timestamp: 1, data: { source: 5, text: '***' } })
    page.addEventListener('pagehide', () => {
      leaving = true
      void batcher.flush()
    })
    const started = leave()
    expect(started).toHaveLength(1)
    expect(started[0].url).toMatch(/^\/replay\/api\/1\/batch\?device_id=d-1&session_id=7&type=replay$/)
    expect(started[0].init).toMatchObject({ keepalive: true, body: '{"version":1,"events":[{"type":3,"timestamp":1,"data":{"source":5,"text":"***"}}]}' })
    expect((started[0].init.headers as Record<string, string>)['content-type']).toBe(REPLAY_PLAIN_TYPE)
  })

  it('a last replay batch over the 64 KB keepalive budget is still started in the handler (without keepalive), not left waiting for gzip', () => {
    const { gateway, page, leave } = pageWithGateway()
    const batcher = createReplayBatcher({ transport: transportFor({ deviceId: 'd-1', sessionId: 7, userId: () => 'p-1', gateway }, () => true), schedule: () => () => undefined })
    batcher.add({ type: 2, data: 'x'.repeat(70_000) })
    page.addEventListener('pagehide', () => void batcher.flush())
    const started = leave()
    expect(started).toHaveLength(1)
    expect(started[0].init.keepalive).toBeUndefined()
    expect(started[0].url).toContain('user_id=p-1')
  })

  it('analytics: events queued behind an upload in flight are sent in the handler too, and not sent twice after', async () => {
    const { gateway, page, leave, fetch } = pageWithGateway()
    let answer!: (status: number) => void
    const bodies: string[] = []
    const analytics = createAnalytics({
      apiKey: 'k',
      deviceId: 'd-1',
      sessionId: 7,
      now: () => 0,
      schedule: () => () => undefined,
      transport: (body) => {
        bodies.push(body)
        // the first upload hangs (slow network); the others go through the gateway
        if (bodies.length === 1) return new Promise<number>((done) => (answer = done))
        return gateway.call('POST', '/analytics', body, { contentType: 'application/json', keepalive: true, retryUnauthorized: false }).then((r) => (r.ok ? 200 : null))
      },
    })
    analytics.track('screen view')
    void analytics.flush() // in flight, unanswered
    analytics.track('button click')
    page.addEventListener('pagehide', () => analytics.leave())
    const started = leave()
    expect(started).toHaveLength(1)
    expect(started[0].init.keepalive).toBe(true)
    expect((JSON.parse(String(started[0].init.body)) as { events: { event_type: string }[] }).events.map((e) => e.event_type)).toEqual(['button click'])
    answer(200)
    await new Promise((r) => setImmediate(r))
    expect(analytics.pending()).toBe(0)
    expect(fetch).toHaveBeenCalledTimes(1)
  })
})

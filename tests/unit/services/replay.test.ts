/**
 * Session-replay batching (spec §9; issue 18): batches split at 1,000,000 bytes of JSON body,
 * sent at the latest one interval (500 ms – 10 s) after their first event, two flush retries
 * waiting attempt × 1 s. A fake transport and a manual clock, no sleeps.
 */
import { describe, expect, it } from 'vitest'
import { manualClock } from '../../support/manual-clock'
import { clampInterval, createReplayBatcher, REPLAY_LIMITS, utf8Length, type ReplayBatcherOptions } from '../../../engine/core/replay-batches'

function harness(replies: boolean[] = [true], extra: Partial<ReplayBatcherOptions> = {}) {
  const clock = manualClock()
  const sent: Array<{ body: string; at: number }> = []
  const dropped: number[] = []
  const batcher = createReplayBatcher({
    schedule: clock.schedule,
    async transport(body) {
      sent.push({ body, at: clock.now() })
      return replies.length > 1 ? replies.shift()! : replies[0]
    },
    onDropped: (bytes) => dropped.push(bytes),
    ...extra,
  })
  const events = () => sent.map((s) => (JSON.parse(s.body) as { version: number; events: Array<{ n: number }> }).events.map((e) => e.n))
  return { batcher, sent, dropped, advance: clock.advance, events }
}

/** An rrweb-like event of about `bytes` bytes of JSON. */
const event = (n: number, bytes = 100) => ({ type: 3, timestamp: n, n, data: 'x'.repeat(Math.max(0, bytes - 40)) })

describe('replay batches (spec §9: split at 1,000,000 bytes or 500 ms – 10 s, 2 flush retries)', () => {
  it('the limits are the spec\'s numbers', () =>
    expect(REPLAY_LIMITS).toEqual({ maxBatchBytes: 1_000_000, minIntervalMs: 500, maxIntervalMs: 10_000, flushRetries: 2, retryBackoffMs: 1_000, compressionQueue: 2_000 }))

  it('the interval is clamped to 500 ms – 10 s', () => {
    expect(clampInterval(100)).toBe(500)
    expect(clampInterval(60_000)).toBe(10_000)
    expect(clampInterval(undefined)).toBe(10_000)
    expect(clampInterval(2_000)).toBe(2_000)
  })

  it('a batch goes out one interval after its first event, with version 1 and the events in order', async () => {
    const { batcher, sent, advance, events } = harness([true], { intervalMs: 2_000 })
    batcher.add(event(1))
    await advance(1_000)
    batcher.add(event(2))
    await advance(999)
    expect(sent).toHaveLength(0)
    await advance(1)
    expect(events()).toEqual([[1, 2]])
    expect(JSON.parse(sent[0].body).version).toBe(1)
  })

  it('no batch body is ever over 1,000,000 bytes: the batch that would pass it is sent first', async () => {
    const { batcher, sent, advance, events } = harness()
    for (let n = 1; n <= 5; n++) batcher.add(event(n, 300_000))
    await advance(10_000)
    expect(events()).toEqual([[1, 2, 3], [4, 5]])
    for (const s of sent) expect(utf8Length(s.body)).toBeLessThanOrEqual(1_000_000)
    expect(utf8Length(sent[0].body)).toBeGreaterThan(900_000)
  })

  it('bytes are counted as UTF-8 (a Cyrillic text weighs twice its length)', () => {
    expect(utf8Length('abc')).toBe(3)
    expect(utf8Length('Привет')).toBe(12)
    expect(utf8Length('€')).toBe(3)
    expect(utf8Length('😀')).toBe(4)
  })

  it('an event over the limit by itself is dropped, never sent', async () => {
    const { batcher, sent, dropped, advance, events } = harness()
    batcher.add(event(1, 1_000_100))
    batcher.add(event(2))
    await advance(10_000)
    expect(dropped).toHaveLength(1)
    expect(events()).toEqual([[2]])
    expect(sent).toHaveLength(1)
  })

  it('a failed upload is retried twice, after 1 s and then 2 s, then given up', async () => {
    const { batcher, sent, advance } = harness([false])
    batcher.add(event(1))
    void batcher.flush()
    await advance(5_000)
    expect(sent.map((s) => s.at)).toEqual([0, 1_000, 3_000])
  })

  it('an upload that succeeds on a retry is not sent again', async () => {
    const { batcher, sent, advance } = harness([false, true])
    batcher.add(event(1))
    void batcher.flush()
    await advance(10_000)
    expect(sent).toHaveLength(2)
  })

  it('flush sends at once (pagehide) and cancels the interval', async () => {
    const { batcher, sent, advance } = harness()
    batcher.add(event(1))
    await batcher.flush()
    expect(sent).toHaveLength(1)
    expect(batcher.pendingBytes()).toBe(0)
    await advance(20_000)
    expect(sent).toHaveLength(1)
  })
})

describe('remote-config switches of the services', () => {
  it('replay records only with AMPLITUDE_REPLAY on, an AMPLITUDE_KEY and all cookies accepted', async () => {
    const { replayWanted } = await import('../../../engine/services/browser')
    const on = { AMPLITUDE_REPLAY: true, AMPLITUDE_KEY: 'parlay-web-1' }
    expect(replayWanted(on, 'all')).toBe(true)
    expect(replayWanted(on, 'necessary')).toBe(false)
    expect(replayWanted(on, null)).toBe(false)
    expect(replayWanted({ ...on, AMPLITUDE_REPLAY: false }, 'all')).toBe(false)
    expect(replayWanted({ ...on, AMPLITUDE_KEY: '' }, 'all')).toBe(false)
  })

  it('error reports are on unless the site\'s remote config sets ERROR_REPORTING_ENABLED to false', async () => {
    const { errorReportingOn } = await import('../../../engine/services/browser')
    expect(errorReportingOn({ ERROR_REPORTING_ENABLED: true })).toBe(true)
    expect(errorReportingOn({})).toBe(true)
    expect(errorReportingOn({ ERROR_REPORTING_ENABLED: false })).toBe(false)
  })

  it('events wait for idle time to be encoded, in a queue of at most 2,000; a full queue is encoded at once, nothing dropped', async () => {
    const idleTasks: Array<() => void> = []
    const { batcher, advance, events, dropped } = harness([true], { intervalMs: 500, idle: (task) => void idleTasks.push(task) })
    for (let n = 0; n < 2_000; n++) batcher.add(event(n, 50))
    expect(batcher.queuedEvents()).toBe(2_000)
    expect(batcher.pendingBytes()).toBe(0)
    expect(idleTasks).toHaveLength(1)
    batcher.add(event(2_000, 50))
    expect(batcher.queuedEvents()).toBe(1)
    expect(batcher.pendingBytes()).toBeGreaterThan(0)
    idleTasks.shift()!()
    expect(batcher.queuedEvents()).toBe(0)
    await advance(500)
    expect(events().flat()).toEqual(Array.from({ length: 2_001 }, (_, n) => n))
    expect(dropped).toEqual([])
  })

  it('a flush (pagehide) encodes what is still queued first', async () => {
    const { batcher, events } = harness([true], { idle: () => undefined })
    batcher.add(event(1))
    batcher.add(event(2))
    await batcher.flush()
    expect(events()).toEqual([[1, 2]])
  })
})

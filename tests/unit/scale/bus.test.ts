/**
 * The bus (server/bus): the process implementation and the Redis one answer the same — fixed-window
 * counters, cooldown claims, messages that carry their sender — and the Redis one refuses counters
 * (BusUnavailableError) while Redis is away instead of queueing them, then works again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProcessBus, BusUnavailableError, type Bus, type BusEnvelope } from '../../../server/bus/bus'
import { createRedisBus } from '../../../server/bus/redis-bus'
import { createLogger } from '../../../server/log'
import { holdingProxy, startTestRedis, type TestRedis } from '../../support/redis'

const quiet = createLogger(() => undefined, true)

async function until(what: string, probe: () => Promise<boolean>, deadlineMs = 10_000) {
  const started = Date.now()
  while (!(await probe())) {
    if (Date.now() - started > deadlineMs) throw new Error(`${what}: not within ${deadlineMs} ms`)
    await new Promise((done) => setTimeout(done, 20)) // poll interval
  }
}

let redis: TestRedis
let redisBus: Bus
let otherRedisBus: Bus
beforeAll(async () => {
  redis = await startTestRedis()
  redisBus = await createRedisBus(redis.url, quiet)
  otherRedisBus = await createRedisBus(redis.url, quiet)
})
afterAll(async () => {
  await redisBus?.close()
  await otherRedisBus?.close()
  await redis?.stop()
})

describe('both buses count the same', () => {
  const clock = { now: 1_000_000 }
  const cases: [string, () => Bus][] = [
    ['process', ((bus) => () => bus)(createProcessBus(() => clock.now))],
    ['redis', () => redisBus],
  ]
  for (const [name, bus] of cases) {
    it(`${name}: hits count up inside a window, forget starts over, a claim holds until it ends`, async () => {
      const key = `test:${name}:${Math.random()}`
      expect(await bus().count(key)).toBe(0)
      expect([await bus().hit(key, 60_000), await bus().hit(key, 60_000), await bus().hit(key, 60_000)]).toEqual([1, 2, 3])
      expect(await bus().count(key)).toBe(3)
      await bus().forget(key)
      expect(await bus().count(key)).toBe(0)
      expect(await bus().claim(`${key}:cooldown`, 60_000)).toBe(0)
      const held = await bus().claim(`${key}:cooldown`, 60_000)
      expect(held).toBeGreaterThan(0)
      expect(held).toBeLessThanOrEqual(60_000)
    })
  }

  it('process: a window ends on the injected clock', async () => {
    const bus = createProcessBus(() => clock.now)
    await bus.hit('k', 1_000)
    clock.now += 999
    expect(await bus.count('k')).toBe(1)
    clock.now += 1
    expect(await bus.count('k')).toBe(0)
    expect(await bus.claim('c', 500)).toBe(0)
    clock.now += 500
    expect(await bus.claim('c', 500)).toBe(0)
  })

  it("redis: a window ends on Redis's clock (the key expires)", async () => {
    const key = `test:expiry:${Math.random()}`
    expect(await redisBus.hit(key, 50)).toBe(1)
    await until('the window ends', async () => (await redisBus.count(key)) === 0)
  })
})

describe('messages', () => {
  it('a message published by one Redis bus reaches the other with its sender', async () => {
    const got: BusEnvelope[] = []
    const off = otherRedisBus.subscribe('documents-published', (envelope) => got.push(envelope))
    try {
      // the subscription is live once a probe message comes back
      await until('subscribed', async () => {
        redisBus.publish('documents-published', { probe: true })
        return got.length > 0
      })
      redisBus.publish('documents-published', { generation: 7 })
      await until('delivered', async () => got.some((e) => (e.body as { generation?: number }).generation === 7))
      expect(got.find((e) => (e.body as { generation?: number }).generation === 7)!.from).toBe(redisBus.instanceId)
    } finally {
      off()
    }
  })

  it('the process bus delivers to its own subscribers with its own id', async () => {
    const bus = createProcessBus()
    const got: BusEnvelope[] = []
    bus.subscribe('gambling', (envelope) => got.push(envelope))
    bus.publish('gambling', { type: 'casino' })
    await until('delivered', async () => got.length === 1)
    expect(got[0]).toEqual({ from: bus.instanceId, body: { type: 'casino' } })
  })
})

describe('subscriptions', () => {
  // ioredis writes a SUBSCRIBE at once while its connection is still in the handshake; the ready
  // check's INFO then fails in subscriber mode and ioredis reconnects without the channel: an
  // instance that started that way never heard the other instances (server/bus/redis-bus.ts)
  it('a channel subscribed while the connection is still in its handshake is heard once it is ready', async () => {
    const proxy = await holdingProxy(redis.port)
    // no wait at start: the bus is handed over with both connections still in their handshake
    const bus = await createRedisBus(`redis://127.0.0.1:${proxy.port}`, quiet, 0)
    const got: BusEnvelope[] = []
    try {
      await until('both connections have sent their handshake', async () => proxy.talking() >= 2)
      bus.subscribe('gambling', (envelope) => got.push(envelope))
      proxy.release()
      await until('the bus is ready', async () => bus.available())
      await until('a message from another instance arrives', async () => {
        otherRedisBus.publish('gambling', { probe: true })
        return got.some((envelope) => envelope.from === otherRedisBus.instanceId)
      })
    } finally {
      await bus.close()
      await proxy.close()
    }
  }, 20_000)
})

describe('Redis away', () => {
  it('counters reject with BusUnavailableError at once (nothing queued), and work again once Redis is back; channels are subscribed again', async () => {
    const got: BusEnvelope[] = []
    const off = redisBus.subscribe('punter-events', (envelope) => got.push(envelope))
    await redis.stop()
    await until('the bus notices', async () => !redisBus.available())
    await expect(redisBus.hit('test:away', 1_000)).rejects.toBeInstanceOf(BusUnavailableError)
    redisBus.publish('gambling', { lost: true }) // never throws
    await redis.start()
    await until('the bus reconnects', async () => redisBus.available())
    expect(await redisBus.hit(`test:back:${Math.random()}`, 1_000)).toBe(1)
    // the new listener connection subscribed the channel again (ioredis's auto-resubscribe is off)
    await until('a message from another instance arrives after the outage', async () => {
      otherRedisBus.publish('punter-events', { probe: true })
      return got.some((envelope) => envelope.from === otherRedisBus.instanceId)
    })
    off()
  }, 30_000)
})

/**
 * Issue 30 item 4: a locked SQLite file never stalls other requests. Another process (a second
 * instance on the same file, a backup) holds the file's write lock for 10 s; before, each write
 * blocked the event loop for up to 5 s (better-sqlite3 is synchronous, busy_timeout blocks) and
 * /ping.json took 10.4 s. Now a write waits for the lock off the event loop
 * (server/db/sqlite-driver.ts) and reads run on a reader connection.
 *
 * The holder is a real child process with BEGIN IMMEDIATE open on the file. While it holds: the
 * ping and a database read (the heartbeat: session and punter rows) answer in under 100 ms nine
 * times in ten (or, on a machine too loaded for that even without a lock, within twice their
 * unlocked time) and never stall for a second; a deposit started at once waits its bound (5 s) and answers 503 STORAGE_UNAVAILABLE with
 * Retry-After, leaving no payment; a deposit started later completes once the lock is released.
 * SQLite only: on PostgreSQL a waiting statement never held the event loop.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCK_TIMEOUT_MS } from '../../server/db/data-layer'
import { startMoneyServer, type MoneyServer } from './payments/support'
import { onPostgres } from '../support/server'
import { sqliteLockHolder } from '../support/storage-faults'

const HOLD_MS = 10_000

describe.skipIf(onPostgres)('another process holds the SQLite write lock for 10 s', () => {
  let server: MoneyServer
  let hash: string
  beforeAll(async () => {
    server = await startMoneyServer()
    hash = await server.login('opened@demo.parlay.test')
  }, 120_000)
  afterAll(async () => server?.dispose())

  const deposit = () => server.call('POST', 'payments/deposit', { hash, body: { amount: 15, method: 'card' } })
  const payments = () => server.deps.db.prepare('SELECT COUNT(*) AS n FROM payments').pluck().get() as number

  it('the ping and a database read stay under 100 ms; a write waits off the event loop: 503 past its bound, done once the lock is free', { timeout: 60_000 }, async () => {
    const paymentsBefore = payments()
    const baselineTimes = { ping: [] as number[], read: [] as number[] }
    for (let i = 0; i < 40; i++) {
      const ping = await server.call('GET', '/ping.json')
      const read = await server.call('GET', 'heartbeat', { hash })
      baselineTimes.ping.push(ping.ms)
      baselineTimes.read.push(read.ms)
    }
    const holder = await sqliteLockHolder(join(server.deps.config.dataDir, 'parlay.db'))
    const lockedAt = Date.now()
    const lockedTimes = { ping: [] as number[], read: [] as number[] }
    const sample = async () => {
      const ping = await server.call('GET', '/ping.json')
      const read = await server.call('GET', 'heartbeat', { hash })
      expect([ping.status, read.status]).toEqual([200, 200])
      lockedTimes.ping.push(ping.ms)
      lockedTimes.read.push(read.ms)
    }
    try {
      let first: Awaited<ReturnType<typeof deposit>> | undefined
      const firstAt = Date.now()
      const firstWrite = deposit().then((answer) => (first = answer))
      while (!first) await sample()
      expect(first.status).toBe(503)
      expect(first.json).toEqual({ status: 'ERROR', errorCode: 'STORAGE_UNAVAILABLE' })
      expect(first.headers.get('retry-after')).toMatch(/^\d+$/)
      expect(Date.now() - firstAt).toBeGreaterThanOrEqual(LOCK_TIMEOUT_MS - 50) // it waited its bound, it did not give up at once
      await firstWrite

      while (Date.now() - lockedAt < HOLD_MS - 3_000) await sample()
      let second: Awaited<ReturnType<typeof deposit>> | undefined
      const secondWrite = deposit().then((answer) => (second = answer))
      while (Date.now() - lockedAt < HOLD_MS) await sample()
      expect(second).toBeUndefined() // still waiting for the lock
      await holder.release()
      await secondWrite
      expect(second!.status, JSON.stringify(second!.json)).toBe(200)
    } finally {
      holder.child.kill()
    }
    // Nine calls in ten under 100 ms; on a machine so loaded that the same calls are slower than
    // that with no lock at all (the baseline), no slower than twice the baseline's: the lock adds
    // nothing. And no call stalls: the slowest stays under a second (before: each waiting write
    // froze the process for its 5 s busy timeout, and /ping.json took 10.4 s). One slowest sample
    // alone is the scheduler's noise on a shared machine, not the lock's.
    const p90 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length * 0.9)]
    const figures = JSON.stringify({ baseline: { ping: p90(baselineTimes.ping), read: p90(baselineTimes.read) }, locked: { ping: p90(lockedTimes.ping), read: p90(lockedTimes.read), slowest: Math.max(...lockedTimes.ping, ...lockedTimes.read) } })
    expect(p90(lockedTimes.ping), figures).toBeLessThan(Math.max(100, 2 * p90(baselineTimes.ping)))
    expect(p90(lockedTimes.read), figures).toBeLessThan(Math.max(100, 2 * p90(baselineTimes.read)))
    expect(Math.max(...lockedTimes.ping, ...lockedTimes.read), figures).toBeLessThan(1000)
    expect(payments()).toBe(paymentsBefore + 1) // the refused deposit left nothing
  })
})

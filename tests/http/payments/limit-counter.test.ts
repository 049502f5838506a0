/**
 * The deposit-limit counter counts only credited money (issue 28 item 6, server side;
 * docs/adr/0006-deposit-limit-counts-credited-money.md). The reported case: 170 shown while 70
 * had arrived, then deposits within the limit refused. A payment still open at the provider is
 * held against the limit (shown apart as `inProgress`) until the provider decides it; a failed,
 * cancelled or expired one is released; one the provider took is credited and counted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMoneyServer, type MoneyServer } from './support'

let server: MoneyServer
beforeAll(async () => {
  server = await startMoneyServer()
})
afterAll(async () => server?.dispose())

const MINUTE = 60_000
const limits = async (hash: string) => (await server.call('GET', 'payments/deposit-limits', { hash })).json.payload
const daily = async (hash: string) => (await limits(hash)).limits.find((l: { period: string }) => l.period === 'daily')
const start = (hash: string, amount: number) => server.call('POST', 'payments/deposit', { hash, body: { amount, method: 'card' } })
const balance = async (hash: string) => (await server.call('GET', 'heartbeat', { hash })).json.payload.balanceInfo.mainBalance as number

/** Starts a deposit and plays the provider's pages to an outcome; `confirm` returns to the site as the browser would. */
async function deposit(hash: string, amount: number, outcome: 'approve' | 'fail' | 'cancel' | 'walk-away', confirm = true): Promise<string> {
  const started = await start(hash, amount)
  expect(started.status, JSON.stringify(started.json)).toBe(200)
  const { paymentId } = started.json.payload
  if (outcome === 'walk-away') return paymentId
  const card = outcome === 'fail' ? '4000 0000 0000 0002' : '4242 4242 4242 4242'
  const back = await server.provider('/dev/payments/checkout', { paymentId, card, action: outcome === 'cancel' ? 'cancel' : 'pay' })
  if (back.startsWith('/dev/payments/3ds')) await server.provider('/dev/payments/3ds', { paymentId, action: 'approve' })
  if (confirm) await server.call('POST', 'payments/deposit/confirm', { hash, body: { paymentId } })
  return paymentId
}

describe('the deposit-limit counter counts only credited deposits', () => {
  it('100 cancelled at the provider (the browser never came back) and 70 paid: the counter shows 70, and a deposit up to the limit (130 of 200) is taken', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    await server.call('PUT', 'payments/deposit-limits', { hash, body: { daily: 200 } })
    await deposit(hash, 100, 'cancel', false)
    await deposit(hash, 70, 'approve')
    expect(await daily(hash)).toMatchObject({ amount: 200, used: 70, inProgress: 0 })
    expect((await start(hash, 130.01)).json).toMatchObject({ errorCode: 'DAILY_DEPOSIT_LIMIT_EXCEED', payload: { limit: 200, used: 70, inProgress: 0 } })
    await deposit(hash, 130, 'approve')
    expect(await daily(hash)).toMatchObject({ used: 200, inProgress: 0 })
  })

  it('a declined card never counts', async () => {
    const hash = await server.login('PersonalDomain')
    await server.call('PUT', 'payments/deposit-limits', { hash, body: { daily: 50 } })
    await deposit(hash, 50, 'fail')
    expect(await daily(hash)).toMatchObject({ used: 0, inProgress: 0 })
    await deposit(hash, 50, 'approve')
    expect(await daily(hash)).toMatchObject({ used: 50, inProgress: 0 })
  })

  it('a payment left open at the provider is held (not shown as used) until its checkout expires, then released', async () => {
    const hash = await server.login('HighRoller')
    await server.call('PUT', 'payments/deposit-limits', { hash, body: { daily: 200 } })
    await deposit(hash, 120, 'walk-away')
    expect(await daily(hash)).toMatchObject({ used: 0, inProgress: 120 })
    expect((await start(hash, 100)).json).toMatchObject({ errorCode: 'DAILY_DEPOSIT_LIMIT_EXCEED', payload: { used: 0, inProgress: 120 } })
    server.clock.now += 30 * MINUTE // the simulator's checkout window (PAYMENT_ABANDONED_AFTER_MS)
    try {
      const again = await server.login('HighRoller')
      expect(await daily(again)).toMatchObject({ used: 0, inProgress: 0 })
      expect((await start(again, 200)).status).toBe(200)
    } finally {
      server.clock.now -= 30 * MINUTE
    }
  })

  it('a payment the provider took while the punter never came back is credited when the limit is next read, and counted then', async () => {
    const hash = await server.login('japan@demo.parlay.test')
    await server.call('PUT', 'payments/deposit-limits', { hash, body: { daily: 100 } })
    const before = await balance(hash)
    await deposit(hash, 60, 'approve', false) // the browser closed on the provider's page
    expect(await daily(hash)).toMatchObject({ used: 60, inProgress: 0 })
    expect(await balance(hash)).toBe(before + 60)
    expect((await start(hash, 40.01)).json).toMatchObject({ errorCode: 'DAILY_DEPOSIT_LIMIT_EXCEED', payload: { used: 60 } })
  })
})

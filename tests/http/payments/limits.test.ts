/**
 * Deposit limits (issue 12 item 4; spec §8 DAILY_/WEEKLY_/MONTHLY_DEPOSIT_LIMIT_EXCEED): a stricter
 * limit applies at once, a looser one after the jurisdiction's cooling-off time, on the injected clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMoneyServer, type MoneyServer } from './support'

let server: MoneyServer
beforeAll(async () => {
  server = await startMoneyServer()
})
afterAll(async () => server?.dispose())

const HOUR = 3_600_000
const limits = (hash: string, site?: string) => server.call('GET', 'payments/deposit-limits', { hash, site })
const setLimits = (hash: string, body: unknown, site?: string) => server.call('PUT', 'payments/deposit-limits', { hash, body, site })
const deposit = (hash: string, amount: number, site?: string) => server.call('POST', 'payments/deposit', { hash, body: { amount, method: 'card' }, site })
const limitOf = (answer: { json: any }, period: string) => answer.json.payload.limits.find((l: { period: string }) => l.period === period)

/** Moves the clock for the body, and back (tokens expire with time: log in again inside). */
async function later<T>(ms: number, body: () => Promise<T>): Promise<T> {
  server.clock.now += ms
  try {
    return await body()
  } finally {
    server.clock.now -= ms
  }
}

describe('deposit limits the punter sets', () => {
  it('a deposit over the daily limit is refused with DAILY_DEPOSIT_LIMIT_EXCEED; payments in progress are held against it, the counter shows only credited money', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    expect((await setLimits(hash, { daily: 100 })).json.payload.changes).toEqual({ daily: 'applied' })
    expect((await deposit(hash, 60)).status).toBe(200)
    const refused = await deposit(hash, 50)
    expect(refused.status).toBe(403)
    expect(refused.json).toEqual({ status: 'ERROR', errorCode: 'DAILY_DEPOSIT_LIMIT_EXCEED', payload: { period: 'daily', limit: 100, used: 0, inProgress: 60, currency: 'USD' } })
    expect((await deposit(hash, 40)).status).toBe(200)
    expect(limitOf(await limits(hash), 'daily')).toMatchObject({ amount: 100, used: 0, inProgress: 100, pending: null })
  })

  it('weekly and monthly limits answer their own codes', async () => {
    const hash = await server.login('HighRoller')
    await setLimits(hash, { weekly: 20 })
    expect((await deposit(hash, 25)).json.errorCode).toBe('WEEKLY_DEPOSIT_LIMIT_EXCEED')
    await setLimits(hash, { monthly: 10 })
    expect((await deposit(hash, 15)).json.errorCode).toBe('MONTHLY_DEPOSIT_LIMIT_EXCEED')
    expect((await deposit(hash, 10)).status).toBe(200)
  })

  it('lowering applies at once; raising waits the cooling-off time of the jurisdiction (Curaçao 24 h)', async () => {
    const hash = await server.login('PersonalDomain')
    await setLimits(hash, { daily: 50 })
    const raised = await setLimits(hash, { daily: 500 })
    expect(raised.json.payload.changes).toEqual({ daily: 'pending' })
    expect(limitOf(raised, 'daily')).toMatchObject({ amount: 50, pending: { amount: 500, effectiveAt: new Date(server.clock.now + 24 * HOUR).toISOString() } })
    expect((await deposit(hash, 100)).json.errorCode).toBe('DAILY_DEPOSIT_LIMIT_EXCEED')
    await later(24 * HOUR - 1, async () => {
      const again = await server.login('PersonalDomain')
      expect((await deposit(again, 100)).json.errorCode).toBe('DAILY_DEPOSIT_LIMIT_EXCEED')
    })
    await later(24 * HOUR, async () => {
      const again = await server.login('PersonalDomain')
      expect(limitOf(await limits(again), 'daily')).toMatchObject({ amount: 500, pending: null })
      expect((await deposit(again, 100)).status).toBe(200)
    })
  })

  it('lowering while a raise waits drops the raise; removing a limit is a raise and waits too', async () => {
    const hash = await server.login('japan@demo.parlay.test')
    await setLimits(hash, { weekly: 200 })
    await setLimits(hash, { weekly: 400 })
    const lowered = await setLimits(hash, { weekly: 100 })
    expect(lowered.json.payload.changes).toEqual({ weekly: 'applied' })
    expect(limitOf(lowered, 'weekly')).toMatchObject({ amount: 100, pending: null })
    const removed = await setLimits(hash, { weekly: null })
    expect(removed.json.payload.changes).toEqual({ weekly: 'pending' })
    expect(limitOf(removed, 'weekly')).toMatchObject({ amount: 100, pending: { amount: null } })
  })

  it('the cooling-off time is stated per jurisdiction in its document: Denmark 24 h, Spain 72 h with its statutory defaults', async () => {
    const spain = await server.login('spain@demo.parlay.test', 'spain')
    const before = await limits(spain, 'spain')
    expect(before.json.payload.increaseTakesEffectAfterHours).toBe(72)
    expect(limitOf(before, 'daily')).toMatchObject({ amount: 600 })
    expect(limitOf(before, 'monthly')).toMatchObject({ amount: 3000 })
    const raised = await setLimits(spain, { daily: 1000 }, 'spain')
    expect(limitOf(raised, 'daily').pending.effectiveAt).toBe(new Date(server.clock.now + 72 * HOUR).toISOString())
    const denmark = await server.login('denmark@demo.parlay.test', 'denmark')
    expect((await limits(denmark, 'denmark')).json.payload.increaseTakesEffectAfterHours).toBe(24)
  })

  it('bad input: unknown period, negative, more than 2 decimals, above the maximum, empty body, no session', async () => {
    const hash = await server.login('Opened')
    expect((await setLimits(hash, { yearly: 5 })).json).toMatchObject({ errorCode: 'ValidationError', payload: { code: 'unknownField' } })
    expect((await setLimits(hash, { daily: -1 })).json.errorCode).toBe('ValidationError')
    expect((await setLimits(hash, { daily: 1.005 })).json).toMatchObject({ payload: { field: 'daily', code: 'multipleOf' } })
    expect((await setLimits(hash, { daily: 60000 })).json).toMatchObject({ payload: { field: 'daily', code: 'maximum', limit: 50000 } })
    expect((await setLimits(hash, {})).status).toBe(400)
    expect((await setLimits(hash, [])).status).toBe(400)
    expect((await server.call('GET', 'payments/deposit-limits')).status).toBe(401)
  })
})

/**
 * Deposits through the payment-provider simulator (issue 12 item 3): the provider's pages, the
 * 3-D Secure outcomes, and crediting exactly once however the return is repeated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { punterEvents, type AccountUpdate } from '../../../server/punters/events'
import { startMoneyServer, type MoneyServer } from './support'

let server: MoneyServer
beforeAll(async () => {
  server = await startMoneyServer()
})
afterAll(async () => server?.dispose())

const paymentIdOf = (location: string) => new URL(location, 'http://x').searchParams.get('paymentId') ?? ''

/** Starts a deposit and walks the provider's pages; answers the payment id and where the provider sent the browser back. */
async function pay(hash: string, amount: number, steps: { card?: string; threeDS?: 'approve' | 'fail' | 'cancel'; cancelAtCheckout?: boolean }) {
  const started = await server.call('POST', 'payments/deposit', { hash, body: { amount, method: 'card' } })
  expect(started.status, JSON.stringify(started.json)).toBe(200)
  const { paymentId, redirectUrl } = started.json.payload
  expect(redirectUrl).toBe(`/dev/payments/checkout?paymentId=${paymentId}`)
  let back = await server.provider('/dev/payments/checkout', { paymentId, card: steps.card ?? '4242 4242 4242 4242', action: steps.cancelAtCheckout ? 'cancel' : 'pay' })
  if (back.startsWith('/dev/payments/3ds')) back = await server.provider('/dev/payments/3ds', { paymentId, action: steps.threeDS ?? 'approve' })
  return { paymentId, back }
}

const heartbeat = async (hash: string) => (await server.call('GET', 'heartbeat', { hash })).json.payload
const confirm = (hash: string, paymentId: string) => server.call('POST', 'payments/deposit/confirm', { hash, body: { paymentId } })

describe('deposit through the provider simulator with 3-D Secure', () => {
  it('the site lists its payment sources per currency from the jurisdiction document', async () => {
    const curacao = await server.call('GET', '/api/payments/methods')
    expect(curacao.json.payload.map((s: { id: string }) => s.id)).toEqual(['card', 'e-wallet', 'bank-transfer'])
    expect(curacao.json.payload[0]).toMatchObject({ currencies: ['USD', 'EUR'], threeDSecure: true })
    const denmark = await server.call('GET', '/api/payments/methods', { site: 'denmark' })
    expect(denmark.json.payload.map((s: { id: string }) => s.id)).toEqual(['card', 'mobilepay'])
  })

  it('3-D Secure approved: the provider returns through /threedsconfirm; balance, firstDepositDate and heartbeat change once', async () => {
    const hash = await server.login('zero@demo.parlay.test')
    expect((await heartbeat(hash)).firstDepositDate).toBeNull()
    const { paymentId, back } = await pay(hash, 25.5, { threeDS: 'approve' })
    expect(back).toBe(`/threedsconfirm?paymentId=${paymentId}`)
    const answer = await confirm(hash, paymentId)
    expect(answer.json.payload).toMatchObject({ paymentId, status: 'succeeded', amount: 25.5, currency: 'USD', balance: 25.5, firstDepositDate: '2026-01-15' })
    const user = await heartbeat(hash)
    expect(user.balanceInfo.mainBalance).toBe(25.5)
    expect(user.firstDepositDate).toBe('2026-01-15')
  })

  it('20 concurrent returns of one payment credit it exactly once, with one accountUpdate event', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    const before = (await heartbeat(hash)).balanceInfo.mainBalance
    const { paymentId } = await pay(hash, 40, { threeDS: 'approve' })
    const events: AccountUpdate[] = []
    const listener = (event: AccountUpdate) => events.push(event)
    punterEvents.on('accountUpdate', listener)
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => confirm(hash, paymentId)))
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200))
      expect(new Set(answers.map((a) => a.json.payload.status))).toEqual(new Set(['succeeded']))
      expect(new Set(answers.map((a) => a.json.payload.balance))).toEqual(new Set([before + 40]))
      // the page reloaded later: still the same answer, nothing more credited
      expect((await server.call('GET', `payments/deposit/${paymentId}`, { hash })).json.payload).toMatchObject({ status: 'succeeded', balance: before + 40 })
    } finally {
      punterEvents.off('accountUpdate', listener)
    }
    // Curaçao's deposit play-through (payments.withdrawal.depositPlaythrough 1): the 40 must be staked before it may be withdrawn
    expect(events).toEqual([{ punterId: expect.any(Number), balance: before + 40, withdrawable: before }])
    expect((await heartbeat(hash)).balanceInfo.mainBalance).toBe(before + 40)
  })

  it('3-D Secure failed, a declined card, or the punter abandoning: the payment closes and nothing is credited', async () => {
    const hash = await server.login('Opened')
    const before = (await heartbeat(hash)).balanceInfo.mainBalance
    const failed = await pay(hash, 10, { threeDS: 'fail' })
    expect((await confirm(hash, failed.paymentId)).json.payload).toMatchObject({ status: 'failed', balance: before })
    const declined = await pay(hash, 10, { card: '4000 0000 0000 0002' })
    expect(declined.back).toBe(`/threedsconfirm?paymentId=${declined.paymentId}`)
    expect((await confirm(hash, declined.paymentId)).json.payload.status).toBe('failed')
    const cancelled = await pay(hash, 10, { threeDS: 'cancel' })
    expect((await confirm(hash, cancelled.paymentId)).json.payload.status).toBe('abandoned')
    const leftAtCheckout = await pay(hash, 10, { cancelAtCheckout: true })
    expect((await confirm(hash, leftAtCheckout.paymentId)).json.payload.status).toBe('abandoned')
    expect((await heartbeat(hash)).balanceInfo.mainBalance).toBe(before)
  })

  it('a failed payment says why: a card declined before 3-D Secure is CARD_DECLINED, a failed 3-D Secure THREE_DS_FAILED; other outcomes carry no reason', async () => {
    const hash = await server.login('Opened')
    const declined = await pay(hash, 10, { card: '4000 0000 0000 0002' })
    // the provider sent the browser straight back: 3-D Secure never ran
    expect(declined.back).toBe(`/threedsconfirm?paymentId=${declined.paymentId}`)
    expect((await confirm(hash, declined.paymentId)).json.payload).toMatchObject({ status: 'failed', failureCode: 'CARD_DECLINED' })
    // asked again (a reload of the return page, or the GET): the same reason
    expect((await server.call('GET', `payments/deposit/${declined.paymentId}`, { hash })).json.payload).toMatchObject({ status: 'failed', failureCode: 'CARD_DECLINED' })
    const failed = await pay(hash, 10, { threeDS: 'fail' })
    expect((await confirm(hash, failed.paymentId)).json.payload).toMatchObject({ status: 'failed', failureCode: 'THREE_DS_FAILED' })
    const approved = await pay(hash, 10, { threeDS: 'approve' })
    expect((await confirm(hash, approved.paymentId)).json.payload.failureCode).toBeUndefined()
    const cancelled = await pay(hash, 10, { threeDS: 'cancel' })
    expect((await confirm(hash, cancelled.paymentId)).json.payload).not.toHaveProperty('failureCode')
  })

  it('a punter who never comes back from the provider: pending, then abandoned after 30 minutes (injected clock)', async () => {
    const hash = await server.login('Opened')
    const started = await server.call('POST', 'payments/deposit', { hash, body: { amount: 15, method: 'card' } })
    const paymentId = started.json.payload.paymentId
    expect((await confirm(hash, paymentId)).json.payload.status).toBe('pending')
    server.clock.now += 30 * 60_000
    try {
      const later = await server.login('Opened') // the first access token has expired meanwhile
      expect((await confirm(later, paymentId)).json.payload.status).toBe('abandoned')
      // the provider's page no longer takes the payment
      expect(await server.provider('/dev/payments/checkout', { paymentId, card: '4242424242424242', action: 'pay' })).toBe(`/threedsconfirm?paymentId=${paymentId}`)
      expect((await confirm(later, paymentId)).json.payload.status).toBe('abandoned')
    } finally {
      server.clock.now -= 30 * 60_000
    }
  })

  it('the same idempotency key answers the first payment again (a double tap pays once)', async () => {
    const hash = await server.login('Opened')
    const body = { amount: 12, method: 'card', idempotencyKey: 'tap-0123456789' }
    const [a, b] = await Promise.all([server.call('POST', 'payments/deposit', { hash, body }), server.call('POST', 'payments/deposit', { hash, body })])
    expect(a.json.payload.paymentId).toBe(b.json.payload.paymentId)
  })

  it('another punter cannot see or settle a payment', async () => {
    const owner = await server.login('Opened')
    const { paymentId } = await pay(owner, 10, { threeDS: 'approve' })
    const other = await server.login('HighRoller')
    expect((await confirm(other, paymentId)).json).toEqual({ status: 'ERROR', errorCode: 'PAYMENT_NOT_FOUND' })
    expect((await confirm(owner, paymentId)).json.payload.status).toBe('succeeded')
  })
})

describe('deposit: bad input and refusals are clear 4xx answers', () => {
  it('amount, method and body are checked; no session is a 401', async () => {
    const hash = await server.login('Opened')
    const bad = async (body: unknown) => (await server.call('POST', 'payments/deposit', { hash, body })).json
    expect(await bad({ amount: -5, method: 'card' })).toMatchObject({ status: 'ERROR', errorCode: 'ValidationError', payload: { field: 'amount' } })
    expect(await bad({ amount: 10.001, method: 'card' })).toMatchObject({ errorCode: 'ValidationError', payload: { field: 'amount', code: 'multipleOf' } })
    expect(await bad({ amount: 5, method: 'card' })).toMatchObject({ errorCode: 'ValidationError', payload: { field: 'amount', code: 'minimum', limit: 10 } })
    expect(await bad({ amount: 5001, method: 'card' })).toMatchObject({ errorCode: 'ValidationError', payload: { field: 'amount', code: 'maximum', limit: 5000 } })
    expect(await bad({ amount: 50, method: 'mobilepay' })).toMatchObject({ errorCode: 'ValidationError', payload: { field: 'method', code: 'enum' } })
    expect(await bad({ amount: '50', method: 'card' })).toMatchObject({ errorCode: 'ValidationError' })
    expect(await bad({ amount: 50, method: 'card', balance: 1e9 })).toMatchObject({ errorCode: 'ValidationError', payload: { code: 'unknownField' } })
    expect((await server.call('POST', 'payments/deposit', { hash, raw: '{"amount":', headers: { 'content-type': 'application/json' } })).status).toBe(400)
    expect((await server.call('POST', 'payments/deposit', { body: { amount: 50, method: 'card' } })).status).toBe(401)
    expect((await confirm(hash, 'no such id!')).json).toMatchObject({ errorCode: 'ValidationError' })
    expect((await confirm(hash, 'unknown-payment')).status).toBe(404)
  })

  it('restricted punters do not deposit: the restriction that decides is named (a document needed, a suspension)', async () => {
    for (const login of ['NeedDocument', 'Suspended']) {
      const hash = await server.login(login)
      const refused = await server.call('POST', 'payments/deposit', { hash, body: { amount: 50, method: 'card' } })
      expect(refused.status).toBe(403)
      expect(refused.json).toMatchObject({ errorCode: 'INCORRECT_PUNTER_STATE', payload: { operation: 'deposit' } })
    }
  })

  it('the simulator pages answer a stranger or a broken form without a crash', async () => {
    expect((await fetch(`${server.url}/dev/payments/checkout?paymentId=nothing`)).status).toBe(404)
    expect((await fetch(`${server.url}/dev/payments/3ds`)).status).toBe(404)
    expect(await server.provider('/dev/payments/3ds', {})).toBe('/threedsconfirm?paymentId=')
  })
})

/**
 * Withdrawals (issue 28 item 5) through the payment simulator: only withdrawable money; a pending
 * withdrawal the punter cancels (money back, ledger entries both ways); the provider paying or
 * failing it; the punter's own jurisdiction's rules read from its document (the oracle here is the
 * document file itself, read independently): which sources pay out, their minimum and maximum, the
 * identity to verify first; idempotency keys; parallel withdrawals never taking more than is
 * withdrawable; strict input. Every test leaves a ledger `ledger:verify` agrees with (checked again
 * when the server is disposed).
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyLedger } from '../../../server/punters/ledger-verify'
import { hashPassword } from '../../../server/punters/password'
import { insertPunter } from '../../../server/punters/repository'
import { SCHEMAS_DIR } from '../../support/server'
import { DEMO_PASSWORD, startMoneyServer, type MoneyServer } from './support'
import { siteDocument, SITES as DECLARED } from '../../support/sites'

let server: MoneyServer
let passwordHash: string
beforeAll(async () => {
  server = await startMoneyServer()
  passwordHash = await hashPassword(DEMO_PASSWORD)
})
afterAll(async () => server?.dispose())

const HOUR = 3_600_000
/** Every declared site (tests/support/sites.ts) and its currency, from its document. */
const SITES = Object.fromEntries(DECLARED.map((id) => [id, id])) as Record<string, string>
const CURRENCY = Object.fromEntries(DECLARED.map((id) => [id, siteDocument(id).currency])) as Record<string, string>
type Jurisdiction = string

/** The jurisdiction document as the operator wrote it: the oracle for the rules. */
const documentOf = (jurisdiction: Jurisdiction) =>
  JSON.parse(readFileSync(join(SCHEMAS_DIR, 'jurisdictions', jurisdiction, 'jurisdiction.json'), 'utf8')) as {
    payments: { sources: { id: string; currencies: string[] }[]; withdrawal: { sources: { id: string; minimum: number; maximum: number }[]; identityCheckAbove?: number } }
  }

/** A fresh punter of a jurisdiction holding `balanceMinor` (all withdrawable), logged in on its site; answers the id and the session hash. */
async function punter(jurisdiction: Jurisdiction, balanceMinor: number, identityState = 'none', withdrawableMinor = balanceMinor): Promise<{ id: number; hash: string; email: string }> {
  const email = `withdraw-${randomBytes(5).toString('hex')}@test.parlay.test`
  const made = await insertPunter(server.deps.data, { jurisdiction, currency: CURRENCY[jurisdiction], passwordHash, email, balanceMinor, withdrawableMinor, identityState, profile: { countryCode: 'CW' } }, server.clock.now)
  if (!made.ok) throw new Error(made.code)
  const site = SITES[jurisdiction]
  return { id: made.value.id, email, hash: await server.login(email, site) }
}

const withdraw = (hash: string, amount: number, method = 'card', idempotencyKey?: string) => server.call('POST', 'payments/withdrawal', { hash, body: { amount, method, ...(idempotencyKey ? { idempotencyKey } : {}) } })
const cancel = (hash: string, withdrawalId: string) => server.call('POST', 'payments/withdrawal/cancel', { hash, body: { withdrawalId } })
const view = async (hash: string) => (await server.call('GET', 'payments/withdrawals', { hash })).json.payload
const balanceInfo = async (hash: string) => (await server.call('GET', 'heartbeat', { hash })).json.payload.balanceInfo
const entries = (punterId: number) => server.deps.data.db.selectFrom('ledger_entries').select(['reference', 'kind', 'amount_minor', 'balance_after_minor']).where('punter_id', '=', punterId).where('account', '=', 'real').where('kind', '!=', 'opening').orderBy('id').execute()

describe('a withdrawal waits pending and can be cancelled', () => {
  it('40.00 of 150.00: the money leaves the balance at once and the withdrawal is pending; cancelled, it comes back; the ledger shows both ways', async () => {
    const { id, hash } = await punter('curacao', 15_000)
    const made = await withdraw(hash, 40)
    expect(made.status, JSON.stringify(made.json)).toBe(200)
    expect(made.json.payload).toMatchObject({ status: 'pending', amount: 40, currency: 'USD', method: 'card', cancellable: true, balance: 110, withdrawable: 110 })
    expect(await balanceInfo(hash)).toEqual({ mainBalance: 110, withdrawable: 110 })
    const pending = (await view(hash)).pending
    expect(pending).toMatchObject([{ withdrawalId: made.json.payload.withdrawalId, status: 'pending', amount: 40 }])
    const back = await cancel(hash, made.json.payload.withdrawalId)
    expect(back.json.payload).toMatchObject({ status: 'cancelled', cancellable: false, balance: 150, withdrawable: 150 })
    expect((await view(hash)).pending).toEqual([])
    const w = made.json.payload.withdrawalId
    expect(await entries(id)).toEqual([
      { reference: `withdrawal:${w}`, kind: 'withdrawal', amount_minor: -4_000, balance_after_minor: 11_000 },
      { reference: `withdrawal-cancel:${w}`, kind: 'withdrawal-cancel', amount_minor: 4_000, balance_after_minor: 15_000 },
    ])
    // cancelled again (a double tap, a second tab): the same answer, no second credit
    const again = await Promise.all([cancel(hash, w), cancel(hash, w)])
    expect(again.map((a) => [a.status, a.json.payload.status, a.json.payload.balance])).toEqual([[200, 'cancelled', 150], [200, 'cancelled', 150]])
    expect(await entries(id)).toHaveLength(2)
  })

  it('the provider pays it a day later: paid, nothing comes back, and it can no longer be cancelled', async () => {
    const { id, hash: first, email } = await punter('curacao', 5_000)
    const w = (await withdraw(first, 20)).json.payload.withdrawalId
    server.clock.now += 24 * HOUR
    try {
      const hash = await server.login(email) // a day later: a new session
      expect((await server.call('GET', `payments/withdrawal/${w}`, { hash })).json.payload).toMatchObject({ status: 'paid', balance: 30 })
      const refused = await cancel(hash, w)
      expect([refused.status, refused.json.errorCode, refused.json.payload]).toEqual([409, 'WITHDRAWAL_NOT_CANCELLABLE', { status: 'paid' }])
    } finally {
      server.clock.now -= 24 * HOUR
    }
    expect((await entries(id)).map((e) => e.kind)).toEqual(['withdrawal'])
  })

  it("the provider fails it (the back-office page): the money comes back once, under withdrawal-failed", async () => {
    const { id, hash } = await punter('curacao', 5_000)
    const w = (await withdraw(hash, 25)).json.payload.withdrawalId
    const page = await fetch(`${server.url}/dev/payments/payouts`)
    expect(await page.text()).toContain(`value="${w}"`)
    expect(await server.provider('/dev/payments/payouts', { withdrawalId: w, action: 'fail' })).toBe('/dev/payments/payouts')
    const seen = await Promise.all([server.call('GET', `payments/withdrawal/${w}`, { hash }), view(hash)])
    expect(seen[0].json.payload).toMatchObject({ status: 'failed', balance: 50, withdrawable: 50 })
    expect((await entries(id)).map((e) => [e.kind, e.amount_minor])).toEqual([['withdrawal', -2_500], ['withdrawal-failed', 2_500]])
  })
})

describe('only withdrawable money, once per key, never more in parallel', () => {
  it("a Curaçao deposit must be staked once before it may be withdrawn (payments.withdrawal.depositPlaythrough): withdrawable stays at the opening 10.00; asking more answers WITHDRAWAL_EXCEEDS_WITHDRAWABLE", async () => {
    const { hash } = await punter('curacao', 1_000)
    const started = (await server.call('POST', 'payments/deposit', { hash, body: { amount: 50, method: 'e-wallet' } })).json.payload
    await server.provider('/dev/payments/checkout', { paymentId: started.paymentId, card: '4242 4242 4242 4242', action: 'pay' })
    await server.call('POST', 'payments/deposit/confirm', { hash, body: { paymentId: started.paymentId } })
    expect(await balanceInfo(hash)).toEqual({ mainBalance: 60, withdrawable: 10 })
    const refused = await server.call('POST', 'payments/withdrawal', { hash, body: { amount: 10.01, method: 'e-wallet' } })
    expect([refused.status, refused.json.errorCode, refused.json.payload]).toEqual([409, 'WITHDRAWAL_EXCEEDS_WITHDRAWABLE', { withdrawable: 10, currency: 'USD' }])
    expect((await server.call('POST', 'payments/withdrawal', { hash, body: { amount: 10, method: 'e-wallet' } })).json.payload).toMatchObject({ status: 'pending', balance: 50, withdrawable: 0 })
  })

  it('20 withdrawals of 10.00 sent at once on 150.00 of which 100.00 is withdrawable: exactly 10 are taken, 50.00 (not yet staked) stays, the rest answer WITHDRAWAL_EXCEEDS_WITHDRAWABLE', async () => {
    const { id, hash } = await punter('curacao', 15_000, 'none', 10_000)
    const answers = await Promise.all(Array.from({ length: 20 }, () => withdraw(hash, 10)))
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10)
    expect(answers.filter((a) => a.status !== 200).map((a) => a.json.errorCode)).toEqual(Array(10).fill('WITHDRAWAL_EXCEEDS_WITHDRAWABLE'))
    expect(await balanceInfo(hash)).toEqual({ mainBalance: 50, withdrawable: 0 })
    expect(await entries(id)).toHaveLength(10)
  })

  it('one idempotency key sent 8 times at once withdraws once: every answer is the same withdrawal', async () => {
    const { id, hash } = await punter('curacao', 10_000)
    const key = `withdraw-key-${randomBytes(6).toString('hex')}`
    const answers = await Promise.all(Array.from({ length: 8 }, () => withdraw(hash, 30, 'card', key)))
    expect(new Set(answers.map((a) => a.json.payload.withdrawalId)).size).toBe(1)
    expect(await balanceInfo(hash)).toEqual({ mainBalance: 70, withdrawable: 70 })
    expect(await entries(id)).toHaveLength(1)
  })
})

describe("the punter's jurisdiction's rules, from its document", () => {
  it.each(Object.keys(SITES) as Jurisdiction[])('%s: the payout sources and their limits are the document\'s; one cent under the minimum and over the maximum are refused, naming the limit', async (jurisdiction) => {
    const rules = documentOf(jurisdiction).payments
    const { hash } = await punter(jurisdiction, 100_000_000, 'full')
    const offered = (await view(hash)).sources.map((s: { id: string; minimum: number; maximum: number }) => ({ id: s.id, minimum: s.minimum, maximum: s.maximum }))
    const expected = rules.withdrawal.sources.filter((w) => rules.sources.some((s) => s.id === w.id && s.currencies.includes(CURRENCY[jurisdiction])))
    expect(offered).toEqual(expected)
    const payIn = rules.sources.filter((s) => !rules.withdrawal.sources.some((w) => w.id === s.id))
    for (const source of payIn) expect((await withdraw(hash, 50, source.id)).json.payload).toEqual({ field: 'method', code: 'enum' })
    for (const source of expected) {
      const low = await withdraw(hash, Math.round((source.minimum - 0.01) * 100) / 100, source.id)
      expect([low.status, low.json.payload]).toEqual([400, { field: 'amount', code: 'minimum', limit: source.minimum }])
      const high = await withdraw(hash, source.maximum + 0.01, source.id)
      expect([high.status, high.json.payload]).toEqual([400, { field: 'amount', code: 'maximum', limit: source.maximum }])
      expect((await withdraw(hash, source.minimum, source.id)).status).toBe(200)
    }
  })

  it.each(Object.keys(SITES) as Jurisdiction[])("%s: a punter whose identity is not verified may withdraw only up to the document's identityCheckAbove; verified, the same withdrawal is taken", async (jurisdiction) => {
    const above = documentOf(jurisdiction).payments.withdrawal.identityCheckAbove
    const source = documentOf(jurisdiction).payments.withdrawal.sources[0]!
    const amount = Math.max(source.minimum, (above ?? 0) + 1)
    const unverified = await punter(jurisdiction, 100_000_000)
    const refused = await withdraw(unverified.hash, amount, source.id)
    if (above === undefined) expect(refused.status).toBe(200)
    else expect([refused.status, refused.json.errorCode, refused.json.payload]).toEqual([403, 'WITHDRAWAL_IDENTITY_REQUIRED', { limit: above, currency: CURRENCY[jurisdiction] }])
    if (above !== undefined && above >= source.minimum) expect((await withdraw(unverified.hash, above, source.id)).status).toBe(200)
    const verified = await punter(jurisdiction, 100_000_000, 'simple_success')
    expect((await withdraw(verified.hash, amount, source.id)).status).toBe(200)
  })

  it("a Spanish punter's rules stay Spain's under another site's host header: still refused for identity", async () => {
    const { hash } = await punter('spain', 50_000)
    const refused = await server.call('POST', 'payments/withdrawal', { hash, site: 'curacao', body: { amount: 20, method: 'card' } })
    expect([refused.status, refused.json.errorCode]).toEqual([403, 'WITHDRAWAL_IDENTITY_REQUIRED'])
  })
})

describe('bad input is a clear 4xx, and nothing moves', () => {
  it('strict bodies, unknown or foreign withdrawals, no session', async () => {
    const { hash } = await punter('curacao', 10_000)
    const other = await punter('curacao', 10_000)
    for (const body of [{ amount: 10, method: 'card', extra: 1 }, { amount: -5, method: 'card' }, { amount: 10.005, method: 'card' }, { amount: '10', method: 'card' }, { method: 'card' }, { amount: 10, method: 'CARD!' }]) {
      const answer = await server.call('POST', 'payments/withdrawal', { hash, body })
      expect([answer.status, answer.json.status, answer.json.errorCode], JSON.stringify(body)).toEqual([400, 'ERROR', 'ValidationError'])
    }
    expect((await server.call('POST', 'payments/withdrawal', { hash, raw: '{"amount":', headers: { 'content-type': 'application/json' } })).status).toBe(400)
    expect((await server.call('POST', 'payments/withdrawal/cancel', { hash, body: { withdrawalId: 'x', more: true } })).json.errorCode).toBe('ValidationError')
    expect((await cancel(hash, 'no-such-withdrawal')).json.errorCode).toBe('WITHDRAWAL_NOT_FOUND')
    const foreign = (await withdraw(other.hash, 10)).json.payload.withdrawalId
    expect((await cancel(hash, foreign)).status).toBe(404)
    expect((await server.call('GET', `payments/withdrawal/${foreign}`, { hash })).json.errorCode).toBe('WITHDRAWAL_NOT_FOUND')
    expect((await server.call('GET', 'payments/withdrawal/bad%20id', { hash })).status).toBe(400)
    expect((await server.call('POST', 'payments/withdrawal', { body: { amount: 10, method: 'card' } })).status).toBe(401)
    expect(await balanceInfo(hash)).toEqual({ mainBalance: 100, withdrawable: 100 })
    expect(await verifyLedger(server.deps.data.db)).toMatchObject({ ok: true })
  })
})

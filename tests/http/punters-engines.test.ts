/**
 * The punters store on the query layer (issue 16) keeps its rules on both engines: SQLite (one
 * server) and PostgreSQL, where two instances share one database and the writes of one punter arrive on both at once, as
 * behind a load balancer. What must hold: debits on two instances never overdraw the balance, a
 * ledger reference counts once wherever it is applied, a promo code counts once per punter, writes
 * of different profile fields and settings keep each other, and an e-mail or nickname (any case)
 * names one account.
 */
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { DataLayer } from '../../server/db/data-layer'
import { redeemPromoCode } from '../../server/payments/bonus'
import { changeBalance } from '../../server/punters/events'
import { punterLocaleSetting, setProfileField } from '../../server/punters/lookups'
import { findPunterById, findPunterByLogin, insertPunter, saveServerSettings, type Punter } from '../../server/punters/repository'
import { engines } from '../support/postgres'
import { startTestServer, type TestServer } from '../support/server'

const { each: ENGINES, pairEach } = engines()

const NOW = Date.UTC(2026, 10, 27, 6)
const unique = () => randomBytes(5).toString('hex')

/** A fresh punter (no argon2: the hash is never checked here) holding `balanceMinor`. */
async function newPunter(data: DataLayer, balanceMinor: number, extra: { email?: string; nickname?: string } = {}): Promise<Punter> {
  const made = await insertPunter(data, { jurisdiction: 'curacao', passwordHash: 'not-checked', email: extra.email ?? `p-${unique()}@test.parlay.test`, nickname: extra.nickname, balanceMinor }, NOW)
  if (!made.ok) throw new Error(made.code)
  return made.value
}

/** The punter's real-money entries after the opening one (every account opens with an entry: server/punters/repository.ts). */
async function ledgerOf(data: DataLayer, punterId: number) {
  return data.db.selectFrom('ledger_entries').select(['reference', 'amount_minor', 'balance_after_minor']).where('punter_id', '=', punterId).where('account', '=', 'real').where('kind', '!=', 'opening').orderBy('id').execute()
}

describe.each(ENGINES)('the punters store on %s (two instances on PostgreSQL)', (engine, runs) => {
  let a: TestServer
  let b: TestServer
  pairEach(engine, runs, (on) => startTestServer({ now: () => NOW, ...on }), (both) => ({ a, b } = both))
  /** Alternates the instances: request i goes to a, i+1 to b. */
  const on = (i: number) => (i % 2 ? b : a).deps.data

  it.runIf(runs)('20 debits of 10.00 on 100.00, sent to both instances at once, never overdraw: exactly 10 apply, the rest are refused for funds', async () => {
    expect(a.deps.data.engine).toBe(engine)
    const punter = await newPunter(a.deps.data, 10_000)
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => changeBalance(on(i), { punterId: punter.id, amountMinor: -1_000, reference: `test-debit:${punter.id}:${i}`, kind: 'bet', now: NOW })))
    expect(results.filter((r) => r.applied)).toHaveLength(10)
    expect(results.filter((r) => !r.applied).every((r) => r.insufficient === true)).toBe(true)
    expect((await findPunterById(b.deps.data, punter.id))!.balanceMinor).toBe(0)
    // every applied debit has its ledger entry, with the balance it left, one step of 10.00 each
    const ledger = await ledgerOf(a.deps.data, punter.id)
    expect(ledger).toHaveLength(10)
    expect(ledger.map((e) => e.balance_after_minor).sort((x, y) => y - x)).toEqual([9_000, 8_000, 7_000, 6_000, 5_000, 4_000, 3_000, 2_000, 1_000, 0])
  }, 60_000)

  it.runIf(runs)('24 changes of different sizes sent to both instances at once are entered in the ledger in the order they were applied: by entry id, each balance after is the one before plus its amount', async () => {
    const punter = await newPunter(a.deps.data, 100_000)
    // credits and debits of distinct sizes, none refused for funds: any two applied out of entry order show
    const amounts = Array.from({ length: 24 }, (_, i) => (i % 2 ? -(i + 1) * 50 : (i + 1) * 100))
    const results = await Promise.all(amounts.map((amountMinor, i) => changeBalance(on(i), { punterId: punter.id, amountMinor, reference: `order:${punter.id}:${i}`, kind: 'test', now: NOW })))
    expect(results.every((r) => r.applied)).toBe(true)
    const ledger = await ledgerOf(a.deps.data, punter.id)
    expect(ledger).toHaveLength(amounts.length)
    let running = 100_000
    const steps = ledger.map((entry) => ({ reference: entry.reference, expected: (running += entry.amount_minor), balanceAfter: entry.balance_after_minor }))
    expect(steps.filter((step) => step.balanceAfter !== step.expected)).toEqual([])
    expect((await findPunterById(b.deps.data, punter.id))!.balanceMinor).toBe(running)
  }, 60_000)

  it.runIf(runs)('one reference credited 10 times at once (both instances) is applied once: one entry, one credit', async () => {
    const punter = await newPunter(a.deps.data, 500)
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => changeBalance(on(i), { punterId: punter.id, amountMinor: 2_500, reference: `deposit:test-${punter.id}`, kind: 'deposit', now: NOW })))
    expect(results.filter((r) => r.applied)).toHaveLength(1)
    expect(results.map((r) => r.balanceMinor).every((balance) => balance === 3_000)).toBe(true)
    expect((await findPunterById(a.deps.data, punter.id))!.balanceMinor).toBe(3_000)
    expect(await ledgerOf(b.deps.data, punter.id)).toEqual([{ reference: `deposit:test-${punter.id}`, amount_minor: 2_500, balance_after_minor: 3_000 }])
  })

  it.runIf(runs)('a change that must be covered (a round: stake 5.00, win 20.00) is refused on a balance under the stake, however large the win, and writes nothing', async () => {
    const punter = await newPunter(a.deps.data, 400)
    const refused = await changeBalance(b.deps.data, { punterId: punter.id, amountMinor: 1_500, reference: `game:test-${punter.id}`, kind: 'game', now: NOW, requiredMinor: 500 })
    expect(refused).toEqual({ applied: false, balanceMinor: 400, insufficient: true })
    expect(await ledgerOf(a.deps.data, punter.id)).toEqual([])
    // the same reference can be applied once the balance covers it (the refusal left no entry behind)
    await changeBalance(a.deps.data, { punterId: punter.id, amountMinor: 100, reference: `top-up:test-${punter.id}`, kind: 'deposit', now: NOW })
    expect(await changeBalance(b.deps.data, { punterId: punter.id, amountMinor: 1_500, reference: `game:test-${punter.id}`, kind: 'game', now: NOW, requiredMinor: 500 })).toEqual({ applied: true, balanceMinor: 2_000 })
  })

  it.runIf(runs)('what a change writes with it (alsoWrite) is rolled back with it when it throws: no entry, no balance change', async () => {
    const punter = await newPunter(a.deps.data, 1_000)
    const failing = changeBalance(b.deps.data, {
      punterId: punter.id,
      amountMinor: -300,
      reference: `rollback:test-${punter.id}`,
      kind: 'bet',
      now: NOW,
      alsoWrite: async (tx) => {
        await tx.updateTable('punters').set({ first_deposit_date: '2026-11-27' }).where('id', '=', punter.id).execute()
        throw new Error('the bet was closed meanwhile')
      },
    })
    await expect(failing).rejects.toThrow('the bet was closed meanwhile')
    const after = (await findPunterById(a.deps.data, punter.id))!
    expect([after.balanceMinor, after.firstDepositDate]).toEqual([1_000, null])
    expect(await ledgerOf(a.deps.data, punter.id)).toEqual([])
  })

  it.runIf(runs)('a promo code typed at once on both instances counts once: one reward, one use', async () => {
    const punter = await newPunter(a.deps.data, 0)
    const promo = { code: 'Twice', reward: { product: 'sport', freeBets: 2, bonusMoney: 10, turnoverMultiplier: 5 } }
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => redeemPromoCode(on(i), punter, promo, NOW)))
    expect(answers.filter((r) => r.ok)).toHaveLength(1)
    expect(answers.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.code))).toEqual(Array(5).fill('PROMO_CODE_ALREADY_USED'))
    const bonus = (await findPunterById(b.deps.data, punter.id))!.profile.bonus
    expect(bonus).toMatchObject({ productsWithBonus: ['sport'], freeBetCount: 2 })
    // the bonus money went through the ledger once, onto one bonus account
    const accounts = await a.deps.data.db.selectFrom('bonus_accounts').select(['product', 'balance_minor', 'current_step', 'turnover_minor', 'required_turnover_minor']).where('punter_id', '=', punter.id).execute()
    expect(accounts).toEqual([{ product: 'sport', balance_minor: 1_000, current_step: 1, turnover_minor: 0, required_turnover_minor: 5_000 }])
    const grants = await a.deps.data.db.selectFrom('ledger_entries').select(['reference', 'amount_minor']).where('punter_id', '=', punter.id).where('kind', '=', 'bonus-grant').execute()
    expect(grants).toEqual([{ reference: `promo:${punter.id}:TWICE`, amount_minor: 1_000 }])
    const uses = await a.deps.data.db.selectFrom('promo_code_uses').select('code').where('punter_id', '=', punter.id).execute()
    expect(uses).toEqual([{ code: 'TWICE' }])
  })

  it.runIf(runs)('profile fields and settings written at once on both instances keep each other (no write loses another)', async () => {
    const punter = await newPunter(a.deps.data, 0)
    const loyalty = { balance: 40, tier: 'Gold', bonusAvailable: true, needRequestRulesAcceptance: false }
    const realityCheck = { timeoutMinutes: 30, acceptedAt: NOW }
    const regulationAlert = { status: 'NEED_TO_CONFIRM', spentHours: 2, totalBetMinUnit: 100, totalLostMinUnit: 50, raisedAt: NOW, confirmedAt: null }
    await Promise.all([
      setProfileField(a.deps.data, punter.id, 'loyalty', loyalty, NOW),
      setProfileField(b.deps.data, punter.id, 'realityCheck', realityCheck, NOW),
      setProfileField(a.deps.data, punter.id, 'regulationAlert', regulationAlert, NOW),
      saveServerSettings(b.deps.data, punter.id, { locale: 'es' }, NOW),
      saveServerSettings(a.deps.data, punter.id, { oddsType: 'american' }, NOW),
      saveServerSettings(b.deps.data, punter.id, { showCurrentBalance: false }, NOW),
    ])
    const after = (await findPunterById(a.deps.data, punter.id))!
    expect(after.profile).toMatchObject({ loyalty, realityCheck, regulationAlert })
    expect(after.settings).toEqual({ locale: 'es', oddsType: 'american', showCurrentBalance: false })
    expect(await punterLocaleSetting(b.deps.data, punter.id)).toBe('es')
  })

  it.runIf(runs)('one e-mail signed up at once on both instances (any case) makes one account; e-mail and nickname logins ignore case', async () => {
    const id = unique()
    const made = await Promise.all(
      [`Same-${id}@Test.Parlay.Test`, `same-${id}@test.parlay.test`].map((email, i) => insertPunter(on(i), { jurisdiction: 'curacao', passwordHash: 'not-checked', email, nickname: `Nick${id}${i}` }, NOW)),
    )
    expect(made.filter((r) => r.ok)).toHaveLength(1)
    expect(made.find((r) => !r.ok)).toEqual({ ok: false, code: 'DUPLICATE_EMAIL' })
    const owner = made.find((r) => r.ok)!
    if (!owner.ok) throw new Error('unreachable')
    expect((await findPunterByLogin(b.deps.data, 'curacao', 'email', `same-${id}@test.parlay.test`))?.id).toBe(owner.value.id)
    expect((await findPunterByLogin(a.deps.data, 'curacao', 'nickname', owner.value.nickname!.toUpperCase()))?.id).toBe(owner.value.id)
    // a nickname differing only in case is the same nickname
    expect(await insertPunter(b.deps.data, { jurisdiction: 'curacao', passwordHash: 'not-checked', email: `other-${id}@test.parlay.test`, nickname: owner.value.nickname!.toLowerCase() }, NOW)).toEqual({ ok: false, code: 'NICKNAME_ALREADY_EXIST' })
  })
})

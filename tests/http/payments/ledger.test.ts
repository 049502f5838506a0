/**
 * The complete ledger (issue 28 item 4): every balance is an account of the ledger and every change
 * of it an entry, so `ledger:verify` recomputes them all. The rules are checked against amounts
 * worked out by hand here (docs/adr/0003-real-and-bonus-money.md): real money first, then the
 * product's bonus; a payout shared back in proportion, the bonus share rounded down; wagering,
 * conversion, expiry; withdrawable = real less the deposits' play-through. And the verifier itself:
 * a tampered balance and a tampered entry are found and named, by the library and by the
 * `npm run ledger:verify` process on the engine the file runs on.
 */
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { changeBalance } from '../../../server/punters/events'
import { grantBonus } from '../../../server/punters/bonuses'
import { verifyLedger } from '../../../server/punters/ledger-verify'
import { hashPassword } from '../../../server/punters/password'
import { insertPunter, punterLock } from '../../../server/punters/repository'
import { SCHEMAS_DIR } from '../../support/server'
import { startBetsServer, newKey, type BetsServer } from '../bets/support'
import { DEMO_PASSWORD } from './support'

let server: BetsServer
let passwordHash: string
beforeAll(async () => {
  server = await startBetsServer()
  passwordHash = await hashPassword(DEMO_PASSWORD)
})
afterAll(async () => server?.dispose())

const MINUTE = 60_000
const data = () => server.deps.data

/** A Curaçao punter (country CW) opened with `balanceMinor` of real money; answers the id and the e-mail to log in with. */
async function newPunter(balanceMinor: number): Promise<{ id: number; email: string }> {
  const email = `ledger-${randomBytes(5).toString('hex')}@test.parlay.test`
  const made = await insertPunter(data(), { jurisdiction: 'curacao', currency: 'USD', countryId: 1, passwordHash, email, balanceMinor, profile: { countryCode: 'CW' } }, server.clock.now)
  if (!made.ok) throw new Error(made.code)
  return { id: made.value.id, email }
}

const entriesOf = (punterId: number) => data().db.selectFrom('ledger_entries').select(['account', 'reference', 'kind', 'amount_minor', 'balance_after_minor']).where('punter_id', '=', punterId).orderBy('id').execute()
const heartbeat = async (hash: string) => (await server.call('GET', 'heartbeat', { hash })).json.payload

/** A sport bonus by hand (no promo code on the site gives this one), in the punter's own transaction. */
const grant = (punterId: number, product: string, amountMinor: number, turnoverMultiplier: number, expiresAt: number | null = null) =>
  data().transaction((tx) => grantBonus(tx, { punterId, product, amountMinor, turnoverMultiplier, expiresAt, reference: `test-grant:${punterId}:${product}:${amountMinor}`, now: server.clock.now }), { serialiseOn: punterLock(punterId) })

describe('every balance is an account of the ledger', () => {
  it('every demo punter opens with an entry, and the VIP demo shows its seeded play-through: mainBalance 25,000, withdrawable 20,000', async () => {
    const vip = (await data().db.selectFrom('punters').select(['id', 'balance_minor']).where('email', '=', 'vip@demo.parlay.test').executeTakeFirstOrThrow())
    expect(await entriesOf(vip.id)).toEqual([
      { account: 'real', reference: `opening:${vip.id}`, kind: 'opening', amount_minor: 2_500_000, balance_after_minor: 2_500_000 },
      { account: 'playthrough', reference: `opening:${vip.id}/playthrough`, kind: 'opening', amount_minor: 500_000, balance_after_minor: 500_000 },
    ])
    const punters = await data().db.selectFrom('punters').select('id').execute()
    const openings = await data().db.selectFrom('ledger_entries').select('punter_id').where('kind', '=', 'opening').where('account', '=', 'real').execute()
    expect(new Set(openings.map((o) => o.punter_id))).toEqual(new Set(punters.map((p) => p.id)))
    expect((await heartbeat(await server.login('vip@demo.parlay.test'))).balanceInfo).toEqual({ mainBalance: 25_000, withdrawable: 20_000 })
  })

  it('a sport bet of 10.00 on 4.00 real and a 10.00 sport bonus takes the 4.00 first, then 6.00 of bonus; its 25.00 win goes back 10.00 real, 15.00 bonus (in proportion)', async () => {
    const punter = await newPunter(400)
    const hash = await server.login(punter.email)
    await grant(punter.id, 'sport', 1_000, 5)
    const [pick] = await server.liveSelections(1)
    const placed = await server.call('POST', 'bets/place', { hash, body: { kind: 'single', selections: [{ selectionId: pick!.id, price: pick!.price }], stake: 10, idempotencyKey: newKey() } })
    expect(placed.status, JSON.stringify(placed.json)).toBe(200)
    const betId = placed.json.payload.betId as string
    expect((await heartbeat(hash)).bonusInfo.bonusAccounts).toEqual([{ product: 'sport', amount: 4, currentStep: 1, turnover: 10, requiredTurnover: 50, expiresAt: null }])
    await server.dev('settle', { eventId: pick!.eventId, score: [2, 0] })
    const user = await heartbeat(hash)
    expect(user.balanceInfo).toEqual({ mainBalance: 10, withdrawable: 10 })
    expect(user.bonusInfo.bonusAccounts).toEqual([{ product: 'sport', amount: 19, currentStep: 1, turnover: 10, requiredTurnover: 50, expiresAt: null }])
    const entries = (await entriesOf(punter.id)).filter((e) => e.reference.startsWith(`bet`)).map(({ reference, account, amount_minor }) => [reference.replace(betId, 'B'), account.replace(/\d+$/, 'n'), amount_minor])
    expect(entries).toEqual([
      ['bet:B', 'real', -400],
      ['bet:B/bonus', 'bonus:n', -600],
      ['bet:B/wagering', 'wagering:n', 1_000],
      ['bet-win:B', 'real', 1_000],
      ['bet-win:B/bonus', 'bonus:n', 1_500],
    ])
  })

  it('a round on a bonus: stake 5.00 from 3.00 real and 2.00 bonus, win 8.00 shared 4.80 real and 3.20 bonus; the turnover reaching the requirement converts the bonus into real money', async () => {
    const punter = await newPunter(300)
    await grant(punter.id, 'casino', 1_000, 1) // 10.00 to wager once
    const round = await changeBalance(data(), { punterId: punter.id, amountMinor: 800 - 500, reference: `game:test:${punter.id}:1`, kind: 'game', now: server.clock.now, stake: { product: 'casino', stakeMinor: 500 } })
    expect(round).toEqual({ applied: true, balanceMinor: 480 })
    const bonus = await data().db.selectFrom('bonus_accounts').selectAll().where('punter_id', '=', punter.id).executeTakeFirstOrThrow()
    expect([bonus.balance_minor, bonus.turnover_minor, bonus.status]).toEqual([1_000 - 200 + 320, 500, 'active'])
    // 5.00 more wagered reaches 10.00: the bonus (now 11.20 − its 0.00 share of this all-real stake) becomes real money
    await changeBalance(data(), { punterId: punter.id, amountMinor: -500, reference: `game:test:${punter.id}:2`, kind: 'game', now: server.clock.now, stake: { product: 'casino', stakeMinor: 500 } })
    const after = await data().db.selectFrom('bonus_accounts').select(['balance_minor', 'status']).where('id', '=', bonus.id).executeTakeFirstOrThrow()
    expect(after).toEqual({ balance_minor: 0, status: 'completed' })
    const real = await data().db.selectFrom('punters').select('balance_minor').where('id', '=', punter.id).executeTakeFirstOrThrow()
    expect(real.balance_minor).toBe(480 - 480 + (1_120 - 20)) // 4.80 real staked first, 0.20 of bonus, then the bonus converted
    const converted = (await entriesOf(punter.id)).filter((e) => e.kind === 'bonus-convert')
    expect(converted.map((e) => [e.account === 'real' ? 'real' : 'bonus', e.amount_minor])).toEqual([['real', 1_100], ['bonus', -1_100]])
  })

  it('a bonus past its end is expired when next seen: the heartbeat no longer shows it and the ledger takes its money away', async () => {
    const punter = await newPunter(0)
    const hash = await server.login(punter.email)
    await grant(punter.id, 'casino', 2_500, 30, server.clock.now + 10 * MINUTE)
    expect((await heartbeat(hash)).bonusInfo.bonusAccounts).toMatchObject([{ product: 'casino', amount: 25, requiredTurnover: 750 }])
    server.clock.now += 10 * MINUTE // within the session's lifetime
    try {
      expect((await heartbeat(hash)).bonusInfo.bonusAccounts).toEqual([])
      const expiry = (await entriesOf(punter.id)).filter((e) => e.kind === 'bonus-expiry')
      expect(expiry.map((e) => [e.amount_minor, e.balance_after_minor])).toEqual([[-2_500, 0]])
      // a stake on the expired product cannot use it
      const refused = await changeBalance(data(), { punterId: punter.id, amountMinor: -100, reference: `game:test:${punter.id}:late`, kind: 'game', now: server.clock.now, stake: { product: 'casino', stakeMinor: 100 } })
      expect(refused).toEqual({ applied: false, balanceMinor: 0, insufficient: true })
    } finally {
      server.clock.now -= 10 * MINUTE
    }
  })

  it("a promo code's bonus money goes through the ledger onto the product's bonus account, ending when the jurisdiction document says (CASINO25: expiresAfterDays)", async () => {
    const curacao = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'jurisdictions', 'curacao', 'jurisdiction.json'), 'utf8')) as { bonus: { promoCodes: { code: string; reward: { bonusMoney: number; turnoverMultiplier: number; expiresAfterDays: number } }[] } }
    const reward = curacao.bonus.promoCodes.find((c) => c.code === 'CASINO25')!.reward
    const punter = await newPunter(0)
    const hash = await server.login(punter.email)
    const redeemed = await server.call('POST', 'bonus/punter/promo-code/input', { hash, body: { promoCode: 'casino25' } })
    expect(redeemed.json.payload.bonusInfo.bonusAccounts).toEqual([
      { product: 'casino', amount: reward.bonusMoney, currentStep: 1, turnover: 0, requiredTurnover: reward.bonusMoney * reward.turnoverMultiplier, expiresAt: new Date(server.clock.now + reward.expiresAfterDays * 86_400_000).toISOString() },
    ])
    expect((await heartbeat(hash)).bonusInfo.bonusAccounts).toEqual(redeemed.json.payload.bonusInfo.bonusAccounts)
    expect((await entriesOf(punter.id)).filter((e) => e.kind === 'bonus-grant').map((e) => [e.reference, e.amount_minor])).toEqual([[`promo:${punter.id}:CASINO25`, reward.bonusMoney * 100]])
  })

  it('a refund (a void or withdrawn bet) goes back to its sources and takes back the wagering it counted', async () => {
    const punter = await newPunter(200)
    await grant(punter.id, 'sport', 500, 10)
    await changeBalance(data(), { punterId: punter.id, amountMinor: -600, reference: `bet:test-${punter.id}`, kind: 'bet', now: server.clock.now, stake: { product: 'sport', stakeMinor: 600 } })
    await changeBalance(data(), { punterId: punter.id, amountMinor: 600, reference: `bet-win:test-${punter.id}`, kind: 'bet-refund', now: server.clock.now, paysBack: { reference: `bet:test-${punter.id}`, refund: true } })
    const bonus = await data().db.selectFrom('bonus_accounts').select(['balance_minor', 'turnover_minor']).where('punter_id', '=', punter.id).executeTakeFirstOrThrow()
    expect(bonus).toEqual({ balance_minor: 500, turnover_minor: 0 })
    expect((await data().db.selectFrom('punters').select('balance_minor').where('id', '=', punter.id).executeTakeFirstOrThrow()).balance_minor).toBe(200)
  })

  it('withdrawable = real money less the deposits not yet staked (Curaçao stakes each deposit once): it moves with every stake', async () => {
    const punter = await newPunter(1_000)
    await changeBalance(data(), { punterId: punter.id, amountMinor: 4_000, reference: `deposit:test-${punter.id}`, kind: 'deposit', now: server.clock.now, playthroughMinor: 4_000 })
    const row = () => data().db.selectFrom('punters').select(['balance_minor', 'withdrawable_minor', 'playthrough_minor']).where('id', '=', punter.id).executeTakeFirstOrThrow()
    expect(await row()).toEqual({ balance_minor: 5_000, withdrawable_minor: 1_000, playthrough_minor: 4_000 })
    await changeBalance(data(), { punterId: punter.id, amountMinor: -1_500, reference: `bet:test-pt-${punter.id}`, kind: 'bet', now: server.clock.now, stake: { product: 'sport', stakeMinor: 1_500 } })
    expect(await row()).toEqual({ balance_minor: 3_500, withdrawable_minor: 1_000, playthrough_minor: 2_500 })
    await changeBalance(data(), { punterId: punter.id, amountMinor: -3_000, reference: `bet:test-pt2-${punter.id}`, kind: 'bet', now: server.clock.now, stake: { product: 'sport', stakeMinor: 3_000 } })
    expect(await row()).toEqual({ balance_minor: 500, withdrawable_minor: 500, playthrough_minor: 0 })
  })

  it('after all of the above, the ledger agrees with every stored balance', async () => {
    expect(await verifyLedger(data().db)).toMatchObject({ ok: true })
  })
})

describe('ledger:verify finds what does not agree, and names it', () => {
  const ROOT = resolve(import.meta.dirname, '..', '..', '..')
  /** `npm run ledger:verify` as a process, on the engine this file runs on. */
  const runVerify = () => {
    const env = { ...process.env, DATABASE_URL: server.databaseUrl ?? '' }
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'tools', 'ledger-verify.ts'), server.deps.config.dataDir], { cwd: ROOT, env, encoding: 'utf8' })
    return { status: run.status, out: `${run.stdout}${run.stderr}` }
  }

  it('a stored balance changed behind the ledger\'s back: exit 1 naming the punter and the account; put back: exit 0 with the summary', async () => {
    const punter = await newPunter(7_500)
    const account = (await data().db.selectFrom('punters').select('account_number').where('id', '=', punter.id).executeTakeFirstOrThrow()).account_number
    const ok = runVerify()
    expect(ok.status, ok.out).toBe(0)
    expect(ok.out).toMatch(/^ledger agrees: \d+ punters, \d+ accounts recomputed from \d+ entries\n$/)
    await data().db.updateTable('punters').set({ balance_minor: 9_999_99, withdrawable_minor: 9_999_99 }).where('id', '=', punter.id).execute()
    try {
      const found = await verifyLedger(data().db)
      expect(found).toMatchObject({ ok: false, punterId: punter.id, accountNumber: account, account: 'real' })
      const run = runVerify()
      expect(run.status).toBe(1)
      expect(run.out).toContain(`ledger DISAGREES: punter #${punter.id} (account number ${account}), account real: stored balance 9999.99; its ledger entries make 75.00`)
    } finally {
      await data().db.updateTable('punters').set({ balance_minor: 7_500, withdrawable_minor: 7_500 }).where('id', '=', punter.id).execute()
    }
    expect(runVerify().status).toBe(0)
  })

  it('an entry rewritten (its amount) breaks the chain: named by its punter, account and entry', async () => {
    const punter = await newPunter(2_000)
    await grant(punter.id, 'casino', 1_000, 40)
    const entry = await data().db.selectFrom('ledger_entries').select(['id', 'account', 'amount_minor']).where('punter_id', '=', punter.id).where('kind', '=', 'bonus-grant').executeTakeFirstOrThrow()
    await data().db.updateTable('ledger_entries').set({ amount_minor: 100_000 }).where('id', '=', entry.id).execute()
    try {
      const found = await verifyLedger(data().db)
      expect(found).toMatchObject({ ok: false, punterId: punter.id, account: entry.account })
      expect(found.ok ? '' : found.reason).toContain(`entry #${entry.id}`)
      const run = runVerify()
      expect(run.status).toBe(1)
      expect(run.out).toContain(`punter #${punter.id}`)
      expect(run.out).toContain(`account ${entry.account}`)
    } finally {
      await data().db.updateTable('ledger_entries').set({ amount_minor: entry.amount_minor }).where('id', '=', entry.id).execute()
    }
    expect(await verifyLedger(data().db)).toMatchObject({ ok: true })
  })

  it('a database it cannot read: exit 2', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'tools', 'ledger-verify.ts'), '/nonexistent/parlay-data'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: '' }, encoding: 'utf8' })
    expect(run.status).toBe(2)
    expect(run.stderr).toContain('ledger-verify: cannot read /nonexistent/parlay-data')
  })
})

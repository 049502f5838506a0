/**
 * Account statuses close money actions (spec §4; kernel/punters/account-statuses.ts,
 * docs/adr/0088-account-statuses.md): a punter whose account is put into Dormant, Seized or a
 * time-out self-exclusion while logged in cannot deposit or bet, with the exact code and the status
 * named in the payload; what the status allows still works. Real server, SQLite and (postgres
 * project) PostgreSQL; the status is set in the store directly, as the back office would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blockPunter } from '../../../server/auth/router'
import { StatusMoveRefused, findPunterByLogin, movePunterStatus, setPunterState } from '../../../server/punters/repository'
import { ACCOUNT_STATUSES } from '../../../kernel/punters/account-statuses'
import { newKey, startBetsServer, type BetsServer } from '../bets/support'
import { DEMO_PASSWORD } from '../payments/support'

let server: BetsServer
beforeAll(async () => void (server = await startBetsServer()), 60_000)
afterAll(async () => server?.dispose())

const deposit = (hash: string) => server.call('POST', 'payments/deposit', { hash, body: { amount: 50, method: 'card' } })
const bet = (hash: string, pick: { id: string; price: number }) =>
  server.call('POST', 'bets/place', { hash, body: { kind: 'single', selections: [{ selectionId: pick.id, price: pick.price }], stake: 5, idempotencyKey: newKey() } })
const withdraw = (hash: string) => server.call('POST', 'payments/withdrawal', { hash, body: { amount: 10, method: 'card' } })

/** Logs the demo punter in (an open account), then puts the account into `state`. */
async function loggedInAs(email: string, state: string) {
  const hash = await server.login(email)
  const punter = (await findPunterByLogin(server.deps.data, 'curacao', 'email', email))!
  await setPunterState(server.deps.data, punter.id, state, server.clock.now)
  return hash
}

describe('a status that closes money actions refuses them with its code, naming the status', () => {
  const cases = [
    { state: 'DORMANT', email: 'opened@demo.parlay.test', code: 'INCORRECT_PUNTER_STATE', withdraws: true },
    { state: 'SEIZED', email: 'vip@demo.parlay.test', code: 'INCORRECT_PUNTER_STATE', withdraws: false },
    { state: 'TIME_OUT_SELF_EXCLUSION', email: 'zero@demo.parlay.test', code: 'CUSTOMER_SELFEXCLUDED', withdraws: false },
  ]
  for (const { state, email, code, withdraws } of cases) {
    it(`${state}: deposit and bet are 403 ${code}; withdrawing is ${withdraws ? 'still open' : 'closed too'}; the balance moves only by what is allowed`, async () => {
      const [pick] = await server.liveSelections()
      const hash = await loggedInAs(email, state)
      const before = await server.balance(hash)
      const refusedDeposit = await deposit(hash)
      expect(refusedDeposit.status).toBe(403)
      expect(refusedDeposit.json).toEqual({ status: 'ERROR', errorCode: code, payload: { operation: 'deposit', restriction: null, endDate: null, status: state } })
      const refusedBet = await bet(hash, pick)
      expect(refusedBet.status).toBe(403)
      expect(refusedBet.json).toEqual({ status: 'ERROR', errorCode: code, payload: { operation: 'bet', restriction: null, endDate: null, status: state } })
      expect(await server.balance(hash)).toBe(before)
      const out = await withdraw(hash)
      if (withdraws) expect(out.status, JSON.stringify(out.json)).toBe(200)
      else expect(out.json).toEqual({ status: 'ERROR', errorCode: code, payload: { operation: 'withdraw', restriction: null, endDate: null, status: state } })
      expect(await server.balance(hash)).toBe(withdraws ? before - 10 : before)
    })
  }

  it('every self-exclusion status is refused at login with CUSTOMER_SELFEXCLUDED (nothing to reopen without its dates); the open statuses log in', async () => {
    const email = 'denmark@demo.parlay.test'
    const punter = (await findPunterByLogin(server.deps.data, 'denmark', 'email', email))!
    const login = () => server.call('POST', 'auth/v2/login', { body: { login: email, password: DEMO_PASSWORD }, site: 'denmark' })
    for (const status of ACCOUNT_STATUSES.filter((s) => s.group === 'self-exclusion' || s.group === 'open')) {
      await setPunterState(server.deps.data, punter.id, status.state, server.clock.now)
      const answer = await login()
      if (status.group === 'open') expect(answer.status, status.state).toBe(200)
      else expect(answer.json, status.state).toMatchObject({ status: 'ERROR', errorCode: 'CUSTOMER_SELFEXCLUDED', payload: { selfExcludeSettings: { permanent: true } } })
      if (status.group !== 'open') expect(answer.json.payload.canOpen, status.state).toBeUndefined()
    }
  })

  it('the same punter back in OPENED deposits again (the refusal was the status)', async () => {
    const hash = await loggedInAs('opened@demo.parlay.test', 'OPENED')
    expect((await deposit(hash)).status).toBe(200)
  })

  it('every status of the list that a jurisdiction does not decide: a deposit starts exactly when the status allows it', async () => {
    const hash = await server.login('euro@demo.parlay.test')
    const punter = (await findPunterByLogin(server.deps.data, 'curacao', 'email', 'euro@demo.parlay.test'))!
    for (const status of ACCOUNT_STATUSES.filter((s) => !s.restriction)) {
      await setPunterState(server.deps.data, punter.id, status.state, server.clock.now)
      const answer = await deposit(hash)
      const expected = status.may.deposit ? 200 : 403
      expect(answer.status, `${status.state}: ${JSON.stringify(answer.json)}`).toBe(expected)
      if (!status.may.deposit) expect(answer.json.errorCode).toBe(status.group === 'self-exclusion' ? 'CUSTOMER_SELFEXCLUDED' : 'INCORRECT_PUNTER_STATE')
    }
  })
})

describe('moves between statuses follow the rule of ADR 0088 (movePunterStatus; blocking a punter uses it)', () => {
  it('an open account may be suspended and reopened; a closed one is final; a permanent self-exclusion only ends in closing', async () => {
    const punter = (await findPunterByLogin(server.deps.data, 'curacao', 'email', 'japan@demo.parlay.test'))!
    const now = server.clock.now
    await setPunterState(server.deps.data, punter.id, 'OPENED', now)
    await expect(movePunterStatus(server.deps.data, punter.id, 'SUSPENDED', now)).resolves.toEqual({ from: 'OPENED', to: 'SUSPENDED' })
    await expect(movePunterStatus(server.deps.data, punter.id, 'OPENED', now)).resolves.toEqual({ from: 'SUSPENDED', to: 'OPENED' })
    await expect(movePunterStatus(server.deps.data, punter.id, 'PERMANENT_SELF_EXCLUSION', now)).resolves.toMatchObject({ to: 'PERMANENT_SELF_EXCLUSION' })
    await expect(movePunterStatus(server.deps.data, punter.id, 'OPENED', now)).rejects.toMatchObject({ from: 'PERMANENT_SELF_EXCLUSION', to: 'OPENED', why: 'not-allowed' })
    await expect(movePunterStatus(server.deps.data, punter.id, 'CLOSED', now)).resolves.toMatchObject({ to: 'CLOSED' })
    for (const to of ['OPENED', 'SUSPENDED', 'PERMANENT_SELF_EXCLUSION'])
      await expect(movePunterStatus(server.deps.data, punter.id, to, now)).rejects.toMatchObject({ from: 'CLOSED', why: 'not-allowed' })
    const row = await server.deps.data.db.selectFrom('punters').select('state').where('id', '=', punter.id).executeTakeFirstOrThrow()
    expect(row.state).toBe('CLOSED')
    await setPunterState(server.deps.data, punter.id, 'OPENED', now)
  })

  it('blocking a closed account is refused and leaves it closed (nothing is written, no session is touched)', async () => {
    const punter = (await findPunterByLogin(server.deps.data, 'curacao', 'email', 'japan@demo.parlay.test'))!
    await setPunterState(server.deps.data, punter.id, 'CLOSED', server.clock.now)
    await expect(blockPunter(server.deps, punter.id, 'SUSPENDED')).rejects.toBeInstanceOf(StatusMoveRefused)
    const row = await server.deps.data.db.selectFrom('punters').select('state').where('id', '=', punter.id).executeTakeFirstOrThrow()
    expect(row.state).toBe('CLOSED')
    await setPunterState(server.deps.data, punter.id, 'OPENED', server.clock.now)
  })
})

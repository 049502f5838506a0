/**
 * The bet slip in the browser (issue 14 item 5): picks toggle in and out, a single for one pick and
 * an accumulator for several, each placement with a fresh idempotency key and the prices the punter
 * saw; a changed price from the server replaces the slip's so the punter confirms again; quick bet
 * places at once; the header balance follows the server's answer.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { actionRegistry } from '../../../engine/actions'
import { betslip, combinedPrice, MAX_PICKS } from '../../../engine/core/betslip'
import { testEnv } from './helpers'

const home = { id: 'e1-main-1', label: '1', price: 2.5, status: 'OPEN' }
const away = { id: 'e2-main-3', label: '2', price: 1.8, status: 'OPEN' }
const run = (name: string, params: Record<string, unknown>, env: ReturnType<typeof testEnv>['env']) => actionRegistry.get(name)!.handler(params, env)

/** A punter's env whose gateway answers GET betslip/selections with the match, and POSTs with `answer`. */
function punterEnv(answer: unknown = { ok: false, code: 'NOT_SET' }) {
  const t = testEnv()
  t.stores.user.getState().setUser({ balanceInfo: { mainBalance: 100, currency: 'USD' } })
  vi.mocked(t.env.gateway.call).mockImplementation(async (method: string) =>
    (method === 'GET' ? { ok: true, value: [{ event: { home: 'Kiel', away: 'Aalborg' } }] } : answer) as never,
  )
  return t
}
const posts = (t: ReturnType<typeof testEnv>) => vi.mocked(t.env.gateway.call).mock.calls.filter((c) => c[0] === 'POST')

beforeEach(() => {
  betslip.setState({ picks: [], stake: null, status: 'idle', placed: null, error: null, errorValues: {} })
})

describe('bet slip store', () => {
  it('a pick toggles in and out; the slip holds at most 20 picks; the total odds multiply', () => {
    betslip.getState().toggle(home)
    betslip.getState().toggle(away)
    expect(betslip.getState().picks.map((p) => p.id)).toEqual([home.id, away.id])
    expect(combinedPrice(betslip.getState().picks)).toBe(4.5)
    betslip.getState().toggle(home)
    expect(betslip.getState().picks.map((p) => p.id)).toEqual([away.id])
    for (let i = 0; i < 30; i++) betslip.getState().toggle({ id: `e${i + 10}-main-1`, label: '1', price: 2 })
    expect(betslip.getState().picks).toHaveLength(MAX_PICKS)
  })
})

describe('betslip.place', () => {
  it('one pick places a single, several an accumulator, with the prices seen and a fresh key each time; the balance follows the answer', async () => {
    const t = punterEnv({ ok: true, value: { betId: 'b1', stake: 5, price: 4.5, currency: 'USD', potentialWin: 22.5, balance: 95 } })
    await run('betslip.toggle', { selection: home, event: 'Arsenal – Chelsea' }, t.env)
    await run('betslip.toggle', { selection: away }, t.env) // a line page's price: the match comes from the server
    expect(betslip.getState().picks.map((p) => p.label)).toEqual(['Arsenal – Chelsea: 1', 'Kiel – Aalborg: 2'])
    betslip.getState().setStake(5)
    await run('betslip.place', {}, t.env)
    const [method, path, body] = posts(t)[0] as [string, string, { kind: string; selections: unknown[]; idempotencyKey: string }]
    expect([method, path]).toEqual(['POST', '/mobile-gate/api/v1/bets/place'])
    expect(body).toMatchObject({ kind: 'accumulator', stake: 5, selections: [{ selectionId: home.id, price: 2.5 }, { selectionId: away.id, price: 1.8 }] })
    expect(t.stores.user.getState().data?.balanceInfo?.mainBalance).toBe(95)
    expect(betslip.getState()).toMatchObject({ status: 'placed', picks: [], placed: { betId: 'b1' } })

    await run('betslip.toggle', { selection: home }, t.env)
    betslip.getState().setStake(1)
    await run('betslip.place', {}, t.env)
    const second = posts(t)[1][2] as { kind: string; idempotencyKey: string }
    expect(second.kind).toBe('single')
    expect(second.idempotencyKey).not.toBe(body.idempotencyKey)
  })

  it('ODDS_CHANGED: the slip takes the new price and shows why; nothing else changes', async () => {
    const t = punterEnv({ ok: false, code: 'ODDS_CHANGED', details: { changes: [{ selectionId: home.id, price: 2.2, previous: 2.5 }] } })
    await run('betslip.toggle', { selection: home }, t.env)
    betslip.getState().setStake(2)
    const result = await run('betslip.place', {}, t.env)
    expect(result).toMatchObject({ ok: false, code: 'ODDS_CHANGED' })
    expect(betslip.getState()).toMatchObject({ status: 'failed', error: 'ODDS_CHANGED', picks: [{ id: home.id, price: 2.2 }] })
    expect(t.stores.user.getState().data?.balanceInfo?.mainBalance).toBe(100)
  })

  it('quick bet on: picking a price places a single at the quick-bet amount at once', async () => {
    const t = punterEnv({ ok: true, value: { betId: 'b2', stake: 3, price: 2.5, currency: 'USD', potentialWin: 7.5, balance: 97 } })
    t.stores.settings.setState((s) => ({ ...s, local: { ...s.local, isQuickBetEnable: true, quickBetAmount: 3 } }))
    await run('betslip.toggle', { selection: home }, t.env)
    expect(posts(t)[0][2]).toMatchObject({ kind: 'single', stake: 3, selections: [{ selectionId: home.id, price: 2.5 }] })
    expect(t.stores.user.getState().data?.balanceInfo?.mainBalance).toBe(97)
  })

  it('a selection without an id or a price is refused, not added', async () => {
    const t = punterEnv()
    expect(await run('betslip.toggle', { selection: { id: 'x' } }, t.env)).toMatchObject({ ok: false, code: 'INVALID_PARAMS' })
    expect(betslip.getState().picks).toEqual([])
  })
})

/**
 * The bet slip in the browser (issue 14 item 5, issue 31 item 1): picks toggle in and out, a
 * single for one pick and an accumulator for several, each placement with a fresh idempotency key
 * and the prices the punter agreed to. A pick is looked up when added (its match, its price now);
 * a moved price is taken or asked about by the punter's betPlacingMode BEFORE Place (checked here
 * against the spec's own table, spec §3: EqualsToCurrent → auto-confirm off, GreaterOrEqualsToCurrent
 * → when_increase, Any → always); two picks of one match stop an accumulator at once; nothing is
 * placed on a pick the feed has not confirmed; the receipt carries the bet's legs.
 */
import fc from 'fast-check'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { actionRegistry, registerAllActions } from '../../../engine/actions'
import { betslip, combinedPrice, MAX_PICKS, needsAcceptance, relatedPickIds, slipBlock, type SlipPick } from '../../../engine/core/betslip'
import { BET_PLACING_MODES, oddsChangeAutoConfirm, type BetPlacingMode } from '../../../kernel/core/odds'
import { testEnv } from './helpers'

// the page's registry, filled as the browser runtime fills it (nothing registers by being imported)
registerAllActions()

const home = { id: 'e1-main-1', label: '1', price: 2.5, status: 'OPEN' }
const away = { id: 'e2-main-3', label: '2', price: 1.8, status: 'OPEN' }
const draw = { id: 'e1-main-2', label: 'X', price: 3.4, status: 'OPEN' } // the same match as `home`
const run = (name: string, params: Record<string, unknown>, env: ReturnType<typeof testEnv>['env']) => actionRegistry.get(name)!.handler(params, env)

/** The feed as GET betslip/selections answers it: per selection its match and price now. */
const FEED: Record<string, { price: number; status: string; event: { id: string; treeId: number; home: string; away: string } }> = {
  'e1-main-1': { price: 2.5, status: 'OPEN', event: { id: 'e1', treeId: 1, home: 'Arsenal', away: 'Chelsea' } },
  'e1-main-2': { price: 3.4, status: 'OPEN', event: { id: 'e1', treeId: 1, home: 'Arsenal', away: 'Chelsea' } },
  'e2-main-3': { price: 1.8, status: 'OPEN', event: { id: 'e2', treeId: 2, home: 'Kiel', away: 'Aalborg' } },
}

/** A punter's env: GETs answer from FEED, POSTs with `answer`. */
function punterEnv(answer: unknown = { ok: false, code: 'NOT_SET' }, mode: BetPlacingMode = 'GreaterOrEqualsToCurrent') {
  const t = testEnv()
  t.stores.user.getState().setUser({ balanceInfo: { mainBalance: 100, currency: 'USD' } })
  t.stores.settings.setState((s) => ({ ...s, server: { ...s.server, betPlacingMode: mode } }))
  vi.mocked(t.env.gateway.call).mockImplementation(async (method: string, path: string) => {
    if (method !== 'GET') return answer as never
    const ids = new URL(path, 'http://x').searchParams.get('ids')!.split(',')
    return { ok: true, value: ids.map((id) => (FEED[id] ? { selectionId: id, ...FEED[id] } : { selectionId: id, status: 'UNKNOWN' })) } as never
  })
  return t
}
const posts = (t: ReturnType<typeof testEnv>) => vi.mocked(t.env.gateway.call).mock.calls.filter((c) => c[0] === 'POST')

beforeEach(() => {
  betslip.setState({ picks: [], stake: null, status: 'idle', placed: null, lastPicks: [], receipt: false, error: null, errorValues: {} })
})

/** The spec's table, written independently of the code: does a move from `agreed` to `current` wait for the punter? */
function specAsks(mode: BetPlacingMode, agreed: number, current: number): boolean {
  if (current === agreed) return false
  const auto = oddsChangeAutoConfirm(mode)
  return !(auto === 'always' || (auto === 'when_increase' && current > agreed))
}

describe('bet slip store', () => {
  it('a pick toggles in and out; the slip holds at most 20 picks; the total odds multiply the current prices', () => {
    betslip.getState().toggle(home)
    betslip.getState().toggle(away)
    expect(betslip.getState().picks.map((p) => p.id)).toEqual([home.id, away.id])
    expect(combinedPrice(betslip.getState().picks)).toBe(4.5)
    betslip.getState().feedPrice(away.id, 2)
    expect(combinedPrice(betslip.getState().picks)).toBe(5)
    betslip.getState().toggle(home)
    expect(betslip.getState().picks.map((p) => p.id)).toEqual([away.id])
    for (let i = 0; i < 30; i++) betslip.getState().toggle({ id: `e${i + 10}-main-1`, label: '1', price: 2 })
    expect(betslip.getState().picks).toHaveLength(MAX_PICKS)
  })

  it('a moved price waits for the punter exactly as the spec table says for each betPlacingMode (random moves)', () => {
    const price = fc.integer({ min: 101, max: 5000 }).map((h) => h / 100)
    fc.assert(
      fc.property(fc.constantFrom(...BET_PLACING_MODES), price, fc.array(price, { minLength: 1, maxLength: 5 }), (mode, agreed, moves) => {
        let pick: SlipPick = { id: 'e1-main-1', label: '1', price: agreed }
        betslip.setState({ picks: [pick] })
        for (const move of moves) betslip.getState().feedPrice(pick.id, move, 'OPEN')
        pick = betslip.getState().picks[0]!
        return needsAcceptance(pick, mode) === specAsks(mode, agreed, moves[moves.length - 1]!)
      }),
      { numRuns: 500 },
    )
  })

  it('accepting takes every current price as agreed, so nothing waits any more; a move counts its direction', () => {
    betslip.setState({ picks: [{ ...home, checked: true }] })
    betslip.getState().feedPrice(home.id, 2.4, 'OPEN')
    expect(betslip.getState().picks[0]).toMatchObject({ price: 2.5, current: 2.4, move: 'down', moves: 1 })
    expect(slipBlock(betslip.getState().picks, 'EqualsToCurrent')).toBe('PRICES_CHANGED')
    expect(slipBlock(betslip.getState().picks, 'Any')).toBeNull()
    betslip.getState().acceptPrices()
    expect(betslip.getState().picks[0]).toMatchObject({ price: 2.4 })
    expect(betslip.getState().picks[0].current).toBeUndefined()
    expect(slipBlock(betslip.getState().picks, 'EqualsToCurrent')).toBeNull()
  })

  it('picks of one match are related only in an accumulator; a suspended pick, a related pair and an unchecked pick each stop Place', () => {
    const picks: SlipPick[] = [
      { ...home, eventId: 'e1', checked: true },
      { ...draw, eventId: 'e1', checked: true },
      { ...away, eventId: 'e2', checked: true },
    ]
    expect([...relatedPickIds(picks)].sort()).toEqual([home.id, draw.id].sort())
    expect(relatedPickIds([picks[0]!]).size).toBe(0)
    expect(slipBlock(picks, 'Any')).toBe('RELATED')
    expect(slipBlock([picks[0]!, picks[2]!], 'Any')).toBeNull()
    expect(slipBlock([picks[0]!, { ...picks[2]!, checked: false }], 'Any')).toBe('CHECKING')
    expect(slipBlock([picks[0]!, { ...picks[2]!, inactive: 'SUSPENDED' }], 'Any')).toBe('INACTIVE')
  })
})

describe('betslip actions', () => {
  it('an added pick is looked up: the slip names its match, and a second pick of that match is flagged at once', async () => {
    const t = punterEnv()
    await run('betslip.toggle', { selection: home }, t.env)
    expect(betslip.getState().picks[0]).toMatchObject({ label: '1', event: 'Arsenal – Chelsea', eventId: 'e1', treeId: 1, checked: true })
    await run('betslip.toggle', { selection: draw }, t.env)
    expect(relatedPickIds(betslip.getState().picks)).toEqual(new Set([home.id, draw.id]))
    betslip.getState().setStake(5)
    expect(await run('betslip.place', {}, t.env)).toMatchObject({ ok: false, code: 'RELATED' })
    expect(posts(t)).toHaveLength(0) // refused in the slip, not by the server at Place
  })

  it('one pick places a single, several an accumulator, at the agreed prices with a fresh key each time; the receipt has the legs; the balance follows', async () => {
    const t = punterEnv({ ok: true, value: { betId: 'b1', kind: 'accumulator', stake: 5, price: 4.5, currency: 'USD', potentialWin: 22.5, balance: 95, selections: [{ selectionId: home.id, price: 2.5 }, { selectionId: away.id, price: 1.8 }] } })
    await run('betslip.toggle', { selection: home }, t.env)
    await run('betslip.toggle', { selection: away }, t.env)
    betslip.getState().setStake(5)
    await run('betslip.place', {}, t.env)
    const [method, path, body] = posts(t)[0] as [string, string, { kind: string; selections: unknown[]; idempotencyKey: string }]
    expect([method, path]).toEqual(['POST', '/mobile-gate/api/v1/bets/place'])
    expect(body).toMatchObject({ kind: 'accumulator', stake: 5, selections: [{ selectionId: home.id, price: 2.5 }, { selectionId: away.id, price: 1.8 }] })
    expect(t.stores.user.getState().data?.balanceInfo?.mainBalance).toBe(95)
    expect(betslip.getState()).toMatchObject({ status: 'placed', picks: [], receipt: true, placed: { betId: 'b1', legs: [{ label: '1', event: 'Arsenal – Chelsea', price: 2.5 }, { label: '2', event: 'Kiel – Aalborg', price: 1.8 }] } })
    betslip.getState().keepPicks()
    expect(betslip.getState().picks.map((p) => [p.id, p.checked])).toEqual([[home.id, false], [away.id, false]])

    betslip.getState().clear()
    await run('betslip.toggle', { selection: home }, t.env)
    betslip.getState().setStake(1)
    await run('betslip.place', {}, t.env)
    const second = posts(t)[1]![2] as { kind: string; idempotencyKey: string }
    expect(second.kind).toBe('single')
    expect(second.idempotencyKey).not.toBe(body.idempotencyKey)
  })

  it('a restored pick is checked against the feed before Place; a price it moved against the setting stops Place until accepted', async () => {
    const t = punterEnv({ ok: true, value: { betId: 'b3', stake: 2, price: 2.5, currency: 'USD', potentialWin: 5, balance: 98, selections: [{ selectionId: home.id, price: 2.5 }] } }, 'EqualsToCurrent')
    // as restored from storage: the price agreed two days ago, never checked on this page
    betslip.setState({ picks: [{ id: home.id, label: '1', price: 2.8, checked: false }], stake: 2 })
    expect(await run('betslip.place', {}, t.env)).toMatchObject({ ok: false, code: 'PRICES_CHANGED' })
    expect(posts(t)).toHaveLength(0)
    expect(betslip.getState().picks[0]).toMatchObject({ price: 2.8, current: 2.5, checked: true, move: 'down' })
    betslip.getState().acceptPrices()
    await run('betslip.place', {}, t.env)
    expect(posts(t)[0]![2]).toMatchObject({ selections: [{ selectionId: home.id, price: 2.5 }] })
  })

  it('ODDS_CHANGED from the server (a move in flight): the new price waits for the punter whatever the setting; accepting sends it', async () => {
    const t = punterEnv({ ok: false, code: 'ODDS_CHANGED', details: { changes: [{ selectionId: home.id, price: 2.2, previous: 2.5 }] } }, 'Any')
    await run('betslip.toggle', { selection: home }, t.env)
    betslip.getState().setStake(2)
    expect(await run('betslip.place', {}, t.env)).toMatchObject({ ok: false, code: 'ODDS_CHANGED' })
    expect(betslip.getState().picks[0]).toMatchObject({ price: 2.5, current: 2.2, confirm: true })
    expect(slipBlock(betslip.getState().picks, 'Any')).toBe('PRICES_CHANGED')
    betslip.getState().acceptPrices()
    await run('betslip.place', {}, t.env)
    expect(posts(t)[1]![2]).toMatchObject({ selections: [{ selectionId: home.id, price: 2.2 }] })
    expect(t.stores.user.getState().data?.balanceInfo?.mainBalance).toBe(100)
  })

  it('a pick the feed no longer has is marked unavailable and stops Place', async () => {
    const t = punterEnv()
    betslip.setState({ picks: [{ id: 'e9-main-1', label: '1', price: 2, checked: false }], stake: 1 })
    await run('betslip.check', {}, t.env)
    expect(betslip.getState().picks[0]).toMatchObject({ inactive: 'UNAVAILABLE', checked: true })
    expect(await run('betslip.place', {}, t.env)).toMatchObject({ ok: false, code: 'INACTIVE' })
  })

  it('quick bet on: picking a price places a single at the quick-bet amount at once', async () => {
    const t = punterEnv({ ok: true, value: { betId: 'b2', stake: 3, price: 2.5, currency: 'USD', potentialWin: 7.5, balance: 97, selections: [{ selectionId: home.id, price: 2.5 }] } })
    t.stores.settings.setState((s) => ({ ...s, local: { ...s.local, isQuickBetEnable: true, quickBetAmount: 3 } }))
    await run('betslip.toggle', { selection: home }, t.env)
    expect(posts(t)[0]![2]).toMatchObject({ kind: 'single', stake: 3, selections: [{ selectionId: home.id, price: 2.5 }] })
    expect(t.stores.user.getState().data?.balanceInfo?.mainBalance).toBe(97)
  })

  it('a selection without an id or a price is refused, not added', async () => {
    const t = punterEnv()
    expect(await run('betslip.toggle', { selection: { id: 'x' } }, t.env)).toMatchObject({ ok: false, code: 'INVALID_PARAMS' })
    expect(betslip.getState().picks).toEqual([])
  })
})

/** The live demo feed (issue 14 item 3): deterministic from a seed, moved only by the clock. */
import { describe, expect, it } from 'vitest'
import { createFeed, TICK_MS, treeOriginOf, type EventUpdate } from '../../../server/feed'

const START = Date.UTC(2026, 10, 26, 8, 0)
const MINUTE = 60_000

function feedAt(seed = 14) {
  const clock = { now: START }
  const feed = createFeed({ seed, now: () => clock.now })
  const updates: EventUpdate[] = []
  feed.subscribe((batch) => updates.push(...batch))
  const advance = (ms: number) => {
    clock.now += ms
    feed.advanceTo()
  }
  return { clock, feed, updates, advance }
}

describe('the event tree is generated deterministically from a seed', () => {
  it('the same seed and start time give the same tree; another seed another one', () => {
    const a = feedAt(14).feed.events()
    expect(feedAt(14).feed.events()).toEqual(a)
    expect(feedAt(15).feed.events()).not.toEqual(a)
  })

  it('the same seed moves the same prices at the same times', () => {
    const a = feedAt(14)
    const b = feedAt(14)
    a.advance(3 * MINUTE)
    b.advance(3 * MINUTE)
    expect(a.updates.length).toBeGreaterThan(20)
    expect(b.updates).toEqual(a.updates)
  })

  it('sport, e-sports and toto each have a line; sport and e-sports have live events and results', () => {
    const { feed } = feedAt()
    for (const section of ['sport', 'esports'] as const) for (const state of ['live', 'prematch', 'finished'] as const) expect(feed.events({ section, state }).length).toBeGreaterThan(0)
    expect(feed.events({ section: 'toto', state: 'prematch' }).length).toBeGreaterThan(0)
    expect(new Set(feed.events().map((e) => e.sport)).size).toBeGreaterThanOrEqual(10)
  })

  it('ids name event, market and selection so a bet slip can keep them', () => {
    const { feed } = feedAt()
    const event = feed.events({ state: 'live' })[0]
    const selection = event.markets[0].selections[0]
    expect(selection.id.startsWith(`${event.markets[0].id}-`)).toBe(true)
    expect(feed.selection(selection.id)).toMatchObject({ id: selection.id, price: selection.price, status: 'OPEN', marketKind: 'main', event: { id: event.id, state: 'live' } })
    expect(feed.selection('e0-main-1')).toBeUndefined()
  })
})

describe('live events change on the clock', () => {
  it('nothing moves until the clock does', () => {
    const { feed, updates } = feedAt()
    feed.advanceTo()
    feed.advanceTo()
    expect(updates).toEqual([])
  })

  it('prices of live events move; every change carries the previous price', () => {
    const { updates, advance } = feedAt()
    advance(5 * TICK_MS)
    const moves = updates.flatMap((u) => u.selections ?? []).filter((s) => s.price !== s.previous)
    expect(moves.length).toBeGreaterThan(0)
  })

  it('a goal suspends the event’s markets, which reopen two ticks later', () => {
    const { feed, updates, advance } = feedAt()
    advance(60 * MINUTE)
    const scored = updates.find((u) => u.score && u.state === undefined && feed.event(u.eventId)?.sport === 'Football')!
    expect(scored.selections?.some((s) => s.status === 'SUSPENDED')).toBe(true)
    const reopened = updates.find((u) => u.eventId === scored.eventId && u.at > scored.at && u.selections?.some((s) => s.status === 'OPEN' && s.price === s.previous))
    expect(reopened).toBeDefined()
  })

  it('a pre-match event goes live at its start time', () => {
    const { feed, updates, advance } = feedAt()
    const next = feed.events({ state: 'prematch' })[0]
    advance(next.startsAt - START + TICK_MS)
    expect(feed.event(next.id)?.state).toBe('live')
    expect(updates.some((u) => u.eventId === next.id && u.state === 'live')).toBe(true)
  })

  it('an event whose playing time is over finishes: each market has one winner and the league gets a new fixture', () => {
    const { feed, updates, advance } = feedAt()
    const live = feed.events({ state: 'live' }).find((e) => e.sport === 'Football')!
    const before = feed.events({ state: 'prematch' }).length
    advance(live.startsAt + live.durationMs - START + TICK_MS)
    const event = feed.event(live.id)!
    expect(event.state).toBe('finished')
    for (const market of event.markets) expect(market.selections.filter((s) => s.result === 'WIN')).toHaveLength(1)
    expect(updates.find((u) => u.eventId === live.id && u.state === 'finished')?.selections?.every((s) => s.status === 'SETTLED')).toBe(true)
    expect(feed.events({ state: 'prematch' }).length).toBeGreaterThanOrEqual(before)
  })
})

describe('what the bet slip and operators use', () => {
  it('a paused feed plays no tick (no goal, price walk or finish) until it runs again; set prices still go out', () => {
    const { feed, updates, advance } = feedAt()
    feed.pause(true)
    advance(10 * MINUTE)
    expect(updates).toEqual([])
    const selection = feed.events({ section: 'sport', state: 'live' })[0].markets[0].selections[0]
    feed.setPrice(selection.id, 2.5)
    expect(updates.length).toBe(1)
    feed.pause(false)
    advance(TICK_MS)
    expect(updates.length).toBeGreaterThan(1)
  })

  it('settleEvent finishes an event with the given score and settles it', () => {
    const { feed, updates } = feedAt()
    const event = feed.events({ state: 'live' }).find((e) => e.sport === 'Football')!
    feed.settleEvent(event.id, [2, 0])
    expect(feed.selection(`${event.id}-main-1`)).toMatchObject({ status: 'SETTLED', result: 'WIN' })
    expect(feed.selection(`${event.id}-main-x`)).toMatchObject({ result: 'LOSE' })
    expect(feed.selection(`${event.id}-both-score-no`)).toMatchObject({ result: 'WIN' })
    expect(updates.at(-1)).toMatchObject({ eventId: event.id, state: 'finished', score: [2, 0] })
    expect(feed.settleEvent(event.id)).toBeUndefined()
  })

  it('setPrice changes one price and tells subscribers the previous one; hold suspends until lifted', () => {
    const { feed, updates } = feedAt()
    const event = feed.events({ state: 'live' })[0]
    const id = event.markets[0].selections[0].id
    const previous = feed.selection(id)!.price
    feed.setPrice(id, 3.5)
    expect(updates.at(-1)?.selections).toEqual([expect.objectContaining({ id, price: 3.5, previous })])
    expect(feed.setPrice(id, 0.5)).toBeUndefined()
    feed.hold(event.id, true)
    expect(feed.selection(id)?.status).toBe('SUSPENDED')
    feed.hold(event.id, false)
    expect(feed.selection(id)?.status).toBe('OPEN')
  })
})

describe('replaying an earlier hour’s tree (bets placed before a restart in a later hour)', () => {
  const origin = Date.UTC(2026, 0, 15, 12)
  const resultsOf = (feed: ReturnType<typeof createFeed>, ids: ReadonlySet<string>) => {
    const results = new Map<string, string>()
    feed.subscribe((updates) => {
      for (const u of updates) for (const s of u.selections ?? []) if (s.result && ids.has(s.id)) results.set(s.id, s.result)
    })
    return results
  }

  it('a selection id names the start hour of its tree, the latest such hour not after the running feed’s', () => {
    const feed = createFeed({ seed: 14, now: () => origin + 20 * 60_000 })
    const id = feed.events({ state: 'live' })[0].markets[0].selections[0].id
    expect(treeOriginOf(id, origin + 5 * 3_600_000)).toBe(origin)
    expect(treeOriginOf(id, origin)).toBe(origin)
    expect(treeOriginOf('not-a-selection', origin)).toBeUndefined()
  })

  it('replaying only some matches ends them exactly as a replay of the whole tree does (each match draws from its own tree id and the tick)', () => {
    const full = createFeed({ seed: 14, now: () => origin })
    const only = createFeed({ seed: 14, now: () => origin })
    const events = full.events({ state: 'live' }).slice(0, 3)
    const ids = new Set(events.flatMap((e) => e.markets.flatMap((m) => m.selections.map((s) => s.id))))
    const fullResults = resultsOf(full, ids)
    const onlyResults = resultsOf(only, ids)
    full.advanceTo(origin + 4 * 3_600_000, { everyTick: true })
    only.advanceTo(origin + 4 * 3_600_000, { everyTick: true, only: new Set(events.map((e) => e.id)) })
    expect(fullResults.size).toBe(ids.size)
    expect(onlyResults).toEqual(fullResults)
  })

  it('maxTicks bounds one call’s work; later calls go on from there to the same results', () => {
    const bounded = createFeed({ seed: 14, now: () => origin })
    const once = createFeed({ seed: 14, now: () => origin })
    const events = once.events({ state: 'live' }).slice(0, 2)
    const ids = new Set(events.flatMap((e) => e.markets[0].selections.map((s) => s.id)))
    const boundedResults = resultsOf(bounded, ids)
    const onceResults = resultsOf(once, ids)
    once.advanceTo(origin + 3 * 3_600_000, { everyTick: true })
    for (let call = 0; call < 6; call++) bounded.advanceTo(origin + 3 * 3_600_000, { everyTick: true, maxTicks: 900 })
    expect(boundedResults).toEqual(onceResults)
  })
})

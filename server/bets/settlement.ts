/**
 * Settlement and cash-out offers, driven by the feed (issue 14 item 5). When the feed settles a
 * selection, every open bet holding it records the leg's result; a bet whose legs all have one is
 * closed once (lost on any LOSE; otherwise won, a VOID leg counting at price 1) and a win is
 * credited through the one balance function under `bet-win:<id>`, so it is credited once however
 * often the feed repeats itself. When a live price or status moves, the punters holding the
 * selection get a cash-out offer (coOffer) or its withdrawal (coRemoval) over their socket.
 */
import type { Db } from '../db/database'
import { createFeed, treeOriginOf, type EventUpdate, type Feed, type SelectionResult } from '../feed'
import { changeBalance, emitPunterEvent } from '../punters/events'
import { allOpenBetIds, closeBet, countOpenBets, findBet, openBetIdsWith, recordLegResult, type Bet } from './store'

/** What the house keeps of a cash-out's fair value. */
export const CASH_OUT_MARGIN = 0.05

/** The bet's payout if it closes now: 0 for a loss. */
function payoutOf(bet: Bet): number {
  if (bet.legs.some((l) => l.result === 'LOSE')) return 0
  const price = bet.legs.reduce((product, l) => product * (l.result === 'VOID' ? 1 : l.price), 1)
  return Math.round(bet.stakeMinor * price)
}

/** Closes the bet if every leg has a result; credits a win once. Answers whether it closed now. */
export function settleIfDone(db: Db, betId: string, now: number): boolean {
  const bet = findBet(db, betId)
  if (!bet || bet.status !== 'open' || bet.legs.some((l) => l.result === null)) return false
  const payoutMinor = payoutOf(bet)
  const status = payoutMinor === 0 ? 'lost' : bet.legs.every((l) => l.result === 'VOID') ? 'void' : 'won'
  const closed = status === 'lost' ? db.transaction(() => closeBet(db, bet.id, 'lost', 0, now)).immediate() : creditOnce(db, bet, status, payoutMinor, now)
  if (closed) emitPunterEvent('betCountUpdate', { punterId: bet.punterId, count: countOpenBets(db, bet.punterId), settledBetId: bet.id, status })
  return closed
}

function creditOnce(db: Db, bet: Bet, status: 'won' | 'void', payoutMinor: number, now: number): boolean {
  try {
    return changeBalance(db, {
      punterId: bet.punterId,
      amountMinor: payoutMinor,
      reference: `bet-win:${bet.id}`,
      kind: status === 'void' ? 'bet-refund' : 'bet-win',
      now,
      alsoWrite: () => {
        if (!closeBet(db, bet.id, status, payoutMinor, now)) throw new Error('bet already closed')
      },
    }).applied
  } catch {
    return false // closed meanwhile (cashed out): nothing credited, the transaction rolled back
  }
}

/**
 * What the bet is worth now: stake × taken price ÷ current price, less the margin; undefined when
 * no offer stands (a leg suspended, settled against, or gone from the feed).
 */
export function cashOutValueMinor(feed: Feed, bet: Bet): number | undefined {
  if (bet.status !== 'open') return undefined
  let current = 1
  for (const leg of bet.legs) {
    if (leg.result === 'LOSE') return undefined
    if (leg.result !== null) {
      current *= leg.result === 'WIN' ? 1 : 1 / leg.price
      continue
    }
    const view = feed.selection(leg.selectionId)
    if (!view || view.status !== 'OPEN') return undefined
    current *= view.price
  }
  const value = Math.floor((bet.stakeMinor * bet.price * (1 - CASH_OUT_MARGIN)) / current)
  return value > 0 ? value : undefined
}

export function offerEvent(feed: Feed, bet: Bet) {
  const value = cashOutValueMinor(feed, bet)
  return value === undefined
    ? ({ type: 'coRemoval', event: { punterId: bet.punterId, betId: bet.id } } as const)
    : ({ type: 'coOffer', event: { punterId: bet.punterId, betId: bet.id, amount: value / 100, currency: bet.currency } } as const)
}

function onUpdate(db: Db, feed: Feed, update: EventUpdate, now: number): void {
  const changes = update.selections ?? []
  const settled = changes.filter((c) => c.status === 'SETTLED' && c.result)
  for (const change of settled)
    for (const betId of openBetIdsWith(db, [change.id])) {
      recordLegResult(db, betId, change.id, change.result!)
      settleIfDone(db, betId, now)
    }
  const moved = changes.filter((c) => c.status !== 'SETTLED').map((c) => c.id)
  for (const betId of openBetIdsWith(db, moved)) {
    const bet = findBet(db, betId)
    if (!bet) continue
    const { type, event } = offerEvent(feed, bet)
    emitPunterEvent(type, event)
  }
}

/** Records results the feed already has (a restart, an event finished while the server was down). */
export function catchUp(db: Db, feed: Feed, now: number): void {
  for (const betId of allOpenBetIds(db)) {
    const bet = findBet(db, betId)
    for (const leg of bet?.legs ?? []) {
      const view = feed.selection(leg.selectionId)
      if (leg.result === null && view?.status === 'SETTLED' && view.result) recordLegResult(db, betId, leg.selectionId, view.result)
    }
    settleIfDone(db, betId, now)
  }
}

/** How often (by the server's clock) bets on an earlier hour's tree are looked at again. */
export const EARLIER_TREE_CHECK_MS = 60_000

/** The most ticks (2 s each) one look replays of a tree whose wanted matches are laid out later. */
export const REPLAY_TICKS_PER_CHECK = 1800

interface Replay {
  feed: Feed
  /** Results of the selections still wanted, as the replay settles them. */
  results: Map<string, SelectionResult>
  wanted: Set<string>
  /** Replaying only the wanted matches (all of them were in the tree from its start). */
  only?: ReadonlySet<string>
}

const eventIdOf = (selectionId: string) => selectionId.split('-')[0]!

/**
 * Bets on an earlier hour's tree: the server restarted in a later hour and laid out a new tree, so
 * the bet's selection is not in the running feed. The demo feed is a pure function of its seed and
 * start hour, so that hour's tree is replayed tick by tick (no skipping) up to now: the match ends
 * as it would have had the server stayed up, and the bet settles by that result, once. A match
 * still running stays followed; nothing of it is shown (no cash-out offer for such a bet).
 */
function earlierTrees(db: Db, running: Feed) {
  const replays = new Map<number, Replay>()
  let checkedAt = -Infinity
  /** The replay of `origin`'s tree for these matches: only them when all were in the tree from its
   * start (fast), else the whole tree (a match laid out later takes its id from the order other
   * matches finished in), a bounded part per look. A new match for an `only` replay starts over. */
  const replayFor = (origin: number, events: ReadonlySet<string>): Replay => {
    const known = replays.get(origin)
    if (known && (!known.only || [...events].every((id) => known.only!.has(id)))) return known
    const feed = createFeed({ seed: running.seed, now: () => origin })
    const replay: Replay = { feed, results: new Map(), wanted: new Set(), only: [...events].every((id) => feed.event(id)) ? events : undefined }
    feed.subscribe((updates) => {
      for (const update of updates)
        for (const change of update.selections ?? []) if (change.result && replay.wanted.has(change.id)) replay.results.set(change.id, change.result)
    })
    replays.set(origin, replay)
    return replay
  }
  return (now: number): void => {
    if (now - checkedAt < EARLIER_TREE_CHECK_MS) return
    checkedAt = now
    const byOrigin = new Map<number, Set<string>>()
    for (const betId of allOpenBetIds(db))
      for (const leg of findBet(db, betId)?.legs ?? []) {
        if (leg.result !== null || running.selection(leg.selectionId)) continue
        const origin = treeOriginOf(leg.selectionId, running.origin)
        if (origin === undefined || origin >= running.origin) continue
        byOrigin.set(origin, (byOrigin.get(origin) ?? new Set()).add(leg.selectionId))
      }
    for (const origin of replays.keys()) if (!byOrigin.has(origin)) replays.delete(origin)
    for (const [origin, ids] of byOrigin) {
      const replay = replayFor(origin, new Set([...ids].map(eventIdOf)))
      replay.wanted = ids
      replay.feed.advanceTo(now, replay.only ? { everyTick: true, only: replay.only } : { everyTick: true, maxTicks: REPLAY_TICKS_PER_CHECK })
      for (const id of ids) {
        const view = replay.feed.selection(id)
        const result = replay.results.get(id) ?? (view?.status === 'SETTLED' ? view.result : undefined)
        if (!result) continue
        for (const betId of openBetIdsWith(db, [id])) {
          recordLegResult(db, betId, id, result)
          settleIfDone(db, betId, now)
        }
      }
    }
  }
}

/** Follows the feed (and the trees of earlier hours open bets still name); answers the unsubscribe. */
export function followFeed(db: Db, feed: Feed, now: () => number): () => void {
  catchUp(db, feed, now())
  const followEarlierTrees = earlierTrees(db, feed)
  followEarlierTrees(now())
  return feed.subscribe((updates) => {
    for (const update of updates) onUpdate(db, feed, update, now())
    followEarlierTrees(now())
  })
}

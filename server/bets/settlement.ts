/**
 * Settlement and cash-out offers, driven by the feed (issue 14 item 5). When the feed settles a
 * selection, every open bet holding it records the leg's result; a bet whose legs all have one is
 * closed once (lost on any LOSE; otherwise won, a VOID leg counting at price 1) and a win is
 * credited through the one balance function under `bet-win:<id>`, so it is credited once however
 * often the feed repeats itself. When a live price or status moves, the punters holding the
 * selection get a cash-out offer (coOffer) or its withdrawal (coRemoval) over their socket.
 */
import { potentialWinMinor } from '../../kernel/core/payout'
import { isStorageUnavailable } from '../db/database'
import type { ServerDeps } from '../deps'
import { createFeed, treeOriginOf, type EventUpdate, type Feed, type SelectionResult } from '../feed'
import { changeBalance, emitPunterEvent } from '../punters/events'
import { stakePendingBet } from './placement'
import { allOpenBetIds, closeBet, countOpenBets, findBet, markPaid, openBetIdsWith, openLegsWith, recordLegResult, stalePendingBets, unpaidClosedBets, type Bet } from './store'

type Deps = Pick<ServerDeps, 'db' | 'data'>

/** What the house keeps of a cash-out's fair value. */
export const CASH_OUT_MARGIN = 0.05

/** The bet's payout if it closes now: 0 for a loss; a win pays the potential win computed the way
 * the bet showed it (kernel/core/payout.ts), a void leg counting at price 1 (never more than shown). */
function payoutOf(bet: Bet): number {
  if (bet.legs.some((l) => l.result === 'LOSE')) return 0
  return Number(potentialWinMinor(bet.stakeMinor, bet.legs.map((l) => (l.result === 'VOID' ? 1 : l.price))))
}

/**
 * Closes the bet if every leg has a result; credits a win once. Answers whether it closed now.
 * The bet is claimed first (`open` → won/lost/void, once across instances), then credited: a crash
 * between leaves a closed, unpaid bet that sweep() credits again by its reference.
 */
export async function settleIfDone(deps: Deps, betId: string, now: number): Promise<boolean> {
  const db = deps.data.db
  const bet = await findBet(db, betId)
  if (!bet || bet.status !== 'open' || bet.legs.some((l) => l.result === null)) return false
  const payoutMinor = payoutOf(bet)
  const status = payoutMinor === 0 ? 'lost' : bet.legs.every((l) => l.result === 'VOID') ? 'void' : 'won'
  if (!(await closeBet(db, bet.id, status, payoutMinor, now))) return false // closed meanwhile (cashed out, another instance)
  if (status !== 'lost') await creditClosedBet(deps, { ...bet, status, payoutMinor }, now)
  emitPunterEvent('betCountUpdate', { punterId: bet.punterId, count: await countOpenBets(db, bet.punterId), settledBetId: bet.id, status })
  return true
}

/**
 * Credits a closed bet's payout under its reference (once: the ledger reference is unique, so a
 * second call, or the sweep re-crediting after a crash between claim and credit, changes nothing)
 * and records it paid.
 */
export async function creditClosedBet(deps: Deps, bet: Pick<Bet, 'id' | 'punterId' | 'status' | 'payoutMinor'>, now: number): Promise<void> {
  if (bet.payoutMinor && bet.payoutMinor > 0) {
    const [reference, kind] = bet.status === 'cashed_out' ? ['bet-cashout', 'bet-cashout'] : ['bet-win', bet.status === 'void' ? 'bet-refund' : 'bet-win']
    // back to the stake's sources (real, bonus) in proportion; a void bet's refund also takes back the wagering it counted
    await changeBalance(deps.data, { punterId: bet.punterId, amountMinor: bet.payoutMinor, reference: `${reference}:${bet.id}`, kind, now, paysBack: { reference: `bet:${bet.id}`, refund: bet.status === 'void' } })
  }
  await markPaid(deps.data.db, bet.id, now)
}


/** How long a pending bet's own request has to finish it before sweep() does. */
export const PENDING_BET_GRACE_MS = 60_000

/**
 * Finishes what a crash (or a lost database connection) left half done: closed bets not yet
 * credited are credited by their reference, and pending bets whose request never came back are
 * staked and opened, or withdrawn when the stake is refused (./placement.ts).
 */
export async function sweep(deps: Deps, now: number): Promise<void> {
  for (const bet of await unpaidClosedBets(deps.data.db)) await creditClosedBet(deps, bet, now)
  for (const bet of await stalePendingBets(deps.data.db, now - PENDING_BET_GRACE_MS)) await stakePendingBet(deps, bet, now)
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

/**
 * Acts on a batch of the feed's updates: records the results of settled selections on the open
 * bets holding them and settles the bets done, then sends the cash-out offer (or its withdrawal)
 * of the open bets whose selections moved, once per bet at its value now. A few queries per batch,
 * however many ticks it spans (a feed catching up plays up to an hour of them at once).
 */
async function onUpdates(deps: Deps, feed: Feed, updates: EventUpdate[], now: number): Promise<void> {
  const db = deps.data.db
  const changes = updates.flatMap((update) => update.selections ?? [])
  const results = new Map<string, SelectionResult>()
  for (const change of changes) if (change.status === 'SETTLED' && change.result) results.set(change.id, change.result)
  const done = new Set<string>()
  for (const leg of await openLegsWith(db, [...results.keys()])) {
    await recordLegResult(db, leg.betId, leg.selectionId, results.get(leg.selectionId)!)
    done.add(leg.betId)
  }
  for (const betId of done) await settleIfDone(deps, betId, now)
  const moved = changes.filter((change) => change.status !== 'SETTLED').map((change) => change.id)
  for (const betId of await openBetIdsWith(db, moved)) {
    const bet = await findBet(db, betId)
    if (!bet) continue
    const { type, event } = offerEvent(feed, bet)
    emitPunterEvent(type, event)
  }
}

/** Records results the feed already has (a restart, an event finished while the server was down). */
export async function catchUp(deps: Deps, feed: Feed, now: number): Promise<void> {
  const db = deps.data.db
  for (const betId of await allOpenBetIds(db)) {
    const bet = await findBet(db, betId)
    for (const leg of bet?.legs ?? []) {
      const view = feed.selection(leg.selectionId)
      if (leg.result === null && view?.status === 'SETTLED' && view.result) await recordLegResult(db, betId, leg.selectionId, view.result)
    }
    await settleIfDone(deps, betId, now)
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
function earlierTrees(deps: Deps, running: Feed) {
  const db = deps.data.db
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
  return async (now: number): Promise<void> => {
    if (now - checkedAt < EARLIER_TREE_CHECK_MS) return
    checkedAt = now
    await sweep(deps, now)
    const byOrigin = new Map<number, Set<string>>()
    for (const betId of await allOpenBetIds(db))
      for (const leg of (await findBet(db, betId))?.legs ?? []) {
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
        for (const betId of await openBetIdsWith(db, [id])) {
          await recordLegResult(db, betId, id, result)
          await settleIfDone(deps, betId, now)
        }
      }
    }
  }
}

/**
 * Follows the feed (and the trees of earlier hours open bets still name). The work runs one step
 * after another (catching up first, then the updates in the feed's order, all those emitted
 * meanwhile in one batch); `idle()` resolves once every step queued so far has ended, so a page
 * asking for its bets sees what the feed already settled. Each listener call answers its step (the
 * feed's own idle() waits on it). A failed step is reported and the next goes on; a batch failed by
 * a database outage is taken again by the next step, and a closed bet left unpaid is credited by
 * the next sweep.
 */
export function followFeed(deps: Deps, feed: Feed, now: () => number, onError: (error: unknown) => void): { stop(): void; idle(): Promise<void> } {
  const followEarlierTrees = earlierTrees(deps, feed)
  let queue: Promise<void> = Promise.resolve()
  const then = (step: () => Promise<void>): Promise<void> => (queue = queue.then(step).catch(onError))
  const started = then(async () => {
    await catchUp(deps, feed, now())
    await followEarlierTrees(now())
  })
  // updates wait here for the step that takes them all: the many emits of one advance are one batch
  let waiting: EventUpdate[] = []
  const stop = feed.subscribe((updates) => {
    waiting.push(...updates)
    return then(async () => {
      const batch = waiting
      waiting = []
      try {
        if (batch.length) await onUpdates(deps, feed, batch, now())
      } catch (error) {
        // the database is away: the batch waits for the next step (every step of it is idempotent)
        if (isStorageUnavailable(error)) waiting = batch.concat(waiting)
        throw error
      }
      await followEarlierTrees(now())
    })
  })
  return {
    stop,
    async idle() {
      await started
      let last: Promise<void> | undefined
      while (last !== queue) await (last = queue)
    },
  }
}

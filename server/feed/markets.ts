/**
 * What happens to an event's markets in the demo feed: a market's prices move to new chances, the
 * markets suspend or reopen, and a finished event's selections settle WIN or LOSE by its score.
 * Every selection that changes is recorded in `changes`, for the update the feed emits.
 */
import type { FeedMarket, SelectionChange, SelectionResult } from './model'
import type { EventModel } from './generate'
import { priceOf } from './prices'

/** Walks one market (or the main one after a score) and records the selections that moved. */
export function repriceMarket(model: EventModel, market: FeedMarket, chances: number[], changes: SelectionChange[]): void {
  model.chances.set(market.id, chances)
  market.selections.forEach((selection, i) => {
    const price = priceOf(chances[i])
    if (price === selection.price) return
    changes.push({ id: selection.id, marketId: market.id, main: market.kind === 'main', price, previous: selection.price, status: selection.status })
    selection.price = price
  })
}

/** Suspends or reopens every selection of an event not yet settled. */
export function setStatus(model: EventModel, status: 'OPEN' | 'SUSPENDED', changes: SelectionChange[]): void {
  for (const market of model.event.markets)
    for (const selection of market.selections) {
      if (selection.status === status || selection.status === 'SETTLED') continue
      selection.status = status
      changes.push({ id: selection.id, marketId: market.id, main: market.kind === 'main', price: selection.price, previous: selection.price, status })
    }
}

/** A selection's result by the final score: 1/X/2, over/under the line, both score, handicap. */
export function outcome(market: FeedMarket, code: string, [home, away]: [number, number]): SelectionResult {
  switch (market.kind) {
    case 'main':
      return code === (home > away ? '1' : home < away ? '2' : 'X') ? 'WIN' : 'LOSE'
    case 'total':
      return (home + away > (market.line ?? 0)) === (code === 'over') ? 'WIN' : 'LOSE'
    case 'both-score':
      return (home > 0 && away > 0) === (code === 'yes') ? 'WIN' : 'LOSE'
    case 'handicap':
      return (home + (market.line ?? 0) > away) === (code === '1') ? 'WIN' : 'LOSE'
  }
}

/** The event is finished: every selection settles by the score. */
export function settle(model: EventModel, changes: SelectionChange[]): void {
  model.event.state = 'finished'
  for (const market of model.event.markets)
    for (const selection of market.selections) {
      selection.status = 'SETTLED'
      selection.result = outcome(market, selection.code, model.event.score)
      changes.push({ id: selection.id, marketId: market.id, main: market.kind === 'main', price: selection.price, previous: selection.price, status: 'SETTLED', result: selection.result })
    }
}

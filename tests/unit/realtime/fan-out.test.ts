/**
 * What the bet channel hears of a watched selection's change (server/realtime/fan-out.ts,
 * selectionNotice): an open selection (a new price, a reopening) is a WATCH_ON_BET notice with its
 * price and previous price, for the bet slip's WATCH_ON_BET only; a suspended or settled one an
 * INACTIVE_SELECTION notice for every watcher, with the result only where there is one.
 */
import { describe, expect, it } from 'vitest'
import { selectionNotice } from '../../../server/realtime/fan-out'

const base = { id: 'e1000001-m1-s1', marketId: 'e1000001-m1', main: true, price: 2.1, previous: 1.95 }

describe('selection notice', () => {
  it('an open selection is a WATCH_ON_BET notice with its price, for WATCH_ON_BET watchers only', () => {
    const notice = selectionNotice('e1000001', { ...base, status: 'OPEN' })
    expect(notice.watchOnBetOnly).toBe(true)
    expect(JSON.parse(notice.frame)).toEqual({ type: 'WATCH_ON_BET', selectionId: 'e1000001-m1-s1', eventId: 'e1000001', status: 'OPEN', price: 2.1, previous: 1.95 })
  })

  it('a suspended selection is an INACTIVE_SELECTION notice, without price or result, for every watcher', () => {
    const notice = selectionNotice('e1000001', { ...base, status: 'SUSPENDED' })
    expect(notice.watchOnBetOnly).toBe(false)
    expect(JSON.parse(notice.frame)).toEqual({ type: 'INACTIVE_SELECTION', selectionId: 'e1000001-m1-s1', eventId: 'e1000001', status: 'SUSPENDED' })
  })

  it('a settled selection carries its result', () => {
    const notice = selectionNotice('e1000001', { ...base, status: 'SETTLED', result: 'WIN' })
    expect(notice.watchOnBetOnly).toBe(false)
    expect(JSON.parse(notice.frame)).toEqual({ type: 'INACTIVE_SELECTION', selectionId: 'e1000001-m1-s1', eventId: 'e1000001', status: 'SETTLED', result: 'WIN' })
  })
})

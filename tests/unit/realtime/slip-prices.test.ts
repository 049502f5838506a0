/**
 * The bet slip's prices follow the socket (issue 31 item 1): while the slip has picks, each pick's
 * match is followed (once per match, in FULL so any market's pick moves), and what the socket says
 * of a pick — through the real live store, as the page's socket fills it — reaches the slip, where
 * the move is counted with its direction and the punter's setting decides. A pick removed, or the
 * last pick of a match, releases its match.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { createBetslipStore, needsAcceptance } from '../../../engine/core/betslip'
import { applyEventMessage, clearLive } from '../../../engine/realtime/live-store'
import { followSlipPrices } from '../../../engine/realtime/slip-prices'

const update = (eventId: string, treeId: number, version: number, selections: { id: string; price: number; previous: number; status?: string }[]) =>
  applyEventMessage({ type: 'EVENT_UPDATE', eventId, treeId, version, selections: selections.map((s) => ({ status: 'OPEN', ...s })) })

beforeEach(() => clearLive())

describe('the slip follows its picks on the socket', () => {
  it('follows each match once while it has a pick, and releases it with its last pick', () => {
    const slip = createBetslipStore()
    const followed: string[] = []
    const released: string[] = []
    const stop = followSlipPrices(slip, (event) => (followed.push(`${event.id}/${event.treeId}`), () => released.push(event.id)))
    slip.getState().toggle({ id: 'e1-main-1', label: '1', price: 2.5, eventId: 'e1', treeId: 1 })
    slip.getState().toggle({ id: 'e1-total-1', label: 'Over 2.5', price: 1.9, eventId: 'e1', treeId: 1 })
    slip.getState().toggle({ id: 'e2-main-3', label: '2', price: 3, eventId: 'e2', treeId: 2 })
    expect(followed).toEqual(['e1/1', 'e2/2'])
    slip.getState().remove('e1-main-1')
    expect(released).toEqual([])
    slip.getState().remove('e1-total-1')
    expect(released).toEqual(['e1'])
    stop()
    expect(released).toEqual(['e1', 'e2'])
  })

  it('a price the socket moves reaches the slip with its direction; the setting decides whether it waits for the punter', () => {
    const slip = createBetslipStore()
    followSlipPrices(slip, () => () => undefined)
    slip.getState().toggle({ id: 'e1-main-1', label: '1', price: 2.5, eventId: 'e1', treeId: 1, checked: true })
    update('e1', 1, 1, [{ id: 'e1-main-1', price: 2.6, previous: 2.5 }])
    expect(slip.getState().picks[0]).toMatchObject({ price: 2.5, current: 2.6, move: 'up', moves: 1 })
    expect(needsAcceptance(slip.getState().picks[0]!, 'GreaterOrEqualsToCurrent')).toBe(false)
    expect(needsAcceptance(slip.getState().picks[0]!, 'EqualsToCurrent')).toBe(true)
    update('e1', 1, 2, [{ id: 'e1-main-1', price: 2.3, previous: 2.6 }])
    expect(slip.getState().picks[0]).toMatchObject({ current: 2.3, move: 'down', moves: 2 })
    expect(needsAcceptance(slip.getState().picks[0]!, 'GreaterOrEqualsToCurrent')).toBe(true)
    expect(needsAcceptance(slip.getState().picks[0]!, 'Any')).toBe(false)
    // an older message than the live store has is dropped; a suspension marks the pick
    update('e1', 1, 1, [{ id: 'e1-main-1', price: 9, previous: 2.3 }])
    expect(slip.getState().picks[0]!.current).toBe(2.3)
    update('e1', 1, 3, [{ id: 'e1-main-1', price: 2.3, previous: 2.3, status: 'SUSPENDED' }])
    expect(slip.getState().picks[0]!.inactive).toBe('SUSPENDED')
  })

  it('a price the live store kept from before the pick was added is not taken as news', () => {
    update('e1', 1, 1, [{ id: 'e1-main-1', price: 4, previous: 3 }])
    const slip = createBetslipStore()
    followSlipPrices(slip, () => () => undefined)
    slip.getState().toggle({ id: 'e1-main-1', label: '1', price: 2.5, eventId: 'e1', treeId: 1 })
    expect(slip.getState().picks[0]).toMatchObject({ price: 2.5 })
    expect(slip.getState().picks[0]!.checked).toBeUndefined()
    expect(slip.getState().picks[0]!.current).toBeUndefined()
  })
})

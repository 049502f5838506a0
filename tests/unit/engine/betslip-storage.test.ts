/**
 * The bet slip kept across reloads and tabs (issue 31 item 1): what is stored is what was picked
 * and the price agreed to, never the feed's word; what comes back is unchecked, so it is checked
 * against the feed before anything can be placed; stored text is untrusted and anything that is
 * not a pick is dropped; another tab's change is taken over.
 */
import { describe, expect, it } from 'vitest'
import { createBetslipStore } from '../../../engine/core/betslip'
import { BETSLIP_STORAGE_KEY, persistSlip, readStoredSlip } from '../../../engine/core/betslip-storage'
import { memoryStorage } from './helpers'

describe('bet slip storage', () => {
  it('a reload gets the picks and the stake back, unchecked, without the feed\'s price or status', () => {
    const storage = memoryStorage()
    const first = createBetslipStore()
    persistSlip(first, { storage: () => storage })
    first.getState().toggle({ id: 'e1-main-1', label: '1', event: 'Arsenal – Chelsea', eventId: 'e1', treeId: 1, price: 2.5, checked: true })
    first.getState().feedPrice('e1-main-1', 2.4, 'SUSPENDED')
    first.getState().setStake(5)
    const stored = JSON.parse(storage.data.get(BETSLIP_STORAGE_KEY)!)
    expect(stored).toEqual({ picks: [{ id: 'e1-main-1', label: '1', event: 'Arsenal – Chelsea', eventId: 'e1', treeId: 1, price: 2.5 }], stake: 5 })

    const reloaded = createBetslipStore()
    persistSlip(reloaded, { storage: () => storage })
    expect(reloaded.getState()).toMatchObject({ stake: 5, picks: [{ id: 'e1-main-1', price: 2.5, checked: false }] })
    expect(reloaded.getState().picks[0]!.inactive).toBeUndefined()
    expect(reloaded.getState().picks[0]!.current).toBeUndefined()
  })

  it('an emptied slip leaves nothing stored', () => {
    const storage = memoryStorage()
    const slip = createBetslipStore()
    persistSlip(slip, { storage: () => storage })
    slip.getState().toggle({ id: 'e1-main-1', label: '1', price: 2.5 })
    expect(storage.data.has(BETSLIP_STORAGE_KEY)).toBe(true)
    slip.getState().clear()
    expect(storage.data.has(BETSLIP_STORAGE_KEY)).toBe(false)
  })

  it('stored text is untrusted: bad JSON, bad ids, prices and labels are dropped; duplicates and more than 20 picks are cut', () => {
    const bad = (value: string) => readStoredSlip(memoryStorage({ [BETSLIP_STORAGE_KEY]: value }))
    expect(bad('{not json')).toBeNull()
    expect(bad('"a string"')).toEqual({ picks: [], stake: null })
    const mixed = bad(
      JSON.stringify({
        picks: [
          { id: 'e1-main-1', label: '1', price: 2.5 },
          { id: 'e1-main-1', label: '1', price: 2.5 },
          { id: '<script>', label: '1', price: 2 },
          { id: 'e2-main-1', label: 7, price: 2 },
          { id: 'e3-main-1', label: '1', price: 1 },
          { id: 'e4-main-1', label: '1', price: '2' },
          { id: 'e5-main-1', label: '1', price: 2, treeId: 1.5, checked: true, inactive: 'SUSPENDED' },
        ],
        stake: -3,
      }),
    )
    expect(mixed).toEqual({ picks: [{ id: 'e1-main-1', label: '1', price: 2.5, checked: false }, { id: 'e5-main-1', label: '1', price: 2, checked: false }], stake: null })
    const many = bad(JSON.stringify({ picks: Array.from({ length: 30 }, (_, i) => ({ id: `e${i}-main-1`, label: '1', price: 2 })), stake: 1 }))
    expect(many?.picks).toHaveLength(20)
  })

  it('another tab\'s change is taken over, unchecked', () => {
    const storage = memoryStorage()
    let otherTab: () => void = () => undefined
    const slip = createBetslipStore()
    persistSlip(slip, { storage: () => storage, onOtherTab: (listener) => ((otherTab = listener), () => undefined) })
    storage.setItem(BETSLIP_STORAGE_KEY, JSON.stringify({ picks: [{ id: 'e7-main-2', label: 'X', price: 3.1 }], stake: 2 }))
    otherTab()
    expect(slip.getState()).toMatchObject({ stake: 2, picks: [{ id: 'e7-main-2', checked: false }] })
  })

  it('storage that refuses (private mode, quota) leaves the slip working in memory', () => {
    const refusing = { getItem: () => { throw new Error('denied') }, setItem: () => { throw new Error('quota') }, removeItem: () => undefined }
    const slip = createBetslipStore()
    persistSlip(slip, { storage: () => refusing })
    slip.getState().toggle({ id: 'e1-main-1', label: '1', price: 2.5 })
    expect(slip.getState().picks).toHaveLength(1)
  })
})

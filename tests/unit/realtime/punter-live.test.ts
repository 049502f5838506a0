/**
 * The punter socket's settingsUpdate, regulationAlert, coRequest and mirror handlers on an open
 * page (spec §3 "Socket events"), driven through a fake socket into real engine stores: what the
 * page shows after each frame.
 */
import { describe, expect, it, vi } from 'vitest'
import { createEngineStores, type EngineStores } from '../../../engine/core/stores'
import { MIRROR_STORAGE_KEY, punterLiveEvents } from '../../../engine/renderers/punter-live'
import type { EngineRuntime } from '../../../engine/renderers/runtime'
import { memoryStorage, siteBootstrap } from '../engine/helpers'

/** A page with a logged-in punter, its handlers on a fake punter socket that routes frames by type. */
function page(options: { host?: string; loggedIn?: boolean } = {}) {
  const stores: EngineStores = createEngineStores({ site: siteBootstrap(), locale: 'en' })
  if (options.loggedIn !== false) stores.session.getState().setSession({ accessToken: 'at', refreshToken: 'rt' })
  stores.user.getState().setUser({ user: { account: { currency: 'EUR' } }, balanceInfo: { mainBalance: 50 } } as never)
  const storage = memoryStorage()
  const runtime = { stores } as unknown as EngineRuntime
  const handlers = punterLiveEvents({ storage: () => storage, host: () => options.host ?? 'parlay.example' })
  const socket = {
    deliver(frame: { type: string; payload?: unknown }) {
      handlers[frame.type]?.(frame, runtime)
    },
  }
  return { stores, storage, socket }
}

const openBets = () => [
  { betId: 'b1', stake: 10, cashOut: { amount: 9.5 } },
  { betId: 'b2', stake: 5, cashOut: { amount: 4 } },
]

describe('settingsUpdate', () => {
  it('applies the server-side settings saved elsewhere at once (odds format, indicator, placing mode), but not the language', () => {
    const { stores, socket } = page()
    socket.deliver({ type: 'settingsUpdate', payload: { settings: { oddsType: 'american', priceChangeNotificationViewType: 'OFF', betPlacingMode: 'Any', locale: 'ru' }, changed: ['oddsType'] } })
    expect(stores.settings.getState().server).toMatchObject({ oddsType: 'american', priceChangeNotificationViewType: 'OFF', betPlacingMode: 'Any', locale: 'en' })
  })

  it('ignores keys that are not server-side settings and a page already logged out', () => {
    const { stores, socket } = page({ loggedIn: false })
    socket.deliver({ type: 'settingsUpdate', payload: { settings: { oddsType: 'fractional' } } })
    expect(stores.settings.getState().server.oddsType).toBe('decimal')
    const logged = page()
    logged.socket.deliver({ type: 'settingsUpdate', payload: { settings: { isQuickBetEnable: true, evil: 1 } } })
    expect(logged.stores.settings.getState().local.isQuickBetEnable).toBe(false)
    expect(logged.stores.settings.getState().server).not.toHaveProperty('evil')
  })
})

describe('regulationAlert', () => {
  // the popup opens from the socket frame itself (engine/regulation/alert.ts is in the entry, the monitor is not)
  const alertPopups = (stores: ReturnType<typeof page>['stores']) => stores.ui.getState().popups.filter((p) => p.id === 'regulation-alert')

  it('opens the regulation-alert popup with the hours and the totals in major units, once', async () => {
    const { stores, socket } = page()
    const frame = { type: 'regulationAlert', payload: { notificationInfo: { status: 'NEED_TO_CONFIRM', spentHours: 2, totalBetMinUnit: 15_000, totalLostMinUnit: 4_000 } } }
    socket.deliver(frame)
    socket.deliver(frame)
    await vi.waitFor(() => expect(alertPopups(stores)).not.toHaveLength(0))
    const popups = alertPopups(stores)
    expect(popups).toHaveLength(1)
    expect(popups[0]).toMatchObject({ params: { spentHours: 2, totalBet: 150, totalLost: 40, currency: 'EUR' }, isCloseable: false })
  })

  it('a confirmed or malformed alert opens nothing', async () => {
    const { stores, socket } = page()
    const opened: unknown[] = []
    stores.ui.subscribe((state, previous) => state.popups !== previous.popups && opened.push(...state.popups.filter((p) => !previous.popups.includes(p)).map((p) => p.params)))
    socket.deliver({ type: 'regulationAlert', payload: { notificationInfo: { status: 'CONFIRMED', spentHours: 2, totalBetMinUnit: 1, totalLostMinUnit: 1 } } })
    socket.deliver({ type: 'regulationAlert', payload: { notificationInfo: { status: 'NEED_TO_CONFIRM', spentHours: '2' } } })
    socket.deliver({ type: 'regulationAlert' })
    // a valid alert after them: once its popup is open, the earlier ones have had their turn
    socket.deliver({ type: 'regulationAlert', payload: { notificationInfo: { status: 'NEED_TO_CONFIRM', spentHours: 3, totalBetMinUnit: 100, totalLostMinUnit: 100 } } })
    await vi.waitFor(() => expect(alertPopups(stores)).not.toHaveLength(0))
    expect(opened).toEqual([expect.objectContaining({ spentHours: 3 })])
  })
})

describe('coRequest', () => {
  it('PENDING marks that bet’s cash-out as waiting; ACCEPTED shows it cashed out at the amount with no offer left', () => {
    const { stores, socket } = page()
    stores.screenData.getState().setData('openBets', openBets())
    socket.deliver({ type: 'coRequest', payload: { betId: 'b1', requestId: 'r1', status: 'PENDING' } })
    expect(stores.screenData.getState().data.openBets).toEqual([{ ...openBets()[0], cashOutPending: true }, openBets()[1]])
    socket.deliver({ type: 'coRequest', payload: { betId: 'b1', status: 'ACCEPTED', amount: 9.5 } })
    expect((stores.screenData.getState().data.openBets as unknown[])[0]).toEqual({ betId: 'b1', stake: 10, cashOut: null, cashOutPending: false, status: 'cashed_out', cashedOut: 9.5 })
  })

  it('a bet the page does not show, or a page without bets, is left as it is', () => {
    const { stores, socket } = page()
    socket.deliver({ type: 'coRequest', payload: { betId: 'b1', status: 'PENDING' } })
    expect(stores.screenData.getState().data.openBets).toBeUndefined()
    stores.screenData.getState().setData('openBets', openBets())
    socket.deliver({ type: 'coRequest', payload: { betId: 'elsewhere', status: 'ACCEPTED', amount: 3 } })
    expect(stores.screenData.getState().data.openBets).toEqual(openBets())
  })
})

describe('mirror', () => {
  it('keeps the mirror name under the stored key "mirror name" and tells the punter the address, once per name', () => {
    const { stores, storage, socket } = page()
    socket.deliver({ type: 'mirror', payload: { mirrorName: 'parlay-mirror.example' } })
    socket.deliver({ type: 'mirror', payload: { mirrorName: 'parlay-mirror.example' } })
    expect(storage.getItem(MIRROR_STORAGE_KEY)).toBe('parlay-mirror.example')
    expect(stores.ui.getState().notifications.map((n) => [n.id, n.values])).toEqual([['mirror.changed', { mirror: 'parlay-mirror.example' }]])
  })

  it('a page already on the mirror only stores it; a name that is not a host name is dropped', () => {
    const here = page({ host: 'parlay-mirror.example' })
    here.socket.deliver({ type: 'mirror', payload: { mirrorName: 'parlay-mirror.example' } })
    expect(here.storage.getItem(MIRROR_STORAGE_KEY)).toBe('parlay-mirror.example')
    expect(here.stores.ui.getState().notifications).toHaveLength(0)
    const bad = page()
    bad.socket.deliver({ type: 'mirror', payload: { mirrorName: 'javascript:alert(1)' } })
    expect(bad.storage.getItem(MIRROR_STORAGE_KEY)).toBeNull()
    expect(bad.stores.ui.getState().notifications).toHaveLength(0)
  })
})

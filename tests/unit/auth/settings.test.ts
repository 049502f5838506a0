/**
 * Account settings in the engine (spec §3 "Account settings keys", §9 defaults): the split
 * between server-side and local-only keys, saving, the other tabs following a change, time zone
 * detection and matching, the settings.detect action and the language saved to the server.
 */
import { describe, expect, it, vi } from 'vitest'
import { SETTING_KEYS } from '../../../kernel/documents/kinds'
import {
  LOCAL_SETTING_KEYS,
  SERVER_SETTING_KEYS,
  SETTINGS_EVENT_KEY,
  followSettingsAcrossTabs,
  readSetting,
  saveSettings,
  timeZoneIdFor,
  zoneOffsetMinutes,
} from '../../../engine/auth/settings'
import { settingsDetect } from '../../../engine/actions/settings'
import { localeSet } from '../../../engine/actions/locale'
import { createEngineStores, defaultLocalSettings, defaultServerSettings, STORAGE_KEYS, type EngineStores } from '../../../engine/core/stores'
import type { Gateway } from '../../../engine/core/gateway'
import { SERVER_SETTINGS_DEFAULTS } from '../../../server/punters/repository'
import { memoryStorage, siteBootstrap, testEnv } from '../engine/helpers'

/** Two tabs of one browser: one storage, storage events delivered to the other tab only. */
function twoTabs() {
  const storage = memoryStorage()
  const listeners = new Map<string, Set<(event: StorageEvent) => void>>()
  const tab = (name: string) => {
    const stores = createEngineStores({ storage, site: siteBootstrap(), locale: 'ru' })
    const target = {
      addEventListener: (_type: string, fn: (event: StorageEvent) => void) => void (listeners.get(name) ?? listeners.set(name, new Set()).get(name)!).add(fn),
      removeEventListener: (_type: string, fn: (event: StorageEvent) => void) => void listeners.get(name)?.delete(fn),
    }
    return { stores, target }
  }
  const a = tab('a')
  const b = tab('b')
  // a write by one tab is an event in the other (as browsers do)
  const write = storage.setItem
  let writer = 'a'
  storage.setItem = (key, value) => {
    const old = storage.getItem(key)
    write(key, value)
    if (old === value) return
    for (const [name, fns] of listeners) if (name !== writer) for (const fn of fns) fn({ key, newValue: value } as StorageEvent)
  }
  return { storage, a, b, as: (name: 'a' | 'b') => (writer = name) }
}

const gatewayAnswering = (answers: Record<string, unknown>) =>
  ({
    call: vi.fn(async (method: string, path: string) => {
      const key = `${method} ${path.replace('/mobile-gate/api/v1', '')}`
      return key in answers ? { ok: true, value: answers[key] } : { ok: false, code: 'NOT_FOUND' }
    }),
  }) as unknown as Gateway & { call: ReturnType<typeof vi.fn> }

const loggedIn = (stores: EngineStores) => stores.session.getState().setSession({ accessToken: 'at', refreshToken: 'rt', creationTime: 0, loginTimeout: 1, expireTokenTime: 1, rememberMe: false, isLoginByAuthToken: false })

describe('the settings keys (spec §3)', () => {
  it('every key of spec §3 is either server-side or local-only, and a setting node can show each', () => {
    expect(new Set([...SERVER_SETTING_KEYS, ...LOCAL_SETTING_KEYS])).toEqual(new Set(SETTING_KEYS))
    expect(SERVER_SETTING_KEYS.filter((k) => (LOCAL_SETTING_KEYS as readonly string[]).includes(k))).toEqual([])
  })

  it('the browser starts from the same server-side defaults as the server (§9: odds decimal, standby 0, currency -1)', () => {
    expect(defaultServerSettings('en')).toEqual(SERVER_SETTINGS_DEFAULTS)
    expect(defaultLocalSettings()).toMatchObject({ quickBetAmount: 0, cashOutAutoConfirmationType: 'NEVER', autoDetectedCurrency: 'USD' })
  })

  it('readSetting reads server-side keys from the server part and local ones from the local part', () => {
    const stores = createEngineStores({ site: siteBootstrap(), locale: 'ru' })
    stores.settings.getState().setServerSettings({ oddsType: 'american' })
    stores.settings.getState().setLocalSettings({ quickBetAmount: 7 })
    expect([readSetting(stores, 'oddsType'), readSetting(stores, 'quickBetAmount')]).toEqual(['american', 7])
  })
})

describe('a change in one tab shows in the other', () => {
  it('a server-side setting saved in tab A is applied in tab B (logged in), without a second PUT', async () => {
    const { storage, a, b, as } = twoTabs()
    followSettingsAcrossTabs(a.stores, storage, a.target)
    followSettingsAcrossTabs(b.stores, storage, b.target)
    loggedIn(a.stores)
    loggedIn(b.stores)
    const gateway = gatewayAnswering({ 'PUT /punter/settings': {} })
    as('a')
    expect((await saveSettings(a.stores, gateway, { oddsType: 'fractions' })).ok).toBe(true)
    expect(b.stores.settings.getState().server.oddsType).toBe('fractions')
    expect(gateway.call).toHaveBeenCalledTimes(1)
  })

  it('a local setting changed in tab A is applied in tab B', async () => {
    const { storage, a, b, as } = twoTabs()
    followSettingsAcrossTabs(a.stores, storage, a.target)
    followSettingsAcrossTabs(b.stores, storage, b.target)
    as('a')
    await saveSettings(a.stores, gatewayAnswering({}), { isAnimationsActive: false })
    expect(b.stores.settings.getState().local).toMatchObject({ isAnimationsActive: false, wasUserChangedSettingsManually: true })
  })

  it('a guest tab ignores server-side settings another tab announces; junk in storage changes nothing', () => {
    const { storage, b } = twoTabs()
    followSettingsAcrossTabs(b.stores, storage, b.target)
    const before = structuredClone(b.stores.settings.getState().server)
    const listeners: ((e: StorageEvent) => void)[] = []
    followSettingsAcrossTabs(b.stores, storage, { addEventListener: (_t: string, fn: (e: StorageEvent) => void) => listeners.push(fn), removeEventListener: () => undefined } as never)
    for (const [key, newValue] of [[SETTINGS_EVENT_KEY, JSON.stringify({ server: { oddsType: 'american' } })], [SETTINGS_EVENT_KEY, '{not json'], [STORAGE_KEYS.localSettings, '[1,2]'], [STORAGE_KEYS.localSettings, JSON.stringify({ isAdmin: true })]])
      listeners.forEach((fn) => fn({ key, newValue } as StorageEvent))
    expect(b.stores.settings.getState().server).toEqual(before)
    expect(b.stores.settings.getState().local).not.toHaveProperty('isAdmin')
  })
})

describe('time zone (Intl)', () => {
  const zones = [
    { id: 0, name: 'UTC', offset: 0 },
    { id: 3, name: 'Europe/Madrid', offset: 60 },
    { id: 13, name: 'Europe/Moscow', offset: 180 },
  ]
  const winter = Date.UTC(2025, 0, 15)

  it('offsets are minutes east of UTC, summer time included', () => {
    expect(zoneOffsetMinutes('Europe/Madrid', winter)).toBe(60)
    expect(zoneOffsetMinutes('Europe/Madrid', Date.UTC(2025, 6, 15))).toBe(120)
    expect(zoneOffsetMinutes('America/Curacao', winter)).toBe(-240)
    expect(zoneOffsetMinutes('Not/AZone', winter)).toBe(0)
  })

  it('a detected zone maps to its dictionary id, else to the first zone with the same offset now', () => {
    expect(timeZoneIdFor(zones, 'Europe/Madrid', winter)).toBe(3)
    expect(timeZoneIdFor(zones, 'Europe/Berlin', winter)).toBe(3)
    expect(timeZoneIdFor(zones, 'Asia/Tokyo', winter)).toBeUndefined()
  })

  it('settings.detect stores the detected zone and currency, and saves the zone id while auto-detection is on', async () => {
    const { env, stores } = testEnv()
    loggedIn(stores)
    const gateway = gatewayAnswering({ 'GET /dictionary/user-location': { currencyCode: 'EUR' }, 'GET /dictionary/time-zones': zones, 'PUT /punter/settings': {} })
    env.gateway = gateway
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
    const result = await settingsDetect.handler({}, env)
    expect(result.ok).toBe(true)
    expect(stores.settings.getState().local).toMatchObject({ autoDetectedTimezone: zone, autoDetectedCurrency: 'EUR' })
    const expected = timeZoneIdFor(zones, zone, env.now())
    if (expected !== undefined && expected !== 0) expect(gateway.call).toHaveBeenCalledWith('PUT', '/mobile-gate/api/v1/punter/settings', { timeZoneId: expected })
    expect(stores.settings.getState().server.timeZoneId).toBe(expected ?? 0)
  })

  it('with auto-detection off, settings.detect never changes the chosen zone', async () => {
    const { env, stores } = testEnv()
    loggedIn(stores)
    stores.settings.getState().setLocalSettings({ timeZoneAutoDetect: false })
    stores.settings.getState().setServerSettings({ timeZoneId: 13 })
    const gateway = gatewayAnswering({ 'GET /dictionary/user-location': { currencyCode: 'EUR' }, 'GET /dictionary/time-zones': [{ id: 1, name: Intl.DateTimeFormat().resolvedOptions().timeZone, offset: 0 }] })
    env.gateway = gateway
    await settingsDetect.handler({}, env)
    expect(stores.settings.getState().server.timeZoneId).toBe(13)
    expect(gateway.call).not.toHaveBeenCalledWith('PUT', expect.anything(), expect.anything())
  })
})

describe('language (spec §2: a locale change reloads; from the language page it goes to settings)', () => {
  it('a logged-in punter\'s new locale is saved to the server before the reload', async () => {
    const { env, stores, reload } = testEnv()
    loggedIn(stores)
    stores.route.getState().setRoute({ path: '/account/language' })
    const gateway = gatewayAnswering({ 'PUT /punter/settings': {} })
    env.gateway = gateway
    await localeSet.handler({ locale: 'en' }, env)
    expect(gateway.call).toHaveBeenCalledWith('PUT', '/mobile-gate/api/v1/punter/settings', { locale: 'en' })
    expect(reload).toHaveBeenCalled()
  })

  it('a guest\'s locale change calls no server', async () => {
    const { env, reload } = testEnv()
    const gateway = gatewayAnswering({})
    env.gateway = gateway
    await localeSet.handler({ locale: 'en' }, env)
    expect(gateway.call).not.toHaveBeenCalled()
    expect(reload).toHaveBeenCalled()
  })
})

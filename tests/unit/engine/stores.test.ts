import { beforeEach, describe, expect, it, vi } from 'vitest'
import { buildContext, emptyContext, evaluateCondition, resolveBindings } from '../../../engine/core/context'
import { contextDeclaration } from '../../../kernel/core/context-declaration'
import { clearProblems, listProblems, subscribeProblems } from '../../../engine/core/report'
import { createEngineStores, isLoggedIn, STORAGE_KEYS } from '../../../engine/core/stores'
import { cel, memoryStorage, siteBootstrap } from './helpers'

beforeEach(() => {
  clearProblems()
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})

describe('settings (spec §3 server vs local keys, §9 defaults)', () => {
  it('defaults: quick bet 0, odds decimal, standby 0, currency id -1, cash-out auto confirmation never, auto-detected currency USD', () => {
    const { server, local } = createEngineStores().settings.getState()
    expect(server).toMatchObject({ oddsType: 'decimal', standbyTimeoutMillis: 0, currencyId: -1 })
    expect(local).toMatchObject({ quickBetAmount: 0, cashOutAutoConfirmationType: 'NEVER', autoDetectedCurrency: 'USD' })
  })

  it('local-only settings are persisted and restored; server-side ones are not stored locally', () => {
    const storage = memoryStorage()
    const stores = createEngineStores({ storage })
    stores.settings.getState().setLocalSettings({ quickBetAmount: 50 })
    stores.settings.getState().setServerSettings({ oddsType: 'american' })
    const again = createEngineStores({ storage })
    expect(again.settings.getState().local.quickBetAmount).toBe(50)
    expect(again.settings.getState().server.oddsType).toBe('decimal')
  })

  it('a settings update that changes nothing notifies no one; one that changes a value notifies once', () => {
    const { settings } = createEngineStores({ storage: memoryStorage() })
    const heard = vi.fn()
    settings.subscribe(heard)
    settings.getState().setServerSettings({ oddsType: settings.getState().server.oddsType })
    settings.getState().setLocalSettings({ quickBetAmount: settings.getState().local.quickBetAmount })
    expect(heard).not.toHaveBeenCalled()
    settings.getState().setServerSettings({ oddsType: 'american' })
    settings.getState().setLocalSettings({ quickBetAmount: 25 })
    expect(heard).toHaveBeenCalledTimes(2)
    expect(settings.getState()).toMatchObject({ server: { oddsType: 'american' }, local: { quickBetAmount: 25 } })
  })

  it('a corrupt stored value falls back to the defaults', () => {
    const stores = createEngineStores({ storage: memoryStorage({ [STORAGE_KEYS.localSettings]: '{not json' }) })
    expect(stores.settings.getState().local.quickBetAmount).toBe(0)
  })
})

describe('session (spec §3: stored locally, session hash stored separately)', () => {
  it('logged in while an access token is held; persisted and cleared', () => {
    const storage = memoryStorage()
    const stores = createEngineStores({ storage })
    expect(isLoggedIn(stores.session.getState())).toBe(false)
    stores.session.getState().setSession({ accessToken: 'a', refreshToken: 'r', creationTime: 1, loginTimeout: 2, rememberMe: true })
    stores.session.getState().setSessionHash('h')
    expect(storage.data.get(STORAGE_KEYS.sessionHash)).toBe('"h"')
    const again = createEngineStores({ storage })
    expect(again.session.getState()).toMatchObject({ accessToken: 'a', refreshToken: 'r', rememberMe: true, sessionHash: 'h' })
    expect(isLoggedIn(again.session.getState())).toBe(true)
    again.session.getState().clearSession()
    expect(storage.data.has(STORAGE_KEYS.session)).toBe(false)
    expect(storage.data.has(STORAGE_KEYS.sessionHash)).toBe(false)
  })
})

describe('ui (spec §3 Popup and Notification, §9 timings)', () => {
  it('a notification disappears after its duration (8000 ms by default)', () => {
    vi.useFakeTimers()
    try {
      const ui = createEngineStores().ui
      ui.getState().notify({ id: 'x', status: 'error' })
      ui.getState().notify({ id: 'y', status: 'info', duration: 1000 })
      vi.advanceTimersByTime(1000)
      expect(ui.getState().notifications.map((n) => n.id)).toEqual(['x'])
      vi.advanceTimersByTime(6999)
      expect(ui.getState().notifications).toHaveLength(1)
      vi.advanceTimersByTime(1)
      expect(ui.getState().notifications).toHaveLength(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('the profile panel closes after 400 ms; reopening cancels the close', () => {
    vi.useFakeTimers()
    try {
      const ui = createEngineStores().ui
      ui.getState().openProfile()
      ui.getState().closeProfile()
      vi.advanceTimersByTime(399)
      expect(ui.getState().profileOpen).toBe(true)
      vi.advanceTimersByTime(1)
      expect(ui.getState().profileOpen).toBe(false)
      ui.getState().openProfile()
      ui.getState().closeProfile()
      ui.getState().openProfile()
      vi.advanceTimersByTime(1000)
      expect(ui.getState().profileOpen).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })

  it('the menu toggles', () => {
    const ui = createEngineStores().ui
    ui.getState().toggleLeftMenu()
    expect(ui.getState().leftMenuOpen).toBe(true)
    ui.getState().toggleLeftMenu()
    expect(ui.getState().leftMenuOpen).toBe(false)
  })

  it('a popup opened with stack false replaces the open ones; reopening an id moves it on top', () => {
    const ui = createEngineStores().ui
    ui.getState().openPopup({ id: 'a' })
    ui.getState().openPopup({ id: 'b' })
    ui.getState().openPopup({ id: 'a' })
    expect(ui.getState().popups.map((p) => p.id)).toEqual(['b', 'a'])
    ui.getState().openPopup({ id: 'c', stack: false, isFrozen: true })
    expect(ui.getState().popups).toEqual([{ id: 'c', type: 'default', stack: false, params: {}, isCloseable: true, isFrozen: true }])
  })
})

describe('the evaluation context (a projection of the stores, shape from context-declaration)', () => {
  it('a guest context has every declared field', () => {
    const ctx = buildContext(createEngineStores({ site: siteBootstrap() }))
    for (const [name, declared] of Object.entries(contextDeclaration)) {
      expect(ctx).toHaveProperty(name)
      if (typeof declared === 'object') for (const field of Object.keys(declared)) expect(ctx[name as keyof typeof ctx]).toHaveProperty(field)
    }
    expect(ctx.session.loggedIn).toBe(false)
    expect(ctx.user.balance).toBe(0)
    expect(ctx.site).toMatchObject({ jurisdiction: 'russia', locale: 'ru', locales: ['ru', 'en'], currency: 'RUB' })
    expect(Object.keys(emptyContext()).sort()).toEqual(Object.keys(contextDeclaration).sort())
  })

  it('projects heartbeat user data and the session', () => {
    const stores = createEngineStores({ site: siteBootstrap() })
    stores.session.getState().setSession({ accessToken: 't', expireTokenTime: 99 })
    stores.session.getState().setStatus('punter')
    stores.user.getState().setUser({
      user: { id: 42 },
      balanceInfo: { mainBalance: 12.5, withdrawable: 10 },
      punterInfo: { state: 'OPENED', details: { firstName: 'Ann', nickname: 'ann' } },
      firstDepositDate: '2024-01-01',
      vip: true,
      punterIdentityState: 'simple_success',
    })
    const ctx = buildContext(stores)
    expect(ctx.session).toEqual({ loggedIn: true, status: 'punter', expiresAt: 99 })
    expect(ctx.user).toMatchObject({ id: '42', firstName: 'Ann', state: 'OPENED', balance: 12.5, hasDeposited: true, vip: true, identified: true })
  })

  it('conditions: absent is true, errors are false and reported', () => {
    const ctx = emptyContext()
    expect(evaluateCondition(undefined, ctx)).toBe(true)
    expect(evaluateCondition(cel('!session.loggedIn'), ctx)).toBe(true)
    expect(evaluateCondition(cel('session.loggedIn'), ctx)).toBe(false)
    expect(evaluateCondition(cel('data.missing == 1'), ctx)).toBe(false)
    expect(listProblems().at(-1)?.kind).toBe('expression')
    expect(evaluateCondition('session.loggedIn', ctx)).toBe(false) // an uncompiled source string is refused
  })

  it('bindings are replaced deeply; plain values pass through', () => {
    const ctx = { ...emptyContext(), data: { n: 2 } }
    expect(resolveBindings({ a: { $: cel('data.n * 2') }, b: [1, { $: cel("'x'") }], c: { d: 'plain' } }, ctx)).toEqual({ a: 4, b: [1, 'x'], c: { d: 'plain' } })
  })
})

describe('the problem reporter', () => {
  it('notifies subscribers until they unsubscribe', () => {
    const seen: string[] = []
    const stop = subscribeProblems((p) => seen.push(p.kind))
    evaluateCondition(cel('data.nope'), emptyContext())
    stop()
    evaluateCondition(cel('data.nope'), emptyContext())
    expect(seen).toEqual(['expression'])
  })
})

import { describe, expect, it } from 'vitest'
import type { Result } from '../../../kernel/core/contracts'
import { errorMessageKey, type Gateway } from '../../../engine/core/gateway'
import { createEngineStores, type StorageLike } from '../../../engine/core/stores'
import { createAuthController, tokenExpiryTime, type LoginResult } from '../../../engine/auth/session'
import { splitSettings } from '../../../engine/auth/settings'

const memoryStorage = (): StorageLike & { data: Map<string, string> } => {
  const data = new Map<string, string>()
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) }
}

const SERVER_TIME = 1_700_000_000_000

function setup(options: { localAhead?: number; offsetToExpire?: number } = {}) {
  const clock = { now: SERVER_TIME + (options.localAhead ?? 0) }
  const timers: { fn: () => void; at: number; cancelled: boolean }[] = []
  const calls: { method: string; path: string; body?: unknown }[] = []
  const answers = new Map<string, Result<unknown>[]>()
  const gateway: Gateway = {
    async call<T>(method: string, path: string, body?: unknown) {
      calls.push({ method, path, body })
      const queue = answers.get(path.replace('/mobile-gate/api/v1/', ''))
      return (queue?.shift() ?? { ok: true, value: null }) as Result<T>
    },
  }
  const texts: { path: string; text: string }[] = []
  const storage = memoryStorage()
  const stores = createEngineStores({ storage })
  stores.site.getState().setBootstrap({
    site: { id: 'curacao', jurisdiction: 'curacao', name: 'C', defaultLocale: 'en', locales: ['en', 'ru'], currency: 'USD', minimumAge: 18, mainProduct: 'sport', development: true },
    remoteConfig: { OFFSET_TO_EXPIRE_TOKEN: options.offsetToExpire ?? 0 },
    routes: [],
    documentsVersion: 'v',
    version: '1.22.0',
  })
  const navigated: string[] = []
  const auth = createAuthController({
    stores,
    gateway,
    now: () => clock.now,
    setTimeout: (fn, ms) => {
      const timer = { fn, at: clock.now + ms, cancelled: false }
      timers.push(timer)
      return timer
    },
    clearTimeout: (t) => void ((t as { cancelled: boolean }).cancelled = true),
    postText: async (path, text) => void texts.push({ path, text }),
    navigate: (p) => navigated.push(p),
  })
  const answer = (path: string, ...results: Result<unknown>[]) => answers.set(path, results)
  const liveTimers = () => timers.filter((t) => !t.cancelled)
  const advanceTo = async (at: number) => {
    clock.now = at
    for (const t of liveTimers()) if (t.at <= at) {
      t.cancelled = true
      t.fn()
    }
    await new Promise((r) => setImmediate(r))
  }
  return { clock, stores, auth, calls, texts, answer, liveTimers, advanceTo, navigated, storage }
}

const tokens = (n: number, creationTime = SERVER_TIME): LoginResult => ({
  status: 'OK',
  accessToken: `at${n}`,
  refreshToken: `rt${n}`,
  creationTime,
  loginTimeout: 900_000,
  punterHash: 'hash-1',
})

describe('token timing: the refresh fires at creationTime + loginTimeout + clock offset (spec §4, §9)', () => {
  it('the formula', () => {
    expect(tokenExpiryTime(1000, 500, 0)).toBe(1500)
    expect(tokenExpiryTime(1000, 500, 200)).toBe(1700)
    expect(tokenExpiryTime(1000, 500, 200, -30)).toBe(1670)
  })

  it('a local clock 5 s ahead of the server moves the refresh 5 s later in local time', () => {
    const { auth, stores, liveTimers, clock } = setup({ localAhead: 5000 })
    auth.applyTokens(tokens(1))
    expect(stores.session.getState().expireTokenTime).toBe(SERVER_TIME + 900_000 + 5000)
    expect(liveTimers()).toHaveLength(1)
    expect(liveTimers()[0].at).toBe(clock.now + 900_000)
  })

  it('OFFSET_TO_EXPIRE_TOKEN from remote config refreshes early', () => {
    const { auth, stores } = setup({ offsetToExpire: -30_000 })
    auth.applyTokens(tokens(1))
    expect(stores.session.getState().expireTokenTime).toBe(SERVER_TIME + 870_000)
  })

  it('the timer refreshes with the refresh token and reschedules from the new creation time', async () => {
    const { auth, answer, advanceTo, calls, stores, liveTimers } = setup()
    auth.applyTokens(tokens(1))
    answer('auth/v2/token/refresh', { ok: true, value: tokens(2, SERVER_TIME + 900_000) })
    await advanceTo(SERVER_TIME + 899_999)
    expect(calls).toHaveLength(0)
    await advanceTo(SERVER_TIME + 900_000)
    expect(calls[0]).toEqual({ method: 'POST', path: '/mobile-gate/api/v1/auth/v2/token/refresh', body: { token: 'rt1' } })
    expect(stores.session.getState()).toMatchObject({ accessToken: 'at2', refreshToken: 'rt2', expireTokenTime: SERVER_TIME + 1_800_000 })
    expect(liveTimers().map((t) => t.at)).toEqual([SERVER_TIME + 1_800_000])
  })

  it('the session is persisted as the spec lists (tokens, times, rememberMe; the hash separately)', () => {
    const { auth, storage } = setup()
    auth.applyTokens({ ...tokens(1), rememberMe: true })
    expect(JSON.parse(storage.data.get('session')!)).toEqual({
      accessToken: 'at1', refreshToken: 'rt1', creationTime: SERVER_TIME, loginTimeout: 900_000, expireTokenTime: SERVER_TIME + 900_000, rememberMe: true, isLoginByAuthToken: false,
    })
    expect(JSON.parse(storage.data.get('sessionHash')!)).toBe('hash-1')
  })

  it('two refreshes at once share one call (a second call would be a token reuse)', async () => {
    const { auth, answer, calls } = setup()
    auth.applyTokens(tokens(1))
    answer('auth/v2/token/refresh', { ok: true, value: tokens(2) })
    await Promise.all([auth.refresh(), auth.refresh()])
    expect(calls.filter((c) => c.path.endsWith('token/refresh'))).toHaveLength(1)
  })

  it('INVALID_REFRESH_TOKEN logs out with reason refresh-token expired: session-expired popup', async () => {
    const { auth, answer, stores, texts } = setup()
    auth.applyTokens(tokens(1))
    answer('auth/v2/token/refresh', { ok: false, code: 'INVALID_REFRESH_TOKEN' })
    await auth.refresh()
    expect(stores.session.getState().accessToken).toBeNull()
    expect(texts).toEqual([{ path: '/mobile-gate/api/v1/auth/token/logout', text: 'rt1' }])
    expect(stores.ui.getState().popups.map((p) => p.id)).toEqual(['session-expired'])
  })
})

describe('logout: four reasons and their effects (spec §4)', () => {
  const loggedIn = (state = 'OPENED', path = '/sport') => {
    const s = setup()
    s.auth.applyTokens(tokens(1))
    s.stores.user.getState().setUser({ punterInfo: { state }, balanceInfo: { mainBalance: 5 } })
    s.stores.settings.getState().setServerSettings({ oddsType: 'american' })
    s.stores.ui.getState().openPopup({ id: 'null-balance' })
    s.stores.route.getState().setRoute({ path })
    return s
  }

  it('self logout: server logout by refresh token, everything cleared, popups closed, no popup, no redirect', async () => {
    const s = loggedIn()
    await s.auth.logout('SEFT_LOGOUT')
    expect(s.texts).toEqual([{ path: '/mobile-gate/api/v1/auth/token/logout', text: 'rt1' }])
    expect(s.stores.session.getState()).toMatchObject({ accessToken: null, refreshToken: null, sessionHash: null })
    expect(s.stores.user.getState().data).toBeNull()
    expect(s.stores.settings.getState().server.oddsType).toBe('decimal')
    expect(s.stores.ui.getState().popups).toEqual([])
    expect(s.navigated).toEqual([])
    expect(s.liveTimers()).toEqual([])
    expect(s.storage.data.has('session')).toBe(false)
  })

  it.each(['AT_EXPIRED', 'RT_EXPIRED'] as const)('%s shows the session-expired popup', async (reason) => {
    const s = loggedIn()
    await s.auth.logout(reason)
    expect(s.stores.ui.getState().popups.map((p) => p.id)).toEqual(['session-expired'])
  })

  it('SOCKET redirects to the root and shows the session-expired popup', async () => {
    const s = loggedIn()
    await s.auth.logout('SOCKET')
    expect(s.navigated).toEqual(['/'])
    expect(s.stores.ui.getState().popups.map((p) => p.id)).toEqual(['session-expired'])
  })

  it('on an account page any logout redirects to the root', async () => {
    const s = loggedIn('OPENED', '/account/settings')
    await s.auth.logout('SEFT_LOGOUT')
    expect(s.navigated).toEqual(['/'])
  })

  it('a closed account gets the account-closed popup; another blocked state the no-access popup', async () => {
    const closed = loggedIn('CLOSED')
    await closed.auth.logout('SEFT_LOGOUT')
    expect(closed.stores.ui.getState().popups.map((p) => p.id)).toEqual(['account-closed'])
    const blocked = loggedIn('BLOCKED_ID_UPLOAD')
    await blocked.auth.logout('SEFT_LOGOUT')
    expect(blocked.stores.ui.getState().popups.map((p) => p.id)).toEqual(['logged-out-blocked-user'])
  })

  it('without a refresh token the plain logout call is used; its errors are ignored', async () => {
    const s = setup()
    s.stores.session.getState().setSessionHash('h')
    s.answer('auth/logout', { ok: false, code: 'NETWORK_ERROR' })
    await s.auth.logout('SEFT_LOGOUT')
    expect(s.calls.map((c) => c.path)).toEqual(['/mobile-gate/api/v1/auth/logout'])
    expect(s.stores.session.getState().sessionHash).toBeNull()
  })
})

describe('login on the client', () => {
  it('a phone number goes to the phone-number call; a captcha request is solved once and retried', async () => {
    const s = setup()
    let solved = 0
    const auth = createAuthController({
      stores: s.stores,
      gateway: { call: async <T,>(method: string, path: string, body?: unknown) => { s.calls.push({ method, path, body }); return (s.calls.length === 1 ? { ok: false, code: 'CAPTCHA_REQUIRED' } : path.endsWith('heartbeat') ? { ok: true, value: { settings: { locale: 'ru', oddsType: 'american', isQuickBetEnable: true } } } : { ok: true, value: tokens(1) }) as Result<T> } },
      now: () => s.clock.now,
      setTimeout: () => 0,
      clearTimeout: () => undefined,
      solveCaptcha: async () => (solved++, { ok: true, value: 'pow-payload' }),
    })
    const result = await auth.login({ login: ' +599 9510 1001 ', password: 'pw' })
    expect(result.ok).toBe(true)
    expect(solved).toBe(1)
    expect(s.calls[0]).toEqual({ method: 'POST', path: '/mobile-gate/api/v1/auth/v2/login/phone-number', body: { phoneNumber: '+599 9510 1001', password: 'pw' } })
    expect(s.calls[1].body).toEqual({ phoneNumber: '+599 9510 1001', password: 'pw', captcha: 'pow-payload' })
    expect(s.calls[2].path).toBe('/mobile-gate/api/v1/heartbeat')
    // server-side settings from the heartbeat; a local-only key there is ignored; locale restored
    expect(s.stores.settings.getState().server.oddsType).toBe('american')
    expect(s.stores.settings.getState().local.isQuickBetEnable).not.toBe(true)
    expect(s.stores.site.getState().locale).toBe('ru')
  })
})

describe('the punter’s saved language at login (issue 9: as the language page does it)', () => {
  function loginWithSavedLocale(savedLocale: string) {
    const s = setup()
    const gateway: Gateway = {
      call: async <T,>(_method: string, path: string) => (path.endsWith('heartbeat') ? { ok: true, value: { settings: { locale: savedLocale } } } : { ok: true, value: tokens(1) }) as Result<T>,
    }
    const seen = { reloadedIn: [] as string[], rulesRun: 0, pending: false }
    const controller = (extra: Partial<Parameters<typeof createAuthController>[0]> = {}) =>
      createAuthController({
        stores: s.stores,
        gateway,
        now: () => s.clock.now,
        setTimeout: () => 0,
        clearTimeout: () => undefined,
        afterLogin: async () => void seen.rulesRun++,
        loginLocale: (locale) => (seen.reloadedIn.push(locale), (seen.pending = true)),
        takePendingAfterLogin: () => {
          const pending = seen.pending
          seen.pending = false
          return pending
        },
        restoreLocale: () => false,
        ...extra,
      })
    return { ...s, seen, controller }
  }

  it('another saved language reloads the page in it instead of switching in place; the after-login rules run once, after the reload', async () => {
    const t = loginWithSavedLocale('ru')
    expect((await t.controller().login({ login: 'opened@demo.parlay.test', password: 'pw' })).ok).toBe(true)
    expect(t.seen.reloadedIn).toEqual(['ru'])
    expect(t.stores.site.getState().locale).toBe('en')
    expect(t.seen.rulesRun).toBe(0)
    // the reloaded page restores the stored session, then runs the rules the login left
    const reloaded = t.controller()
    await reloaded.restore()
    expect(t.seen.rulesRun).toBe(1)
    await t.controller().restore()
    expect(t.seen.rulesRun).toBe(1)
  })

  it("the page's own language, or one the site does not offer, reloads nothing and runs the rules at once", async () => {
    for (const saved of ['en', 'de']) {
      const t = loginWithSavedLocale(saved)
      await t.controller().login({ login: 'opened@demo.parlay.test', password: 'pw' })
      expect(t.seen.reloadedIn).toEqual([])
      expect(t.stores.site.getState().locale).toBe('en')
      expect(t.seen.rulesRun).toBe(1)
    }
  })
})

describe('error mapping (spec §8 display rules) for the login codes', () => {
  it.each([
    ['INCORRECT_PASSWORD', 'server.error.INCORRECT_PASSWORD'],
    ['CAPTCHA_REQUIRED', 'server.error.CAPTCHA_REQUIRED'],
    ['LOGIN_NOT_FOUND', 'server.error.undefined'],
    ['EMPTY_TOKEN', 'server.error.undefined'],
    [undefined, 'common.request.error'],
  ])('%s → %s', (code, key) => {
    expect(errorMessageKey(code)).toBe(key)
  })
})

describe('settings split (spec §3)', () => {
  it('server-side keys, local-only keys and unknown keys are told apart', () => {
    expect(splitSettings({ oddsType: 'american', isQuickBetEnable: true, quickBetAmount: 5, admin: true })).toEqual({
      server: { oddsType: 'american' },
      local: { isQuickBetEnable: true, quickBetAmount: 5 },
      unknown: ['admin'],
    })
  })
})

/**
 * The punter session across reloads, expiry and tabs (spec §3 Session, §4 Token refresh / Login
 * flow / Logout, §8 unauthorised session and "Refresh: INVALID_REFRESH_TOKEN logs out"; issue 9).
 *
 * Real stores, the real gateway and real auth controllers over a small in-memory model of the
 * mobile gate that rotates refresh tokens and revokes the family on reuse, like the server. Two
 * "tabs" are two sets of stores on one storage, one lock and one message bus. Clock and timers are
 * injected: nothing sleeps.
 */
import { describe, expect, it } from 'vitest'
import type { SiteBootstrap } from '../../../kernel/core/contracts'
import { createGateway } from '../../../engine/core/gateway'
import { createEngineStores, type StorageLike } from '../../../engine/core/stores'
import { createAuthController, SESSION_RETRY_MS, type AuthController } from '../../../engine/auth/session'
import { inPageLock, sharedTabs, type SessionChannel, type SessionMessage } from '../../../engine/auth/session-tabs'

const GATE = '/mobile-gate/api/v1'
const T0 = 1_700_000_000_000
const LOGIN_TIMEOUT = 900_000

const site: SiteBootstrap = {
  site: { id: 'curacao', jurisdiction: 'curacao', name: 'C', defaultLocale: 'en', locales: ['en', 'ru'], currency: 'USD', minimumAge: 18, mainProduct: 'sport', development: true },
  remoteConfig: {},
  routes: [],
  documentsVersion: 'v',
  version: '1.22.0',
} as unknown as SiteBootstrap

function memoryStorage(): StorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>()
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) }
}

/** The mobile gate in miniature: one session family, rotation, reuse detection, logout. */
function fakeGate(clock: { now: number }) {
  let n = 0
  const state = {
    hash: 'hash-1',
    access: 'at0',
    refresh: 'rt0',
    used: new Set<string>(),
    revoked: false,
    accessExpiresAt: T0 + LOGIN_TIMEOUT,
    locale: 'en',
    balance: 125.5,
  }
  const calls: string[] = []
  const tokens = () => ({ status: 'OK', accessToken: state.access, refreshToken: state.refresh, creationTime: clock.now, loginTimeout: LOGIN_TIMEOUT })
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  const unauthorized = () => json(401, { status: 'ERROR', errorCode: 'UNAUTHORIZED' })

  async function fetch(url: string, init: RequestInit = {}): Promise<Response> {
    await Promise.resolve() // answers arrive later than the call, as on a network
    const path = url.replace(GATE, '')
    calls.push(path)
    const headers = (init.headers ?? {}) as Record<string, string>
    const live = !state.revoked && headers['punter-session-hash'] === state.hash && headers.authorization === `Bearer ${state.access}` && clock.now < state.accessExpiresAt
    if (path === '/heartbeat') {
      if (!live) return unauthorized()
      return json(200, { status: 'OK', payload: { punterInfo: { state: 'OPENED', details: { firstName: 'Demo' } }, balanceInfo: { mainBalance: state.balance }, settings: { locale: state.locale, oddsType: 'american' } } })
    }
    if (path === '/auth/v2/token/refresh') {
      const { token } = JSON.parse(String(init.body)) as { token: string }
      if (state.revoked || token !== state.refresh) {
        if (state.used.has(token)) state.revoked = true // reuse: the whole family dies
        return json(401, { status: 'ERROR', errorCode: 'INVALID_REFRESH_TOKEN' })
      }
      state.used.add(token)
      n++
      state.access = `at${n}`
      state.refresh = `rt${n}`
      state.accessExpiresAt = clock.now + LOGIN_TIMEOUT
      return json(200, { status: 'OK', payload: tokens() })
    }
    if (path === '/auth/v2/login') {
      state.revoked = false
      state.hash = `hash-${++n}`
      state.access = `at${n}`
      state.refresh = `rt${n}`
      state.accessExpiresAt = clock.now + LOGIN_TIMEOUT
      return json(200, { status: 'OK', payload: { ...tokens(), punterHash: state.hash } })
    }
    if (path === '/auth/token/logout' || path === '/auth/logout') {
      state.revoked = true
      return json(200, { status: 'OK', payload: null })
    }
    if (path === '/guest-only') return unauthorized()
    if (path === '/punter/thing') return live ? json(200, { status: 'OK', payload: 'thing' }) : unauthorized()
    if (path === '/punter/hash-error') return json(200, { status: 'ERROR', errorCode: 'INVALID_SESSION_HASH' })
    return json(404, { status: 'ERROR', errorCode: 'NOT_FOUND' })
  }
  return { state, calls, fetch, count: (path: string) => calls.filter((c) => c === path).length }
}

/** One browser: a clock, timers, a storage, a lock and a bus shared by its tabs. */
function browser() {
  const clock = { now: T0 }
  const timers: { fn: () => void; at: number; cancelled: boolean }[] = []
  const setTimeout = (fn: () => void, ms: number) => {
    const timer = { fn, at: clock.now + ms, cancelled: false }
    timers.push(timer)
    return timer
  }
  const clearTimeout = (t: unknown) => void ((t as { cancelled: boolean }).cancelled = true)
  const storage = memoryStorage()
  const lock = inPageLock()
  const listeners = new Set<{ tab: number; fn: (m: SessionMessage) => void }>()
  const gate = fakeGate(clock)
  let tabCount = 0

  /** Lets every pending promise and message run. */
  const settle = async () => {
    for (let i = 0; i < 30; i++) await new Promise((r) => setImmediate(r))
  }
  /** Moves the clock; due timers fire (the gateway's 30 s request timers included). */
  const advance = async (ms: number) => {
    clock.now += ms
    for (const t of timers.filter((t) => !t.cancelled && t.at <= clock.now)) {
      t.cancelled = true
      t.fn()
    }
    await settle()
  }

  function openTab(options: { restoreLocale?: (locale: string) => boolean } = {}) {
    const tab = ++tabCount
    const channel: SessionChannel = {
      // like BroadcastChannel: delivered later, to the other tabs only
      post: (message) => {
        for (const l of listeners) if (l.tab !== tab) queueMicrotask(() => l.fn(message))
      },
      subscribe: (fn) => {
        const entry = { tab, fn }
        listeners.add(entry)
        return () => listeners.delete(entry)
      },
    }
    const stores = createEngineStores({ storage, site, setTimeout, clearTimeout })
    let auth: AuthController | undefined
    const gateway = createGateway({
      fetch: (url, init) => gate.fetch(url, init),
      stores,
      setTimeout,
      clearTimeout,
      onUnauthorized: (code, sent, path) => auth!.handleUnauthorized(code, sent, path),
    })
    const navigated: string[] = []
    auth = createAuthController({
      stores,
      gateway,
      now: () => clock.now,
      setTimeout,
      clearTimeout,
      tabs: sharedTabs(storage, lock, channel),
      postText: async (path) => void (await gate.fetch(path, { method: 'POST' })),
      navigate: (path) => navigated.push(path),
      restoreLocale: options.restoreLocale,
    })
    const popups = () => stores.ui.getState().popups.map((p) => p.id)
    return { stores, gateway, auth, navigated, popups, status: () => stores.session.getState().status }
  }

  /** A punter logged in before the page (re)loaded: the session sits in storage. */
  function storedSession(fields: { expireTokenTime?: number } = {}) {
    storage.setItem('session', JSON.stringify({ accessToken: 'at0', refreshToken: 'rt0', creationTime: T0, loginTimeout: LOGIN_TIMEOUT, expireTokenTime: fields.expireTokenTime ?? T0 + LOGIN_TIMEOUT, rememberMe: false, isLoginByAuthToken: false }))
    storage.setItem('sessionHash', JSON.stringify('hash-1'))
  }
  return { clock, timers, storage, gate, settle, advance, openTab, storedSession }
}

describe('after a reload the stored session is restored (spec §3, §4 login flow)', () => {
  it('a stored session is "restoring" until its heartbeat is in, then "punter" with the right balance', async () => {
    const b = browser()
    b.storedSession()
    const tab = b.openTab()
    expect(tab.status()).toBe('restoring')
    expect(tab.stores.user.getState().data).toBeNull()
    await tab.auth.restore()
    expect(tab.status()).toBe('punter')
    expect(tab.stores.user.getState().data?.balanceInfo?.mainBalance).toBe(125.5)
    expect(tab.stores.settings.getState().server.oddsType).toBe('american')
  })

  it('a page without a stored session is a guest at once, with no call', async () => {
    const b = browser()
    const tab = b.openTab()
    expect(tab.status()).toBe('guest')
    await tab.auth.restore()
    expect(tab.status()).toBe('guest')
    expect(b.gate.calls).toEqual([])
  })

  it('the refresh timer is re-armed at the stored expiry time and refreshes then', async () => {
    const b = browser()
    b.storedSession()
    const tab = b.openTab()
    await tab.auth.restore()
    await b.advance(LOGIN_TIMEOUT - 1)
    expect(b.gate.count('/auth/v2/token/refresh')).toBe(0)
    await b.advance(1)
    expect(b.gate.count('/auth/v2/token/refresh')).toBe(1)
    expect(tab.stores.session.getState()).toMatchObject({ accessToken: 'at1', refreshToken: 'rt1', expireTokenTime: T0 + 2 * LOGIN_TIMEOUT })
    expect(tab.status()).toBe('punter')
  })

  it('a stored access token that has already expired is refreshed before the heartbeat', async () => {
    const b = browser()
    b.storedSession()
    b.clock.now = T0 + LOGIN_TIMEOUT + 60_000 // the page was closed past the expiry
    const tab = b.openTab()
    await tab.auth.restore()
    expect(b.gate.calls).toEqual(['/auth/v2/token/refresh', '/heartbeat'])
    expect(tab.status()).toBe('punter')
    expect(tab.stores.session.getState().expireTokenTime).toBe(b.clock.now + LOGIN_TIMEOUT)
  })

  it('the punter\'s server-side locale goes to the locale rule; while the page reloads for it the status stays "restoring"', async () => {
    const b = browser()
    b.storedSession()
    b.gate.state.locale = 'ru'
    const asked: string[] = []
    const tab = b.openTab({ restoreLocale: (locale) => (asked.push(locale), true) })
    await tab.auth.restore()
    expect(asked).toEqual(['ru'])
    expect(tab.status()).toBe('restoring')
  })

  it('a heartbeat that fails on the network keeps the session "restoring" and is tried again later', async () => {
    const b = browser()
    b.storedSession()
    const realFetch = b.gate.fetch
    let down = true
    b.gate.fetch = async (url, init) => {
      if (down) throw new TypeError('Failed to fetch')
      return realFetch(url, init)
    }
    const tab = b.openTab()
    await tab.auth.restore()
    expect(tab.status()).toBe('restoring')
    expect(tab.stores.session.getState().accessToken).toBe('at0')
    down = false
    await b.advance(SESSION_RETRY_MS)
    expect(tab.status()).toBe('punter')
  })

  it('a refresh token refused at restore logs out with reason RT_EXPIRED: session-expired popup', async () => {
    const b = browser()
    b.storedSession()
    b.gate.state.revoked = true
    b.clock.now = T0 + LOGIN_TIMEOUT + 1
    const tab = b.openTab()
    await tab.auth.restore()
    expect(tab.status()).toBe('guest')
    expect(tab.popups()).toEqual(['session-expired'])
    expect(b.storage.data.has('session')).toBe(false)
  })
})

describe('an unauthorised answer ends the session (spec §8: HTTP 401 or INVALID_SESSION_HASH)', () => {
  async function punterTab() {
    const b = browser()
    b.storedSession()
    const tab = b.openTab()
    await tab.auth.restore()
    tab.stores.route.getState().setRoute({ path: '/account/settings' })
    return { b, tab }
  }

  it('a 401 logs out with reason AT_EXPIRED: server logout, everything cleared, session-expired popup, back to the root', async () => {
    const { b, tab } = await punterTab()
    b.gate.state.revoked = true // logged out elsewhere
    const result = await tab.gateway.call('GET', `${GATE}/punter/thing`)
    await b.settle()
    expect(result).toMatchObject({ ok: false, code: 'UNAUTHORIZED' })
    expect(tab.status()).toBe('guest')
    expect(tab.stores.session.getState().accessToken).toBeNull()
    expect(tab.stores.user.getState().data).toBeNull()
    expect(tab.popups()).toEqual(['session-expired'])
    expect(tab.navigated).toEqual(['/'])
    expect(b.gate.count('/auth/token/logout')).toBe(1)
  })

  it('three 401s at once log out once', async () => {
    const { b, tab } = await punterTab()
    b.gate.state.revoked = true
    await Promise.all([1, 2, 3].map(() => tab.gateway.call('GET', `${GATE}/punter/thing`)))
    await b.settle()
    expect(b.gate.count('/auth/token/logout')).toBe(1)
    expect(tab.popups()).toEqual(['session-expired'])
  })

  it('two logouts at once (a 401 and a refused refresh) call the server once', async () => {
    const { b, tab } = await punterTab()
    await Promise.all([tab.auth.logout('AT_EXPIRED'), tab.auth.logout('RT_EXPIRED')])
    expect(b.gate.count('/auth/token/logout')).toBe(1)
    expect(tab.popups()).toEqual(['session-expired'])
  })

  it('INVALID_SESSION_HASH counts as unauthorised too', async () => {
    const { b, tab } = await punterTab()
    await tab.gateway.call('GET', `${GATE}/punter/hash-error`)
    await b.settle()
    expect(tab.status()).toBe('guest')
    expect(tab.popups()).toEqual(['session-expired'])
  })

  it('a guest call that gets 401 changes nothing: no logout call, no popup', async () => {
    const b = browser()
    const tab = b.openTab()
    await tab.auth.restore()
    const result = await tab.gateway.call('GET', `${GATE}/guest-only`)
    await b.settle()
    expect(result).toMatchObject({ ok: false, code: 'UNAUTHORIZED' })
    expect(b.gate.calls).toEqual(['/guest-only'])
    expect(tab.popups()).toEqual([])
  })

  it('INVALID_REFRESH_TOKEN (HTTP 401) keeps its code and logs out once with reason RT_EXPIRED', async () => {
    const { b, tab } = await punterTab()
    b.gate.state.refresh = 'rotated-elsewhere'
    const result = await tab.auth.refresh()
    await b.settle()
    expect(result).toMatchObject({ ok: false, code: 'INVALID_REFRESH_TOKEN' })
    expect(tab.status()).toBe('guest')
    expect(tab.popups()).toEqual(['session-expired'])
    expect(b.gate.count('/auth/token/logout')).toBe(1)
  })

  it('a request that carried a token replaced meanwhile is sent again with the new one, without logout', async () => {
    const { b, tab } = await punterTab()
    // the refresh lands while the request is on its way: the server has revoked the token it carries
    const call = tab.gateway.call('GET', `${GATE}/punter/thing`)
    await tab.auth.refresh()
    const result = await call
    expect(result).toEqual({ ok: true, value: 'thing' })
    expect(tab.status()).toBe('punter')
    expect(b.gate.count('/auth/token/logout')).toBe(0)
  })

  it('a 401 after the refresh timer slept past the expiry refreshes and retries instead of logging out', async () => {
    const { b, tab } = await punterTab()
    b.clock.now += LOGIN_TIMEOUT + 5_000 // the device slept: the timer has not fired yet
    const result = await tab.gateway.call('GET', `${GATE}/punter/thing`)
    expect(result).toEqual({ ok: true, value: 'thing' })
    expect(b.gate.count('/auth/v2/token/refresh')).toBe(1)
    expect(tab.status()).toBe('punter')
  })
})

describe('two tabs share one session (issue 9: login, logout and refresh reach every tab)', () => {
  it('a login in one tab logs the other in: it loads its own heartbeat ("restoring", then "punter")', async () => {
    const b = browser()
    const a = b.openTab()
    const other = b.openTab()
    await Promise.all([a.auth.restore(), other.auth.restore()])
    await a.auth.login({ login: 'opened@demo.parlay.test', password: 'pw' })
    await b.settle()
    expect(a.status()).toBe('punter')
    expect(other.status()).toBe('punter')
    expect(other.stores.session.getState().accessToken).toBe(a.stores.session.getState().accessToken)
    expect(other.stores.user.getState().data?.balanceInfo?.mainBalance).toBe(125.5)
  })

  it('a logout in one tab logs the other out, without a second server call', async () => {
    const b = browser()
    b.storedSession()
    const a = b.openTab()
    const other = b.openTab()
    await Promise.all([a.auth.restore(), other.auth.restore()])
    await a.auth.logout('SEFT_LOGOUT')
    await b.settle()
    expect(other.status()).toBe('guest')
    expect(other.stores.session.getState().refreshToken).toBeNull()
    expect(other.popups()).toEqual([])
    expect(b.gate.count('/auth/token/logout')).toBe(1)
  })

  it('an expiry logout in one tab shows the session-expired popup in the other too', async () => {
    const b = browser()
    b.storedSession()
    const a = b.openTab()
    const other = b.openTab()
    await Promise.all([a.auth.restore(), other.auth.restore()])
    await a.auth.logout('AT_EXPIRED')
    await b.settle()
    expect(other.popups()).toEqual(['session-expired'])
  })

  it('both timers fire at the expiry: one refresh call, both tabs adopt its tokens, the family survives', async () => {
    const b = browser()
    b.storedSession()
    const a = b.openTab()
    const other = b.openTab()
    await Promise.all([a.auth.restore(), other.auth.restore()])
    await b.advance(LOGIN_TIMEOUT)
    expect(b.gate.count('/auth/v2/token/refresh')).toBe(1)
    expect(b.gate.state.revoked).toBe(false)
    expect(other.stores.session.getState()).toMatchObject({ accessToken: 'at1', refreshToken: 'rt1' })
    expect(a.stores.session.getState()).toMatchObject({ accessToken: 'at1', refreshToken: 'rt1' })
    expect(await other.gateway.call('GET', `${GATE}/punter/thing`)).toEqual({ ok: true, value: 'thing' })
    expect([a.popups(), other.popups()]).toEqual([[], []])
  })

  it('a tab whose message was lost still never reuses the rotated token: it re-reads storage under the lock', async () => {
    const b = browser()
    b.storedSession()
    const a = b.openTab()
    const other = b.openTab()
    await Promise.all([a.auth.restore(), other.auth.restore()])
    other.auth.stop() // stops listening (a frozen tab): it still holds rt0
    await a.auth.refresh()
    expect(other.stores.session.getState().refreshToken).toBe('rt0')
    const result = await other.auth.refresh()
    expect(result.ok).toBe(true)
    expect(b.gate.count('/auth/v2/token/refresh')).toBe(1)
    expect(other.stores.session.getState().refreshToken).toBe('rt1')
    expect(b.gate.state.revoked).toBe(false)
  })

  it('a 401 in one tab on a token the other tab just rotated is retried with the new token, no logout', async () => {
    const b = browser()
    b.storedSession()
    const a = b.openTab()
    const other = b.openTab()
    await Promise.all([a.auth.restore(), other.auth.restore()])
    other.auth.stop() // the rotation message has not reached it
    await a.auth.refresh()
    const result = await other.gateway.call('GET', `${GATE}/punter/thing`)
    expect(result).toEqual({ ok: true, value: 'thing' })
    expect(other.status()).toBe('punter')
    expect(b.gate.count('/auth/token/logout')).toBe(0)
  })
})

describe('one logout per session, whichever path arrives first (the HTTP answer or the socket\'s accountLogout)', () => {
  /** A punter on /sport whose every popup opening is recorded (a popup closed and opened again counts twice). */
  async function punterTab(b: ReturnType<typeof browser>, tab = b.openTab()) {
    await tab.auth.restore()
    tab.stores.route.getState().setRoute({ path: '/sport' })
    const opened: string[] = []
    let before = new Set<string>()
    tab.stores.ui.subscribe((ui) => {
      const now = new Set(ui.popups.map((p) => p.id))
      for (const id of now) if (!before.has(id)) opened.push(id)
      before = now
    })
    return { ...tab, opened }
  }
  /** Holds the gate's answers to `path` until released (a slow network for that one call). */
  function holdAnswers(b: ReturnType<typeof browser>, path: string) {
    const real = b.gate.fetch
    const held: (() => void)[] = []
    b.gate.fetch = async (url, init) => {
      if (url.endsWith(path)) await new Promise<void>((go) => held.push(go))
      return real(url, init)
    }
    return () => held.splice(0).forEach((go) => go())
  }
  /** What the punter socket's accountLogout handler does (engine/renderers/punter-socket.ts). */
  const socketFrame = (tab: { auth: AuthController }) => tab.auth.logout('SOCKET')

  it('HTTP first, then the socket: the refused refresh logs out with RT_EXPIRED; the late frame changes nothing (no second popup, no trip home)', async () => {
    const b = browser()
    b.storedSession()
    const tab = await punterTab(b)
    b.gate.state.revoked = true
    await b.advance(LOGIN_TIMEOUT)
    expect(tab.status()).toBe('guest')
    await socketFrame(tab)
    await b.settle()
    expect(tab.opened).toEqual(['session-expired'])
    expect(tab.navigated).toEqual([])
    expect(b.gate.count('/auth/token/logout')).toBe(1)
  })

  it('the socket frame while the refresh at expiry is on its way waits for it: RT_EXPIRED wins, one popup, the page stays', async () => {
    const b = browser()
    b.storedSession()
    const tab = await punterTab(b)
    b.gate.state.revoked = true
    const release = holdAnswers(b, '/auth/v2/token/refresh')
    await b.advance(LOGIN_TIMEOUT) // the refresh is sent, its answer held
    const frame = socketFrame(tab)
    await b.settle()
    expect(tab.status()).not.toBe('guest') // the frame waits for the refresh's answer
    release()
    await frame
    await b.settle()
    expect(tab.status()).toBe('guest')
    expect(tab.opened).toEqual(['session-expired'])
    expect(tab.navigated).toEqual([])
    expect(b.gate.count('/auth/token/logout')).toBe(1)
  })

  it('socket first, then HTTP: SOCKET goes home with one session-expired popup; the refused refresh after it is ignored', async () => {
    const b = browser()
    b.storedSession()
    const tab = await punterTab(b)
    b.gate.state.revoked = true
    await socketFrame(tab)
    expect(tab.navigated).toEqual(['/'])
    await tab.auth.logout('RT_EXPIRED') // the HTTP path's verdict on the same, already ended session
    await b.advance(LOGIN_TIMEOUT)
    expect(tab.opened).toEqual(['session-expired'])
    expect(tab.navigated).toEqual(['/'])
    expect(b.gate.count('/auth/token/logout')).toBe(1)
  })

  it('a frame that arrives while a session-ending call (self-exclusion) is in flight waits: that call\'s own popup is the only one', async () => {
    const b = browser()
    b.storedSession()
    const tab = await punterTab(b)
    let answer!: () => void
    const excluded = tab.auth.whileEnding(async () => {
      await new Promise<void>((go) => (answer = go)) // the self-exclusion call, answered later
      await tab.auth.logout('SEFT_LOGOUT')
      tab.stores.ui.getState().openPopup({ id: 'self-exclude' })
    })
    const frame = socketFrame(tab) // the server's accountLogout overtakes the HTTP answer
    await b.settle()
    expect(tab.status()).toBe('punter')
    answer()
    await Promise.all([excluded, frame])
    await b.settle()
    expect(tab.status()).toBe('guest')
    expect(tab.opened).toEqual(['self-exclude'])
    expect(tab.navigated).toEqual([])
    expect(b.gate.count('/auth/token/logout')).toBe(1)
  })

  it('a logout with a specific reason joining a SOCKET logout in flight takes its place: one popup, by the specific reason', async () => {
    const b = browser()
    b.storedSession()
    const tab = await punterTab(b)
    const release = holdAnswers(b, '/auth/token/logout')
    const bySocket = socketFrame(tab)
    const bySelf = tab.auth.logout('SEFT_LOGOUT', { popup: 'account-closed' })
    release()
    await Promise.all([bySocket, bySelf])
    expect(tab.opened).toEqual(['account-closed'])
    expect(tab.navigated).toEqual([])
    expect(b.gate.count('/auth/token/logout')).toBe(1)
  })

  it('two tabs: the tab that logs out by HTTP and the tab that follows it each show one popup; late socket frames in both are ignored', async () => {
    const b = browser()
    b.storedSession()
    const a = await punterTab(b)
    const other = await punterTab(b, b.openTab())
    b.gate.state.revoked = true
    await b.advance(LOGIN_TIMEOUT) // both timers fire: one refresh, refused; one logout
    await Promise.all([socketFrame(a), socketFrame(other)])
    await b.settle()
    expect([a.status(), other.status()]).toEqual(['guest', 'guest'])
    expect([a.opened, other.opened]).toEqual([['session-expired'], ['session-expired']])
    expect([a.navigated, other.navigated]).toEqual([[], []])
    expect(b.gate.count('/auth/token/logout')).toBe(1)
  })

  it('two tabs: a socket frame first in one tab ends the session there; the other tab follows once, its own late frame ignored', async () => {
    const b = browser()
    b.storedSession()
    const a = await punterTab(b)
    const other = await punterTab(b, b.openTab())
    b.gate.state.revoked = true
    await socketFrame(a)
    await b.settle()
    await socketFrame(other)
    await b.settle()
    expect([a.opened, other.opened]).toEqual([['session-expired'], ['session-expired']])
    expect(a.navigated).toEqual(['/'])
    expect(b.gate.count('/auth/token/logout')).toBe(1)
  })
})
